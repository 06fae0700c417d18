"""Blondie24 options that let co-evolution keep what it finds: the archive of earlier champions
(``evaluation.hall_of_fame_games``, Rosin and Belew's hall of fame) and the capture extension at the
leaves during evolution (``game.quiescence``)."""

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from evoplay.arena.players import SearchPlayer
from evoplay.checkers.game import CHECKERS
from evoplay.errors import ConfigError, EvoplayError
from evoplay.framework import config as configs
from evoplay.framework.streams import stream
from evoplay.framework.trial import TrialRun
from evoplay.networks.evalnet import Evaluator
from evoplay.recipes.blondie24.play import net_player, play
from evoplay.recipes.blondie24.recipe import HALL, Blondie24Recipe
from stopping import STOPPER
from test_blondie24 import TINY, evoplay_cli

ROOT = Path(__file__).resolve().parents[1]
TTT = ROOT / "configs" / "blondie24-ttt-d1.toml"
ENV = {**os.environ, "RAY_USAGE_STATS_ENABLED": "0"}


def config(path=TTT, **evaluation) -> dict:
    cfg = configs.load(path)
    cfg["evaluation"].update(evaluation)
    return cfg


def events_of(cfg: dict, gens: int, chunks: int = 1):
    """The run of trial 0 and every generation's event, the members' points as they were at its end."""
    recipe = Blondie24Recipe(cfg)
    events = []
    recipe.hooks.append(lambda e: events.append({**e, "points": [n.points for n in e["pool"]]}))
    return TrialRun(recipe, 0, chunks=chunks).run(gens), events


def points_by_hand(n: int, pairs, results, pooled: int, seats: int, opponent_scores: bool) -> list:
    """The members' points (+1 / 0 / -2), game by game: the pool's first ``pooled`` games as published (the
    member the game was drawn for, the first player, then with ``seats`` = 2 the second in the swapped half;
    its opponent too with ``opponent_scores``), then the games against networks beyond the pool's ``n`` (the
    archive's, the anchor's), the member alone."""
    table = {1: 1.0, 0: 0.0, -1: -2.0}
    want = np.zeros(n)
    for k, ((a, b), score) in enumerate(zip(pairs[:pooled], results[:pooled])):
        member, other = (a, b) if k < pooled // seats else (b, a)
        want[member] += table[score if member == a else -score]
        if opponent_scores:
            want[other] += table[-score if member == a else score]
    for (a, b), score in zip(pairs[pooled:], results[pooled:]):
        want[min(a, b)] += table[score if a < b else -score]
    return want.tolist()


@pytest.mark.parametrize("both_seats, opponent_scores", [(False, False), (True, True)])
def test_the_archive_keeps_every_generations_best_and_each_member_plays_its_share_against_it(both_seats, opponent_scores):
    """2 of each member's 5 games against champions drawn from the archive of all earlier generations'
    best networks (generation 1: all 5 in the pool); the draws are the HALL stream's; only the member scores."""
    cfg = config(hall_of_fame_games=2, both_seats=both_seats, opponent_scores=opponent_scores)
    run, events = events_of(cfg, 4)
    seats = 2 if both_seats else 1
    for gen, e in enumerate(events, start=1):
        pairs, results, points = e["pairs"], e["results"][:, 0], np.array(e["points"])
        assert len(pairs) == seats * 150 == Blondie24Recipe(cfg).games_in(gen)
        hall = 0 if gen == 1 else 2
        pooled = seats * 30 * (5 - hall)
        assert (pairs[:pooled] < 30).all()
        extra = pairs[pooled:]
        if hall:
            picks = stream(cfg[""]["seed"], 0, gen, HALL).integers(0, gen - 1, size=(30, 2))
            assert (extra[:60] == np.stack([np.repeat(np.arange(30), 2), 30 + picks.ravel()], axis=1)).all()
            if both_seats:
                assert (extra[60:] == extra[:60, ::-1]).all()
        mine = np.where(extra[:, 0] < 30, results[pooled:], -results[pooled:])
        assert run.logbook[gen - 1]["archive"] == gen - 1
        assert run.logbook[gen - 1]["archive_score"] == (mine.mean() if hall else 0.0)
        assert points.tolist() == points_by_hand(30, pairs, results, pooled, seats, opponent_scores)
    archive = run.to_data()["state"]["archive"]
    assert [a["gen"] for a in archive] == [1, 2, 3, 4]
    assert [a["genome"] for a in archive] == [e["pool"][int(np.argmax(e["points"]))].genome.tolist() for e in events]


