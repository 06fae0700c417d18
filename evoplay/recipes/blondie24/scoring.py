"""The scoring of a Blondie24 generation's games: who scores each game, the points and records
that follow from the games' results, and the games against the hall of fame or the archive
appended to the generation's own.

Pure functions of arrays: the first player's score of each game (+1, 0, -1) in, each
member's points and (wins, draws, losses) out.
"""

from __future__ import annotations

import numpy as np


def credited(pairs: np.ndarray, opponent_scores: bool, both_seats: bool) -> np.ndarray:
    """(games, 2) booleans: whether the first and the second player of each game score its result.

    A member's own games (drawn for it) credit it and credit the opponent only with
    ``opponent_scores``; with ``both_seats`` the second half of ``pairs`` repeats the first
    half with the seats swapped, so there the member is the second player.
    """
    own = np.array([True, opponent_scores])
    if not both_seats:
        return np.tile(own, (len(pairs), 1))
    half = len(pairs) // 2
    return np.concatenate([np.tile(own, (half, 1)), np.tile(own[::-1], (half, 1))])


def points_of(pairs: np.ndarray, scores: np.ndarray, n: int, points, opponent_scores: bool, both_seats: bool = False,
              credit: np.ndarray | None = None):
    """Points and (wins, draws, losses in the games it scores as the first player) of every member from its games' scores
    (the first player's: +1, 0, -1).

    The first player of a game scores it, and with ``opponent_scores`` the second player
    scores the mirror result too; with ``both_seats`` (see ``credited``) the second half of
    the games are the first half's with the seats swapped, the drawn member now second.
    An explicit ``credit`` ((games, 2) booleans) says instead who scores each game.
    """
    win, draw, loss = points
    table = np.where(scores == 1, win, np.where(scores == 0, draw, loss))
    mirror = np.where(scores == -1, win, np.where(scores == 0, draw, loss))
    credit = credited(pairs, opponent_scores, both_seats) if credit is None else credit
    total = np.zeros(n)
    np.add.at(total, pairs[credit[:, 0], 0], table[credit[:, 0]])
    np.add.at(total, pairs[credit[:, 1], 1], mirror[credit[:, 1]])
    wdl = np.zeros((n, 3), dtype=np.int64)
    for col, s in enumerate((1, 0, -1)):
        np.add.at(wdl[:, col], pairs[credit[:, 0], 0], scores[credit[:, 0]] == s)
    return total, wdl


def hall_games(n: int, h: int, pairs: np.ndarray, credit: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The generation's pairs and credits followed by every member's games against the hall of fame
    (networks ``n..n+h-1``): member ``i`` against hall member ``k`` once as first player and once as
    second, in order of ``i`` then ``k``; only the member scores (a hall network is no candidate)."""
    i, k = np.repeat(np.arange(n), h), np.tile(np.arange(n, n + h), n)
    extra = np.concatenate([np.stack([i, k], axis=1), np.stack([k, i], axis=1)])
    extra_credit = np.concatenate([np.tile([True, False], (n * h, 1)), np.tile([False, True], (n * h, 1))])
    return np.concatenate([pairs, extra]), np.concatenate([credit, extra_credit])


def archive_games(n: int, picks: np.ndarray, pairs: np.ndarray, credit: np.ndarray, both_seats: bool) -> tuple[np.ndarray, np.ndarray]:
    """The generation's pairs and credits followed by the members' games against the archive: ``picks``
    (n, K) archive indices (networks ``n + index``), member ``i`` first against each of its picks in order
    of ``i`` then pick; with ``both_seats`` the same games again with the seats swapped. Only the member
    scores (an archived network is no candidate)."""
    games = np.stack([np.repeat(np.arange(n), picks.shape[1]), n + picks.ravel()], axis=1)
    own = np.tile([True, False], (len(games), 1))
    if both_seats:
        games, own = np.concatenate([games, games[:, ::-1]]), np.concatenate([own, own[:, ::-1]])
    return np.concatenate([pairs, games]), np.concatenate([credit, own])


def anchor_games(n: int, anchors: list[int], k: int, pairs: np.ndarray, credit: np.ndarray, both_seats: bool) -> tuple[np.ndarray, np.ndarray]:
    """The generation's pairs and credits followed by the members' ``k`` games each against the anchors
    (networks ``anchors``), in order of member then game: member ``i`` the first player in its games 0, 2, 4,
    ..., the second in 1, 3, ..., its games ``2j`` and ``2j + 1`` against anchor ``j`` modulo their number
    (so 2 games are one from each seat against one anchor); with ``both_seats`` the same games again with the
    seats swapped. Only the member scores (an anchor is no candidate)."""
    member = np.repeat(np.arange(n), k)
    first = np.tile(np.arange(k) % 2 == 0, n)
    other = np.tile(np.asarray(anchors, dtype=np.int64)[(np.arange(k) // 2) % len(anchors)], n)
    games = np.where(first[:, None], np.stack([member, other], axis=1), np.stack([other, member], axis=1))
    own = np.stack([first, ~first], axis=1)
    if both_seats:
        games, own = np.concatenate([games, games[:, ::-1]]), np.concatenate([own, own[:, ::-1]])
    return np.concatenate([pairs, games]), np.concatenate([credit, own])
