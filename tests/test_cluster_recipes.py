"""The cluster recipes, checked against what reads them: the RayJob against KubeRay's RayJob
CRD (vendored in cluster/schemas/, with unknown fields rejected as `kubectl apply` does),
cluster.yaml against the schema `ray up` applies, the Dockerfile and .dockerignore against
the repository, and the README's token recipe by running it."""

import copy
import functools
import hashlib
import importlib.util
import json
import math
import os
import re
import stat
import subprocess
import sys
import tomllib
from pathlib import Path

import jsonschema
import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
CLUSTER = ROOT / "cluster"
CRD = CLUSTER / "schemas" / "ray.io_rayjobs.yaml"
LOCK = ROOT / "requirements.lock"
# Ray's cluster-launcher schema, as `ray up` applies it (found without importing Ray).
RAY_SCHEMA = Path(importlib.util.find_spec("ray").origin).parent / "autoscaler" / "ray-schema.json"


def lock_version(name: str) -> str:
    match = re.search(rf"^{re.escape(name)}==(\S+)$", LOCK.read_text(), re.M | re.I)
    assert match, f"requirements.lock pins no {name}"
    return match.group(1)


def rayjob() -> dict:
    return yaml.safe_load((CLUSTER / "rayjob.yaml").read_text())


def cluster_readme() -> str:
    return (CLUSTER / "README.md").read_text()


# ---- the RayJob against KubeRay's CRD ---------------------------------------------------