def test_the_archive_takes_the_best_of_generation_1_and_every_eth_after_it():
    run, _ = events_of(config(hall_of_fame_games=1, hall_of_fame_every=2), 5)
    assert [a["gen"] for a in run.to_data()["state"]["archive"]] == [1, 3, 5]
    assert [r["archive"] for r in run.logbook] == [0, 1, 1, 2, 2]


def test_all_games_against_the_archive_leave_the_pool_none_and_the_default_changes_nothing():
    """hall_of_fame_games = games: from generation 2 every game is against the archive (no pairing draws);
    0, the default, writes no archive into the state and no columns into the logbook (committed bytes kept)."""
    run, events = events_of(config(hall_of_fame_games=5), 2)
    assert (events[1]["pairs"][:, 1] >= 30).all() and len(events[1]["pairs"]) == 150
    plain, _ = events_of(config(), 2)
    assert "archive" not in plain.to_data()["state"] and "archive" not in plain.logbook[0]
    assert json.dumps(plain.to_data()) == json.dumps(events_of(config(hall_of_fame_every=3), 2)[0].to_data())


def test_a_checkers_run_with_the_archive_is_the_same_in_chunks_and_across_a_resume():
    cfg = config(TINY, hall_of_fame_games=1)
    straight = TrialRun(Blondie24Recipe(cfg), 1).run(3).to_data()
    half = TrialRun(Blondie24Recipe(cfg), 1, chunks=3).run(2).to_data()
    assert [a["gen"] for a in half["state"]["archive"]] == [1, 2]
    resumed = TrialRun(Blondie24Recipe(cfg), 1, data=json.loads(json.dumps(half)), chunks=2).run(3).to_data()
    assert json.dumps(resumed) == json.dumps(straight)
    assert json.dumps(straight) != json.dumps(TrialRun(Blondie24Recipe(config(TINY)), 1).run(3).to_data())


def test_a_damaged_archive_in_a_checkpoint_is_refused():
    cfg = config(hall_of_fame_games=2)
    data = TrialRun(Blondie24Recipe(cfg), 0).run(3).to_data()
    for damage, words in [(lambda s: s["archive"].reverse(), "order of generation"),
                          (lambda s: s["archive"][0].update(king=9.0), "king value"),
                          (lambda s: s["archive"][1]["genome"].pop(), "weights"),
                          (lambda s: s.update(archive={}), "not a list"),
                          (lambda s: s.pop("archive"), "exactly")]:
        bad = json.loads(json.dumps(data))
        damage(bad["state"])
        with pytest.raises(EvoplayError, match=words):
            TrialRun(Blondie24Recipe(cfg), 0, data=bad)


@pytest.mark.parametrize("evaluation, words", [
    ({"hall_of_fame_games": 6}, "at most evaluation.games"),
    ({"hall_of_fame_games": 2, "round_robin": True}, "not evaluation.round_robin"),
    ({"hall_of_fame_games": 2, "hall_of_fame": 3}, "exclude each other"),
    ({"hall_of_fame_every": 0}, "hall_of_fame_every"),
])
def test_archive_config_errors_name_the_key(evaluation, words):
    with pytest.raises(ConfigError, match=words):
        configs.resolve({"recipe": "blondie24", "evaluation": {"games": 5, **evaluation}})


