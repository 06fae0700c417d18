"""The files a server may read: the paths it was started with, and nothing outside them.

Each root is a run directory (it has ``summary.json``), a directory of player files, or
one player file. A path sent by a client is accepted only if its real path (symlinks
resolved) lies inside a root; ``..`` is refused outright, whatever it would resolve to.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from evoplay.errors import EvoplayError, PlayerFileError
from evoplay.files.paths import check_path, path_problem
from evoplay.files.playerfile import LEGACY_GAME, document_game, read_envelope, read_json

#: Most player files listed per directory root (a directory of thousands is not a menu),
#: how deep a directory root is searched, and how many .json files are opened to find them.
MAX_LISTED = 200
MAX_DEPTH = 4
MAX_EXAMINED = 1000
TRIAL_DIR = re.compile(r"trial_(\d+)$")


class ApiError(Exception):
    """A request the server refuses: an HTTP status and a one-line message."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status
        self.message = message.replace("\n", " ")


@dataclass(frozen=True)
class Root:
    given: str  # as the user wrote it (normalised), used to build the specs the page shows
    real: Path  # symlinks resolved
    kind: str  # "run", "players" or "file"

    def contains(self, real: Path) -> bool:
        if self.kind == "file":
            return real == self.real
        return real == self.real or self.real in real.parents

    def spec(self, real: Path) -> str:
        """The spec string naming ``real`` (inside this root) as the user would type it."""
        if real == self.real:
            return self.given
        return os.path.join(self.given, real.relative_to(self.real).as_posix())


def _given_form(text: str, real: Path) -> str:
    norm = os.path.normpath(text)
    return str(real) if ".." in Path(norm).parts else norm