def strict(schema):
    """The CRD's openAPIV3Schema as JSON Schema, with unknown fields rejected.

    Kubernetes prunes fields a structural schema does not name, and `kubectl apply`
    (strict field validation, the default) refuses them; JSON Schema allows them unless
    told otherwise. Objects marked x-kubernetes-preserve-unknown-fields keep theirs.
    """
    if isinstance(schema, list):
        return [strict(s) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out = {k: strict(v) for k, v in schema.items()}
    if (out.get("type") == "object" and "properties" in schema and "additionalProperties" not in schema
            and not schema.get("x-kubernetes-preserve-unknown-fields")):
        out["additionalProperties"] = False
    return out


@functools.cache
def crd_v1_schema() -> dict:
    """The CRD's schema for ray.io/v1, as the CRD file gives it (parsed once: 1.3 MB)."""
    crd = yaml.load(CRD.read_text(), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    assert crd["spec"]["names"]["kind"] == "RayJob" and crd["spec"]["group"] == "ray.io"
    (version,) = [v for v in crd["spec"]["versions"] if v["name"] == "v1"]
    return version["schema"]["openAPIV3Schema"]


@functools.cache
def crd_validator() -> jsonschema.Draft7Validator:
    return jsonschema.Draft7Validator(strict(crd_v1_schema()))


def crd_errors(manifest: dict) -> list[str]:
    validator = crd_validator()
    return sorted(f"{'.'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(manifest))


def test_vendored_crd_is_the_release_its_readme_names():
    notes = (CLUSTER / "schemas" / "README.md").read_text()
    version = re.search(r"KubeRay \*\*(v[\d.]+)\*\*", notes).group(1)
    assert f"/blob/{version}/ray-operator/config/crd/bases/ray.io_rayjobs.yaml" in notes
    assert hashlib.sha256(CRD.read_bytes()).hexdigest() in notes
    assert "secretName" in crd_v1_schema()["properties"]["spec"]["properties"]["rayClusterSpec"]["properties"][
        "authOptions"]["properties"]
    # The oldest operator the recipes claim to support is the one they are checked against.
    assert f"KubeRay operator {version} or newer" in cluster_readme()
    assert f"KubeRay operator {version} or newer" in (CLUSTER / "rayjob.yaml").read_text()


def test_rayjob_matches_the_kuberay_crd():
    job = rayjob()
    assert job["apiVersion"] == "ray.io/v1" and job["kind"] == "RayJob"
    assert crd_errors(job) == []


def test_the_crd_check_rejects_misspelt_and_misplaced_fields():
    job = rayjob()
    typo = copy.deepcopy(job)
    typo["spec"]["rayClusterSpec"]["authOption"] = typo["spec"]["rayClusterSpec"].pop("authOptions")
    assert any("'authOption' was unexpected" in e for e in crd_errors(typo))
    misplaced = copy.deepcopy(job)
    misplaced["spec"]["authOptions"] = {"mode": "token"}
    assert any("'authOptions' was unexpected" in e for e in crd_errors(misplaced))
    bad_mode = copy.deepcopy(job)
    bad_mode["spec"]["rayClusterSpec"]["authOptions"]["mode"] = "tokens"
    assert any("is not one of ['disabled', 'token']" in e for e in crd_errors(bad_mode))


def _paths_with_cel_rules(schema, path=()):
    """Paths of the fields whose CRD schema has CEL rules (x-kubernetes-validations),
    which the API server checks and JSON Schema cannot."""
    if schema.get("x-kubernetes-validations"):
        yield path
    for name, sub in schema.get("properties", {}).items():
        yield from _paths_with_cel_rules(sub, path + (name,))
    if "items" in schema:
        yield from _paths_with_cel_rules(schema["items"], path + ("[]",))


def _has_path(doc, path) -> bool:
    if not path:
        return True
    if path[0] == "[]":
        return isinstance(doc, list) and any(_has_path(item, path[1:]) for item in doc)
    return isinstance(doc, dict) and path[0] in doc and _has_path(doc[path[0]], path[1:])


def test_rayjob_sets_no_field_that_only_the_api_server_could_check():
    cel = list(_paths_with_cel_rules(crd_v1_schema()))
    assert cel  # deletionStrategy, managedBy...
    assert [p for p in cel if _has_path(rayjob(), p)] == []


def test_rayjob_authenticates_kuberay_with_the_documented_secret():
    spec = rayjob()["spec"]["rayClusterSpec"]
    auth = spec.get("authOptions")
    assert auth is not None, "no rayClusterSpec.authOptions: KubeRay's requests to the jobs API get 401"
    assert auth["mode"] == "token"
    # The Secret the README (and the manifest's header) tell you to create, with the
    # key KubeRay reads (auth_token).
    create = re.compile(r"kubectl create secret generic (\S+) --from-literal=auth_token=")
    assert create.findall(cluster_readme()) == [auth["secretName"]]
    assert create.findall((CLUSTER / "rayjob.yaml").read_text()) == [auth["secretName"]]
    # KubeRay (>= 2.52 for token mode) checks rayVersion; it is the pinned Ray.
    assert spec["rayVersion"] == lock_version("ray")
    # One source for the token: authOptions. A container that set RAY_AUTH_TOKEN itself
    # could hold a different secret than the one KubeRay authenticates with.
    job = rayjob()["spec"]
    pods = [job["submitterPodTemplate"], spec["headGroupSpec"]["template"]]
    pods += [g["template"] for g in spec["workerGroupSpecs"]]
    for pod in pods:
        for container in pod["spec"]["containers"]:
            names = {e["name"] for e in container.get("env", [])}
            assert not names & {"RAY_AUTH_TOKEN", "RAY_AUTH_MODE", "RAY_AUTH_TOKEN_PATH"}, container["name"]


def _cpus(quantity: str) -> float:
    return float(quantity[:-1]) / 1000 if quantity.endswith("m") else float(quantity)


def test_rayjob_autoscaling_settings_do_what_they_say():
    job = rayjob()["spec"]
    spec = job["rayClusterSpec"]
    config = job["entrypoint"].split()[2]
    trials = tomllib.loads((ROOT / config).read_text())["trials"]
    for group in spec["workerGroupSpecs"]:
        lo, hi, n = group["minReplicas"], group["maxReplicas"], group["replicas"]
        assert lo <= n <= hi
        if lo != hi:
            # Without the in-tree autoscaler KubeRay keeps `replicas` pods and never
            # looks at minReplicas/maxReplicas.
            assert spec.get("enableInTreeAutoscaling") is True, group["groupName"]
        cpus = _cpus(str(group["template"]["spec"]["containers"][0]["resources"]["limits"]["cpu"]))
        # Each trial is a one-CPU task: the largest cluster runs every trial at once,
        # and has no worker that the experiment could never keep busy.
        assert hi == math.ceil(trials / cpus), (hi, trials, cpus)
    head = spec["headGroupSpec"]["rayStartParams"]
    assert head.get("num-cpus") == "0"


def test_rayjob_runs_the_dockerfile_image():
    job = rayjob()["spec"]
    spec = job["rayClusterSpec"]
    containers = [c for c in job["submitterPodTemplate"]["spec"]["containers"]]
    containers += spec["headGroupSpec"]["template"]["spec"]["containers"]
    for group in spec["workerGroupSpecs"]:
        containers += group["template"]["spec"]["containers"]
    assert len({c["image"] for c in containers}) == 1
    workdir = dockerfile_workdir()
    assert yaml.safe_load(job["runtimeEnvYAML"]) == {"working_dir": workdir}
    # The entrypoint's config is in a directory the image copies into its working dir.
    config = job["entrypoint"].split()[2]
    assert (ROOT / config).is_file()
    assert any(dest.rstrip("/") == f"./{config.split('/')[0]}" for _, dest in dockerfile_copies())
    assert f"docker build -t {containers[0]['image']} ." in (CLUSTER / "rayjob.yaml").read_text()


# ---- Dockerfile and .dockerignore -------------------------------------------------------


def dockerfile_lines() -> list[str]:
    text = (ROOT / "Dockerfile").read_text().replace("\\\n", " ")
    return [line.strip() for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]


def dockerfile_workdir() -> str:
    (workdir,) = [line.split()[1] for line in dockerfile_lines() if line.startswith("WORKDIR ")]
    return workdir


def dockerfile_copies() -> list[tuple[list[str], str]]:
    copies = []
    for line in dockerfile_lines():
        if line.startswith("COPY "):
            args = [a for a in line.split()[1:] if not a.startswith("--")]
            copies.append((args[:-1], args[-1]))
    return copies


def test_dockerfile_builds_on_the_pinned_ray_and_python():
    (base,) = [line.split()[1] for line in dockerfile_lines() if line.startswith("FROM ")]
    py = f"py{sys.version_info.major}{sys.version_info.minor}"
    assert base == f"rayproject/ray:{lock_version('ray')}-{py}-cpu"
    runs = " ".join(line for line in dockerfile_lines() if line.startswith("RUN "))
    assert "pip install --no-cache-dir -r requirements.lock" in runs
    assert "pip install --no-cache-dir --no-deps ." in runs
    # Everything `pip install .` reads is copied before it runs.
    copied = {src for sources, _ in dockerfile_copies() for src in sources}
    assert {"pyproject.toml", "README.md", "LICENSE", "evoplay", "requirements.lock"} <= copied
    for src in copied:
        assert (ROOT / src).exists(), src
    assert dockerfile_workdir() == "/home/ray/evoplay"


def dockerignore_rules() -> list[tuple[bool, re.Pattern]]:
    """.dockerignore as Docker reads it: the last matching line wins, "!" re-includes,
    `*` stays within a path segment, `**` spans segments, and a pattern that matches a
    directory matches everything under it."""
    rules = []
    for line in (ROOT / ".dockerignore").read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        negate = line.startswith("!")
        pattern = line[1:] if negate else line
        pattern = os.path.normpath(pattern.strip()).lstrip("/")
        regex, i = "", 0
        while i < len(pattern):
            if pattern.startswith("**/", i):
                regex, i = regex + "(?:.*/)?", i + 3
            elif pattern.startswith("**", i):
                regex, i = regex + ".*", i + 2
            elif pattern[i] == "*":
                regex, i = regex + "[^/]*", i + 1
            elif pattern[i] == "?":
                regex, i = regex + "[^/]", i + 1
            else:
                regex, i = regex + re.escape(pattern[i]), i + 1
        rules.append((negate, re.compile(regex + r"\Z")))
    return rules


def dockerignored(path: str, rules) -> bool:
    parts = path.split("/")
    prefixes = ["/".join(parts[:k]) for k in range(1, len(parts) + 1)]
    excluded = False
    for negate, regex in rules:
        if any(regex.match(p) for p in prefixes):
            excluded = not negate
    return excluded


def test_dockerignore_matcher_follows_dockers_rules():
    rules = [(False, re.compile(r"[^/]*\Z")), (True, re.compile(r"src\Z")), (False, re.compile(r"(?:.*/)?cache\Z"))]
    assert dockerignored("notes.txt", rules)
    assert not dockerignored("src/a/b.py", rules)
    assert dockerignored("src/a/cache/x", rules)


def test_dockerignore_sends_what_the_dockerfile_copies_and_nothing_else():
    rules = dockerignore_rules()
    copied = {src for sources, _ in dockerfile_copies() for src in sources}
    for src in sorted(copied):
        paths = [ROOT / src] if (ROOT / src).is_file() else sorted((ROOT / src).rglob("*"))
        for path in paths:
            rel = path.relative_to(ROOT).as_posix()
            if path.is_file() and "__pycache__" not in rel and not rel.endswith(".pyc"):
                assert not dockerignored(rel, rules), rel
    for entry in sorted(os.listdir(ROOT)):
        if entry not in copied:
            assert dockerignored(entry, rules), entry
    for heavy in (".git/HEAD", ".venv/bin/python", ".venv-jobs/bin/python", "results/fogel1993/summary.json",
                  "evoplay/__pycache__/cli.cpython-311.pyc"):
        assert dockerignored(heavy, rules), heavy


# ---- the AWS cluster launcher config ----------------------------------------------------


def test_cluster_yaml_matches_rays_launcher_schema():
    schema = json.loads(RAY_SCHEMA.read_text())
    launcher = yaml.safe_load((CLUSTER / "cluster.yaml").read_text())
    jsonschema.validate(launcher, schema)  # as written, before `ray up` fills in defaults
    py = f"py{sys.version_info.major}{sys.version_info.minor}"
    assert launcher["docker"]["image"] == f"rayproject/ray:{lock_version('ray')}-{py}-cpu"
    assert launcher["file_mounts"]["/home/ray/.ray/auth_token"] == "~/.ray/auth_token"
    assert "chmod 600 /home/ray/.ray/auth_token" in launcher["setup_commands"]
    head = " ".join(launcher["head_start_ray_commands"])
    assert "--dashboard-host=127.0.0.1" in head


def test_cluster_launcher_schema_check_has_teeth():
    schema = json.loads(RAY_SCHEMA.read_text())
    launcher = yaml.safe_load((CLUSTER / "cluster.yaml").read_text())
    launcher["max_worker"] = launcher.pop("max_workers")
    with pytest.raises(jsonschema.ValidationError, match="max_worker"):
        jsonschema.validate(launcher, schema)


# ---- the documented commands ------------------------------------------------------------


def test_no_recipe_exports_the_dashboard_url_as_ray_address():
    # evoplay (like ray.init) reads RAY_ADDRESS as the cluster's GCS address; the jobs CLI
    # reads RAY_API_SERVER_ADDRESS first, so that is where the dashboard's URL goes.
    for path in (CLUSTER / "README.md", CLUSTER / "cluster.yaml", CLUSTER / "rayjob.yaml"):
        assert not re.search(r"RAY_ADDRESS=['\"]?https?://", path.read_text()), path.name
    assert "RAY_API_SERVER_ADDRESS=http://127.0.0.1:8265" in cluster_readme()
    assert "RAY_API_SERVER_ADDRESS=http://127.0.0.1:8265" in (CLUSTER / "cluster.yaml").read_text()


def _documented_token_command() -> str:
    """The README's command that creates the token (the same wherever it is shown)."""
    commands = {line.split("#")[0].strip() for line in cluster_readme().splitlines()
                if line.startswith("ray get-auth-token --generate")}
    (command,) = commands
    return command


@pytest.mark.parametrize("existing", [False, True], ids=["fresh", "existing-644-token"])
def test_documented_token_command_leaves_the_token_file_mode_600(tmp_path, existing):
    token = tmp_path / ".ray" / "auth_token"
    if existing:  # e.g. written by an embedded Ray (ray.init), which uses the umask
        token.parent.mkdir()
        token.write_text("ab" * 32)
        token.chmod(0o644)
    env = {k: v for k, v in os.environ.items() if not k.startswith("RAY_")}
    env["HOME"] = str(tmp_path)
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    run = subprocess.run(["bash", "-euc", _documented_token_command()], env=env, capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    assert stat.S_IMODE(token.stat().st_mode) == 0o600
    assert re.fullmatch(r"[0-9a-f]{64}", token.read_text())
    if existing:
        assert token.read_text() == "ab" * 32