def test_quiescence_in_evolution_is_the_generic_searchs_with_capture_extension():
    """game.quiescence = true reaches the games of evolution: each game of a tiny checkers generation is the
    one two generic alpha-beta players (the network at the leaves, captures searched past the horizon) play."""
    cfg = configs.load(TINY)
    cfg["game"].update(quiescence=True, max_plies=100)  # 40 plies: every game drawn either way
    _, [e] = events_of(cfg, 1)
    sizes = Blondie24Recipe(cfg).sizes
    players = [SearchPlayer(CHECKERS, Evaluator(n.genome, sizes, n.king), 1, "net", True) for n in e["pool"]]
    replayed = [play(CHECKERS, players[a], players[b], CHECKERS.initial(), 100) for a, b in e["pairs"]]
    assert e["results"].tolist() == [list(r) for r in replayed]
    cfg["game"]["quiescence"] = False
    _, [plain] = events_of(cfg, 1)
    assert (plain["results"][:, 1] < e["results"][:, 1]).sum() >= 6  # without it the games are decided sooner


# slow: the default run covers the same property in-process (chunks and a resume above); worker counts and
# resumes give the same bytes for the framework (test_evolve_run's workers, test_checkpoint_v2's resumes)
@pytest.mark.slow
def test_a_tiny_checkers_run_with_the_archive_is_the_same_on_one_worker_and_on_two_across_a_stop_and_resume(tmp_path):
    toml = tmp_path / "tiny.toml"
    toml.write_text(TINY.read_text().replace("[run]\n", "[run]\neval_chunks = 2\n")
                    .replace("[evaluation]\n", "[evaluation]\nhall_of_fame_games = 1\n"))
    evoplay_cli("evolve", toml, "--out", tmp_path / "one", "--workers", "1", "--quiet")
    stopped = tmp_path / "stopped"
    run = subprocess.run([sys.executable, "-c", STOPPER, toml, stopped, "2"], capture_output=True, text=True, cwd=ROOT, env=ENV, timeout=300)
    assert run.stdout.strip() == "stopped", run.stderr[-3000:]
    assert {json.loads(p.read_text())["generation"] for p in (stopped / "checkpoints").glob("*.json")} == {1}
    evoplay_cli("evolve", toml, "--out", stopped, "--resume", "--workers", "2", "--quiet")
    for f in ("summary.json", "champion.json", "trials/trial_00/logbook.csv", "trials/trial_01/logbook.csv",
              "checkpoints/trial_00.json", "checkpoints/trial_01.json"):
        assert (tmp_path / "one" / f).read_bytes() == (stopped / f).read_bytes(), f
    archive = json.loads((stopped / "checkpoints" / "trial_01.json").read_text())["state"]["archive"]
    assert [a["gen"] for a in archive] == [1, 2, 3]


@pytest.mark.parametrize("sizes", [(32, 40, 10, 1), (32, -91, 40, 10, 1)])
def test_the_anchor_network_is_piece_difference_move_for_move(sizes):
    """evaluation.anchor_games' opponent, the network of piece-difference weight 0.1 and nothing else, picks the
    move piece difference (``make_piece_difference``, the yardstick's opponent) picks in every position of games
    from 6 ballots against a random network, searching 1, 2 and 4 plies, both networks' kinds (1999, 2001)."""
    from evoplay.checkers.players import make_piece_difference
    from evoplay.recipes.blondie24.operators import material_network
    from evoplay.networks.evalnet import n_weights

    rng = np.random.default_rng(5)
    other = rng.uniform(-0.2, 0.2, n_weights(sizes))
    seen = 0
    for depth in (1, 2, 4):
        anchor, material = net_player(CHECKERS, material_network(n_weights(sizes)), sizes, 1.5, depth), make_piece_difference(CHECKERS, depth, 1.5)
        opponent = net_player(CHECKERS, other, sizes, 2.0, depth)
        for ballot in CHECKERS.openings()[::26]:
            state = ballot
            for _ in range(80):
                if CHECKERS.result(state) is not None:
                    break
                if CHECKERS.to_move(state) == 0:
                    move = material.choose(state, None)
                    assert anchor.choose(state, None) == move
                    seen += 1
                else:
                    move = opponent.choose(state, None)
                state = CHECKERS.apply(state, move)
    assert seen > 500


