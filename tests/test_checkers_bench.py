"""evoplay bench --game checkers: its figures and their text."""

import json

from click.testing import CliRunner

from evoplay.cli import cli


def test_bench_checkers_quick_json():
    r = CliRunner().invoke(cli, ["bench", "--game", "checkers", "--quick", "--quiet", "--json"])
    assert r.exit_code == 0, r.output
    doc = json.loads(r.output)
    assert doc["perft_8"]["leaves"] == 845931 and doc["perft_8"]["leaves_per_second"] > 0
    assert "perft_10" not in doc  # --quick leaves out perft(10)
    assert [s["depth"] for s in doc["compiled_search"]] == [4, 6]
    assert all(s["leaves"] > 0 and s["leaves_per_second"] > 0 for s in doc["compiled_search"] + doc["generic_search"])
    assert doc["game"]["plies"] > 0 and doc["move_generation"]["evoplay_per_second"] > 0


def test_bench_checkers_text():
    r = CliRunner().invoke(cli, ["bench", "--game", "checkers", "--quick", "--quiet"])
    assert r.exit_code == 0, r.output
    assert "checkers perft(8): 845,931 leaves" in r.output
    assert "depth 6 (compiled)" in r.output and "legal-move lists" in r.output