class Roots:
    """The readable paths, path checks for client specs, and listings of what is there."""

    def __init__(self, paths, base=None):
        self.base = Path(base or os.getcwd())
        self.roots: list[Root] = []
        for text in paths:
            path = check_path(text)
            full = path if path.is_absolute() else self.base / path
            if not full.exists():
                raise EvoplayError(f"no such file or directory: {text}")
            real = Path(os.path.realpath(full))
            if real.is_dir():
                kind = "run" if (real / "summary.json").is_file() else "players"
            elif real.is_file() and real.suffix == ".json":
                try:  # a file that is no player file is refused now, not at the first request
                    read_envelope(real)
                except PlayerFileError as e:
                    raise EvoplayError(str(e).replace(str(real), text)) from None
                kind = "file"
            else:
                raise EvoplayError(f"{text} is neither a directory nor a .json player file")
            self.roots.append(Root(_given_form(text, real), real, kind))
        self.runs = [r for r in self.roots if r.kind == "run"]
        self._documents: dict = {}

    # ------------------------------------------------------------ path checks

    def inside(self, real: Path) -> bool:
        return any(root.contains(real) for root in self.roots)

    def resolve(self, spec: str) -> Path:
        """The real path of the player file a client names; 4xx ApiError if not allowed.

        A directory stands for its ``champion.json`` (a run directory's best champion).
        """
        problem = path_problem(spec)
        if problem is not None:
            raise ApiError(400, f"player path {spec!r} {problem}")
        path = Path(spec)
        if ".." in path.parts:
            raise ApiError(403, f"player path {spec!r} may not contain '..'")
        if not self.roots:
            raise ApiError(403, f"player path {spec!r}: this server was started without paths, so it reads no files")
        full = path if path.is_absolute() else self.base / path
        real = Path(os.path.realpath(full))
        if not self.inside(real):
            raise ApiError(403, f"player path {spec!r} is outside the paths this server was started with")
        if real.is_dir():
            real = Path(os.path.realpath(real / "champion.json"))
            if not self.inside(real):
                raise ApiError(403, f"player path {spec!r} leads outside the paths this server was started with")
        if not real.is_file():
            raise ApiError(404, f"player file not found: {spec}")
        return real

    # ------------------------------------------------------------ listings

    def _is_player_file(self, real: Path) -> bool:
        try:
            stat = real.stat()
        except OSError:
            return False
        key = (real, stat.st_mtime_ns, stat.st_size)
        if key not in self._documents:
            try:
                read_envelope(real)
                self._documents[key] = True
            except PlayerFileError:
                self._documents[key] = False
        return self._documents[key]

    def _run_champions(self, root: Root) -> list[dict]:
        found = []
        best = root.real / "champion.json"
        if best.is_file() and self.inside(Path(os.path.realpath(best))):
            found.append({"spec": root.spec(best), "label": f"{root.real.name}: best champion", "trial": None})
        trials = root.real / "trials"
        if trials.is_dir():
            for d in sorted(trials.iterdir()):
                m = TRIAL_DIR.match(d.name)
                file = d / "champion.json"
                if m and file.is_file() and self.inside(Path(os.path.realpath(file))):
                    trial = int(m.group(1))
                    label = f"{root.real.name}: trial {trial} champion"
                    found.append({"spec": root.spec(file), "label": label, "trial": trial})
        return found

    def player_files(self) -> list[dict]:
        """Player files in the roots, as ``{"spec", "label"}`` (spec is what the page sends)."""
        listed = []
        for root in self.roots:
            if root.kind == "run":
                listed += [{"spec": c["spec"], "label": c["label"]} for c in self._run_champions(root)]
            elif root.kind == "file":
                if self._is_player_file(root.real):
                    listed.append({"spec": root.given, "label": root.real.name})
            else:
                for path in self._json_files(root.real):
                    spec = root.spec(path)
                    listed.append({"spec": spec, "label": os.path.relpath(spec, os.path.dirname(root.given) or ".")})
        return listed

    def _json_files(self, top: Path) -> list[Path]:
        """Player files under a directory root: at most MAX_LISTED, MAX_DEPTH folders deep,
        after looking at no more than MAX_EXAMINED ``.json`` files (symlinked folders are
        not entered; symlinked files count only if they lead inside the roots)."""
        found, examined = [], 0
        for folder, dirs, files in os.walk(top):
            depth = len(Path(folder).relative_to(top).parts)
            dirs[:] = sorted(d for d in dirs if not d.startswith(".")) if depth < MAX_DEPTH else []
            for name in sorted(f for f in files if f.endswith(".json")):
                if len(found) >= MAX_LISTED or examined >= MAX_EXAMINED:
                    return found
                examined += 1
                path = Path(folder) / name
                real = Path(os.path.realpath(path))
                if self.inside(real) and self._is_player_file(real):
                    found.append(path)
        return found

    def run(self, index: int) -> Root:
        if not 0 <= index < len(self.runs):
            raise ApiError(404, f"no run {index} (this server shows {len(self.runs)} run directories)")
        return self.runs[index]

    def run_listing(self) -> list[dict]:
        return [{"id": i, "name": r.real.name, "path": r.given} for i, r in enumerate(self.runs)]

    def run_details(self, index: int) -> dict:
        """A run directory's summary, champions' analysis and champion specs."""
        root = self.run(index)
        summary = self.run_json(root, "summary.json")
        analysis = self.run_json(root, "analysis.json") if (root.real / "analysis.json").is_file() else None
        curve = next((n for n in ("curve.svg", "curve.png") if (root.real / n).is_file()), None)
        champions = self._run_champions(root)
        return {
            "id": index,
            "name": root.real.name,
            "path": root.given,
            "summary": summary,
            "analysis": analysis,
            "champions": champions,
            "curve": curve,
        }

    def run_game(self, root: Root) -> tuple[str, str | None]:
        """(reference, sha256 of its file where the run recorded one) of the game a run's
        champions play: a player file names its game in its architecture (tic-tac-toe's
        files, the first kind, do not)."""
        for c in self._run_champions(root):
            try:
                doc = read_envelope(self.resolve(c["spec"]))
            except (ApiError, EvoplayError):
                continue
            digest = doc["architecture"].get("game_sha256")
            return document_game(doc), digest if isinstance(digest, str) else None
        return LEGACY_GAME, None

    def curve_file(self, index: int) -> Path:
        root = self.run(index)
        for name in ("curve.svg", "curve.png"):
            real = Path(os.path.realpath(root.real / name))
            if real.is_file() and self.inside(real):
                return real
        raise ApiError(404, f"run {root.given} has no curve.svg or curve.png")

    def run_json(self, root: Root, name: str):
        """The JSON in a run's file ``name``; 403 if it leads outside the roots, 409 naming the
        file (as the server was given it) if it is missing, damaged or too large."""
        real = Path(os.path.realpath(root.real / name))
        if not self.inside(real):
            raise ApiError(403, f"{name} of the run leads outside the paths this server was started with")
        shown = os.path.join(root.given, name)
        # the bounded reader refuses NaN and infinities too, which the answer could not hold
        return read_json(real, "run file", error=lambda message: ApiError(409, message.replace(str(real), shown)))