@pytest.mark.parametrize("both_seats, opponent_scores, hall", [(False, False, 0), (True, True, 0), (False, False, 1)])
def test_each_member_plays_its_share_against_piece_difference_from_both_seats_and_alone_scores_it(both_seats, opponent_scores, hall):
    """anchor_games = 2 of each member's 3 games: member i first, then second, against the anchor (the last
    network of the generation's games), after the pool's and the archive's games; the games are the ones
    piece difference (kings 1.5) plays against the member; only the member scores them; the logbook's
    anchor_score is the members' mean score in them."""
    from evoplay.checkers.players import make_piece_difference

    cfg = config(TINY, games=3, anchor_games=2, both_seats=both_seats, opponent_scores=opponent_scores, hall_of_fame_games=hall)
    cfg["game"]["max_plies"] = 200  # long enough for kings: the anchor's are worth 1.5
    run, events = events_of(cfg, 3)
    recipe = Blondie24Recipe(cfg)
    seats = 2 if both_seats else 1
    material = make_piece_difference(CHECKERS, 1, 1.5)
    for gen, e in enumerate(events, start=1):
        pairs, results, points = e["pairs"], e["results"][:, 0], np.array(e["points"])
        from_archive = hall if gen > 1 else 0
        pooled = seats * 6 * (1 - from_archive)
        archived = pooled + seats * 6 * from_archive
        anchor = 6 + (gen - 1 if hall else 0)  # after the pool and the archive (gen - 1 networks)
        assert len(pairs) == seats * 18 == recipe.games_in(gen)
        assert (pairs[:archived] < anchor).all()
        games = pairs[archived:]
        want = np.array([[i, anchor] if k % 2 == 0 else [anchor, i] for i in range(6) for k in range(2)])
        assert games.tolist() == (np.concatenate([want, want[:, ::-1]]) if both_seats else want).tolist()
        mine = np.where(games[:, 0] < anchor, results[archived:], -results[archived:])
        assert run.logbook[gen - 1]["anchor_score"] == mine.mean()
        nets = [net_player(CHECKERS, n.genome, recipe.sizes, n.king, 1) for n in e["pool"]]
        for (a, b), score in zip(games, results[archived:]):
            first, second = (nets[a], material) if a < anchor else (material, nets[b])
            assert play(CHECKERS, first, second, CHECKERS.initial(), 200)[0] == score
        assert points.tolist() == points_by_hand(6, pairs, results, pooled, seats, opponent_scores)


def test_anchor_config_errors_name_the_key_and_the_default_changes_nothing():
    for evaluation, words in [({"anchor_games": 6}, "at most evaluation.games less"),
                              ({"anchor_games": 3, "hall_of_fame_games": 3}, "at most evaluation.games less"),
                              ({"anchor_games": 2, "round_robin": True}, "not evaluation.round_robin")]:
        with pytest.raises(ConfigError, match=words):
            configs.resolve({"recipe": "blondie24", "game": {"name": "checkers"}, "evaluation": {"games": 5, **evaluation}})
    with pytest.raises(ConfigError, match="anchors': piece-difference is for checkers"):
        configs.resolve({"recipe": "blondie24", "game": {"name": "tictactoe"}, "evaluation": {"anchor_games": 1}})
    cfg = config(TINY, anchor_games=1)
    cfg["yardstick"]["pd_king"] = 2.0
    [anchor] = Blondie24Recipe(cfg).anchors
    assert anchor["king"] == 2.0 and anchor["genome"][-1] == 0.1 and not anchor["genome"][:-1].any()
    assert len(anchor["genome"]) == Blondie24Recipe(cfg).n_weights
    plain = TrialRun(Blondie24Recipe(config(TINY)), 0).run(2)
    assert "anchor_score" not in plain.logbook[0]


def test_a_checkers_run_with_the_anchor_is_the_same_in_chunks_and_across_a_resume():
    cfg = config(TINY, anchor_games=1)
    straight = TrialRun(Blondie24Recipe(cfg), 1).run(3).to_data()
    half = TrialRun(Blondie24Recipe(cfg), 1, chunks=3).run(2).to_data()
    resumed = TrialRun(Blondie24Recipe(cfg), 1, data=json.loads(json.dumps(half)), chunks=2).run(3).to_data()
    assert json.dumps(resumed) == json.dumps(straight)
    assert json.dumps(straight) != json.dumps(TrialRun(Blondie24Recipe(config(TINY)), 1).run(3).to_data())


def first_rows(run: Path, trial: int, n: int) -> list[dict]:
    """The first ``n`` rows of a committed trial's logbook, every column but the yardstick's (written with repr)."""
    rows = (run / "trials" / f"trial_{trial:02d}" / "logbook.csv").read_text().splitlines()
    header = rows[0].split(",")
    return [{k: v for k, v in zip(header, map(float, line.split(","))) if not k.startswith("yard_")} for line in rows[1:1 + n]]


def test_the_committed_1999_run_reproduces_its_first_generation():
    """The defaults keep the published procedure: generation 1 of `evoplay evolve configs/blondie24.toml`,
    made again with the yardstick cut to one ballot (selection never sees it), are the committed logbook's first
    row, every column but the yardstick's, bit for bit (written with repr), as the 2001 runs' tests do."""
    run = ROOT / "results" / "blondie24"
    cfg = configs.load(run / "config.toml")
    assert cfg == configs.load(ROOT / "configs" / "blondie24.toml")
    cfg["yardstick"]["openings"] = 1
    [made] = TrialRun(Blondie24Recipe(cfg), 0).run(1).logbook
    mine = {k: float(v) for k, v in made.items() if not k.startswith("yard_")}
    assert [mine] == first_rows(run, 0, 1) and len(mine) > 5


CHOICES = ROOT / "results" / "blondie24-choices"


@pytest.mark.parametrize("variant", ["published", "opponent scores", "quiescence", "hall of fame", "all three", "anchor"])
def test_the_committed_choices_study_reproduces_its_first_generations(variant):
    """Each variant of `evoplay study configs/blondie24-choices.toml` as committed: its config is the study file's,
    and trial 0's first generations, made again in this process with the yardstick cut to one ballot (selection
    never sees it), are its logbook's rows bit for bit, every column but the yardstick's. A variant with the
    archive is made to generation 2, where the archive first plays."""
    from evoplay.framework.study import load_study

    [v] = [v for v in load_study(ROOT / "configs" / "blondie24-choices.toml")["variants"] if v["name"] == variant]
    run = CHOICES / v["dir"]
    if not (CHOICES / "study.json").exists():
        pytest.skip("the choices study is not committed")
    cfg = configs.load(run / "config.toml")
    assert cfg == v["config"]
    gens = 2 if cfg["evaluation"]["hall_of_fame_games"] else 1
    cfg["yardstick"]["openings"] = 1
    made = TrialRun(Blondie24Recipe(cfg), 0).run(gens).logbook
    assert [{k: float(x) for k, x in row.items() if not k.startswith("yard_")} for row in made] == first_rows(run, 0, gens)


def test_the_choices_study_compares_the_champions_depth_4_games_once(tmp_path):
    """`report --depths 4,6` replays at depth 4 the 314 games of each champion's score (the yardstick at the
    run's depth over all the ballots): the same numbers, which the study compares once, as the champion's
    score; a yardstick over fewer ballots is other games, and its run keeps the duel as a measure of its own."""
    from evoplay.framework.study import load_study
    from evoplay.recipes.blondie24.duels import measures

    if not (CHOICES / "study.json").exists():
        pytest.skip("the choices study is not committed")
    for v in load_study(ROOT / "configs" / "blondie24-choices.toml")["variants"]:
        run = CHOICES / v["dir"]
        scores = [t["champion_score"] for t in json.loads((run / "summary.json").read_text())["per_trial"]]
        assert measures(run)["duel:piece-difference:depth=4"]["per_trial"] == scores and len(scores) == 6
        assert set(Blondie24Recipe(v["config"]).reported_measures(run)) == {"duel:piece-difference:depth=6"}
    assert set(json.loads((CHOICES / "study.json").read_text())["measures"]) == {
        "champion_score", "duel:piece-difference:depth=6", "league"}
    (tmp_path / "duels.json").write_bytes((CHOICES / "published" / "duels.json").read_bytes())
    cfg = configs.load(CHOICES / "published" / "config.toml")
    cfg["yardstick"]["openings"] = 10
    assert set(Blondie24Recipe(cfg).reported_measures(tmp_path)) == {"duel:piece-difference:depth=4", "duel:piece-difference:depth=6"}


CHOICES_2001 = ROOT / "results" / "blondie24-2001-choices"


@pytest.mark.parametrize("trial", [0, 1])
def test_the_committed_2001_runs_of_the_picked_choice_reproduce_their_first_generation(trial):
    """`evoplay study configs/blondie24-2001-choices.toml` as committed (the opponent scoring at the 2001 setting,
    2 trials): its config is the study file's, and each trial's generation 1, made again in this process with
    the yardstick cut to one ballot, is its logbook's first row bit for bit, every column but the yardstick's.
    Trial 0 starts from the committed seed-2001 run's networks and differs from it by the opponent's points."""
    from evoplay.framework.study import load_study

    [v] = load_study(ROOT / "configs" / "blondie24-2001-choices.toml")["variants"]
    run = CHOICES_2001 / v["dir"]
    if not (CHOICES_2001 / "study.json").exists():
        pytest.skip("the 2001 runs of the picked choice are not committed")
    cfg = configs.load(run / "config.toml")
    assert cfg == v["config"] and cfg["evaluation"]["opponent_scores"]
    cfg["yardstick"]["openings"] = 1
    [made] = TrialRun(Blondie24Recipe(cfg), trial).run(1).logbook
    mine = {k: float(x) for k, x in made.items() if not k.startswith("yard_")}
    assert [mine] == first_rows(run, trial, 1) and len(mine) > 5
    if trial == 0:
        assert mine != first_rows(ROOT / "results" / "blondie24-2001", 0, 1)[0]


@pytest.mark.parametrize("study, base", [("blondie24-choices.toml", "blondie24.toml"), ("blondie24-2001-choices.toml", "blondie24-2001.toml")])
def test_the_study_files_of_the_open_choices_are_their_base_with_only_the_named_keys_changed(study, base):
    from evoplay.framework.study import load_study

    plain = configs.load(ROOT / "configs" / base)
    for v in load_study(ROOT / "configs" / study)["variants"]:
        changed = configs.differences(plain, v["config"])
        assert set(changed) - {"name", "trials"} == set(v["overrides"]), v["name"]
        assert v["config"][""]["seed"] == plain[""]["seed"] and v["config"]["champion"]["rule"] == "league"


def test_a_quiescence_runs_network_meets_piece_difference_at_a_fixed_depth_as_its_player_file_plays():
    """The yardstick and the duels measure evaluations, not searches: against piece difference
    (a fixed depth) a network of a ``game.quiescence`` run searches a fixed depth too, as its
    exported player file does in ``evoplay match``; against another network both extend captures."""
    from evoplay.checkers.players import make_piece_difference
    from evoplay.recipes.blondie24 import yardstick
    from evoplay.recipes.blondie24.play import net_player

    cfg = configs.load(TINY)
    cfg["game"].update(quiescence=True, depth=2)
    cfg["yardstick"].update(openings=6)
    recipe = Blondie24Recipe(cfg)
    net, other = recipe.toolbox.population(np.random.default_rng(8))[:2]
    [measured] = yardstick.checkers_scores(recipe, net, [(0, 12)])

    def scores(quiescence, opponent):
        return yardstick.ballot_scores(CHECKERS, net_player(CHECKERS, net.genome, recipe.sizes, net.king, 2, quiescence),
                                       opponent, 0, 12, cfg["game"]["max_plies"]).tolist()

    pd = make_piece_difference(CHECKERS, 2, cfg["yardstick"]["pd_king"])
    assert measured.tolist() == scores(False, pd)
    assert scores(True, pd) != scores(False, pd)  # the capture extension changes these games: the check can fail
    [versus] = yardstick.checkers_scores(recipe, net, [(0, 12)], [("network", other.genome, other.king)])
    assert versus.tolist() == scores(True, net_player(CHECKERS, other.genome, recipe.sizes, other.king, 2, True))


def test_the_committed_pick_of_the_2001_runs_follows_the_rule_written_before_them():
    """The guide's rule: the two trials' champions' match over the first 8 ballots from both colours
    (`pick.json`), won by more wins less losses; the winner (trial 1, 2 wins, 11 draws, 3 losses for trial 0)
    is the champion the results note measures against `MCTSBot`, and the variant's own champion.json."""
    if not (CHOICES_2001 / "study.json").exists():
        pytest.skip("the 2001 runs of the picked choice are not committed")
    pick = json.loads((CHOICES_2001 / "pick.json").read_text())
    trials = CHOICES_2001 / "opponent-scores" / "trials"
    assert (pick["a"], pick["b"]) == (f"{trials.relative_to(ROOT)}/trial_00/champion.json",
                                      f"{trials.relative_to(ROOT)}/trial_01/champion.json")
    assert [r["games"] for r in pick["results"]] == [8, 8] and [r["first"] for r in pick["results"]] == ["a", "b"]
    counts = [round(sum(r[k] * r["games"] for r in pick["results"])) for k in ("a_win", "draw", "b_win")]
    assert counts == [2, 11, 3]
    winner = "trial_00" if counts[0] > counts[2] else "trial_01"
    assert winner == "trial_01" and counts[0] != counts[2]
    assert (CHOICES_2001 / "opponent-scores" / "champion.json").read_bytes() == (trials / winner / "champion.json").read_bytes()
    mcts = json.loads((CHOICES_2001 / "mcts.json").read_text())
    assert mcts["player"] == f"{trials.relative_to(ROOT)}/{winner}/champion.json" and mcts["all"]["games"] == 100


def network_file(path: Path, sizes, genome, king: float, game: str = "checkers") -> str:
    from evoplay.files.atomic import write_text
    from evoplay.recipes.blondie24.playerfile import network_document

    write_text(path, json.dumps(network_document(game, sizes, 1, genome, king, {"made": "by a test"})) + "\n")
    return str(path)


def test_piece_difference_written_as_a_player_file_is_the_same_anchor(tmp_path):
    """An anchor read from a network player file plays as the built-in one: piece difference saved
    as a file (its weights and kings) gives the same run, bit for bit."""
    cfg = config(TINY, anchor_games=2)
    recipe = Blondie24Recipe(cfg)
    [pd] = recipe.anchors
    cfg_file = config(TINY, anchor_games=2, anchors=[network_file(tmp_path / "pd.json", recipe.sizes, pd["genome"], pd["king"])])
    assert (json.dumps(TrialRun(Blondie24Recipe(cfg_file), 0).run(2).to_data())
            == json.dumps(TrialRun(recipe, 0).run(2).to_data()))


def test_two_anchors_take_turns_two_games_each_and_the_run_is_the_same_in_chunks_and_across_a_resume(tmp_path):
    """With anchors [A, B] and 4 anchor games, a member's games 1-2 are against A (first, then second
    player) and 3-4 against B; the run is the same bytes in 1 or 3 chunks and across a resume."""
    sizes = Blondie24Recipe(config(TINY)).sizes
    genome = np.random.default_rng(5).uniform(-0.2, 0.2, Blondie24Recipe(config(TINY)).n_weights)
    cfg = config(TINY, games=4, anchor_games=4, anchors=["piece-difference", network_file(tmp_path / "b.json", sizes, genome, 2.5)])
    _, events = events_of(cfg, 1)
    pairs = events[0]["pairs"]
    n = len(events[0]["pool"])
    a, b = n, n + 1  # the anchors follow the pool
    assert pairs[-4 * n:].tolist() == [p for i in range(n) for p in ([i, a], [a, i], [i, b], [b, i])]
    straight = TrialRun(Blondie24Recipe(cfg), 1).run(3).to_data()
    half = TrialRun(Blondie24Recipe(cfg), 1, chunks=3).run(2).to_data()
    resumed = TrialRun(Blondie24Recipe(cfg), 1, data=json.loads(json.dumps(half)), chunks=2).run(3).to_data()
    assert json.dumps(resumed) == json.dumps(straight)


def test_anchors_are_refused_in_one_line_naming_the_key(tmp_path):
    from evoplay.networks.evalnet import n_weights

    raw = {"recipe": "blondie24", "game": {"name": "checkers", "depth": 1}, "network": {"hidden": [4]},
           "evaluation": {"games": 2, "anchor_games": 2}}
    other = network_file(tmp_path / "wide.json", (32, 5, 1), np.zeros(n_weights((32, 5, 1))), 2.0)
    ttt = network_file(tmp_path / "ttt.json", (9, 4, 1), np.zeros(n_weights((9, 4, 1))), 2.0, game="tictactoe")
    (tmp_path / "bad.json").write_text("{")
    for anchors, words in [([], "must be a list of 1-16 opponents"),
                           (["piece-difference", 3], "must be a list of 1-16"),
                           (["missing.json"], "anchors': player file .*missing.json"),
                           (["bad.json"], "anchors': .*bad.json"),
                           ([other], r"network of checkers with layers \[32, 5, 1\], not of this run's checkers with \[32, 4, 1\]"),
                           ([ttt], "network of tictactoe")]:
        with pytest.raises(ConfigError, match=words):
            configs.resolve({**raw, "evaluation": {**raw["evaluation"], "anchors": anchors}}, base=tmp_path)
    network_file(tmp_path / "good.json", (32, 4, 1), np.zeros(n_weights((32, 4, 1))), 2.0)
    cfg = configs.resolve({**raw, "evaluation": {**raw["evaluation"], "anchors": ["good.json", "piece-difference"]}}, base=tmp_path)
    assert cfg["evaluation"]["anchors"] == [str(tmp_path.resolve() / "good.json"), "piece-difference"]


def test_player_specs_are_anchors_that_play_as_themselves_the_same_in_chunks_and_across_a_resume():
    """evaluation.anchors takes any player spec of the game (mcts, piece difference at another depth):
    it plays as itself, not through the network search, each anchor game drawing its randomness from
    its own seed, so the run is the same bytes in 1 or 3 chunks and across a resume; a member's anchor
    games are the ones the spec's player plays, and a bad spec is refused in one line naming the key."""
    from evoplay.arena.specs import make_player
    from evoplay.recipes.blondie24.play import play

    cfg = config(TINY, games=4, anchor_games=4, anchors=["mcts:sims=4", "piece-difference:depth=2"])
    recipe = Blondie24Recipe(cfg)
    assert [a.get("spec") for a in recipe.anchors] == ["mcts:sims=4", "piece-difference:depth=2"]
    straight = TrialRun(Blondie24Recipe(cfg), 1).run(3).to_data()
    half = TrialRun(Blondie24Recipe(cfg), 1, chunks=3).run(2).to_data()
    resumed = TrialRun(Blondie24Recipe(cfg), 1, data=json.loads(json.dumps(half)), chunks=2).run(3).to_data()
    assert json.dumps(resumed) == json.dumps(straight)
    _, events = events_of(cfg, 1)
    event = events[0]
    n = len(event["pool"])
    pairs, results = event["pairs"][-4 * n:], event["results"][-4 * n:]
    # member 0's games against piece difference at depth 2 (deterministic): replayed here, move for move
    nets = {i: net for i, net in enumerate(event["pool"])}
    pd2 = make_player(CHECKERS, "piece-difference:depth=2")
    for (a, b), (score, plies) in list(zip(pairs.tolist(), results.tolist()))[2:4]:
        member = nets[a if a < n else b]
        mine = net_player(CHECKERS, member.genome, recipe.sizes, member.king, recipe.depth)
        first, second = (mine, pd2) if a < n else (pd2, mine)
        assert play(CHECKERS, first, second, CHECKERS.initial(), cfg["game"]["max_plies"]) == (score, plies)
    raw = {"recipe": "blondie24", "game": {"name": "checkers", "depth": 1}, "network": {"hidden": [4]},
           "evaluation": {"games": 2, "anchor_games": 2, "anchors": ["nobody"]}}
    with pytest.raises(ConfigError, match="anchors': unknown player 'nobody'"):
        configs.resolve(raw)
