"""The MAP-Elites archive: up to ``capacity`` elites per cell of a grid of behaviour categories.

With ``capacity = 1`` it is MAP-Elites' archive (Mouret and Clune, 2015): one elite per
behaviour. A larger capacity makes each cell a niche that keeps its best few (a "deep"
grid), so the search inside a behaviour has a population rather than a single line.

An individual enters its cell when the cell has room or when its fitness is at least the
cell's worst, which then leaves. Ties enter: an elite drifts across networks that play
alike and score alike (exact fitness has wide plateaus; a strict rule would freeze them).
A cell keeps its elites best first, a newcomer before the ones it ties. Individuals of a
batch enter in batch order, so the archive after a batch is a function of the batch.

Why not pyribs' archives: they admit a solution only when it strictly exceeds its cell's
threshold (``objective > threshold``, ribs 0.12), which would freeze the plateaus above;
they keep one elite per cell; they hold flat float vectors, where an elite here is a
network with its hidden size, step sizes and lineage; and ribs 0.12 would bring pandas,
scipy and scikit-learn into the lock for what is a dict of short sorted lists over a few
categorical cells.
"""

from __future__ import annotations

import numpy as np

#: Insertion outcomes, per individual: into a cell with room, over a worse one, over an equal one, not at all.
REJECTED, NEW, BETTER, EQUAL = 0, 1, 2, 3


def fitness(ind) -> float:
    return ind.fitness.values[0]


class Archive:
    """Elites by flat cell index (row-major over ``shape``), best first; an elite is any object with a DEAP fitness."""

    def __init__(self, shape: tuple[int, ...], capacity: int = 1):
        self.shape = tuple(int(s) for s in shape)
        self.capacity = int(capacity)
        self.cells: dict[int, list] = {}

    @property
    def size(self) -> int:
        """Cells of the grid."""
        return int(np.prod(self.shape))

    def flat(self, cells) -> np.ndarray:
        """Flat indices of (n, dims) category rows."""
        return np.ravel_multi_index(np.asarray(cells, dtype=np.int64).reshape(-1, len(self.shape)).T, self.shape)

    def cell(self, flat: int) -> tuple[int, ...]:
        return tuple(int(c) for c in np.unravel_index(flat, self.shape))

    def insert(self, individuals, cells) -> np.ndarray:
        """Offer ``individuals`` (in order) to their ``cells``; return each one's outcome (NEW, BETTER, EQUAL, REJECTED)."""
        status = np.full(len(individuals), REJECTED, dtype=np.int64)
        for i, (ind, k) in enumerate(zip(individuals, self.flat(cells).tolist())):
            members = self.cells.setdefault(k, [])
            f = fitness(ind)
            if len(members) < self.capacity:
                status[i] = NEW
            elif f > fitness(members[-1]):
                status[i] = BETTER
            elif f == fitness(members[-1]):
                status[i] = EQUAL
            else:
                continue
            at = next((j for j, m in enumerate(members) if fitness(m) <= f), len(members))
            members.insert(at, ind)
            del members[self.capacity:]
        return status

    def occupied(self) -> list[int]:
        """Flat indices of the cells that hold an elite, ascending."""
        return sorted(k for k, m in self.cells.items() if m)

    def elites(self) -> list:
        """Every elite, cell by cell (ascending), best first within a cell."""
        return [e for k in self.occupied() for e in self.cells[k]]

    def best(self) -> tuple[int, object]:
        """(cell, elite) of the highest fitness; ties: the lowest cell."""
        k = max(self.occupied(), key=lambda c: (fitness(self.cells[c][0]), -c))
        return k, self.cells[k][0]

    def fitness_grid(self) -> tuple[np.ndarray, np.ndarray]:
        """(best fitness of every cell, 0 where empty; its number of elites), both flat over the grid."""
        best, count = np.zeros(self.size), np.zeros(self.size, dtype=np.int64)
        for k in self.occupied():
            best[k], count[k] = fitness(self.cells[k][0]), len(self.cells[k])
        return best, count


def sel_cells(archive: Archive, n: int, rng: np.random.Generator, tournament: int = 1) -> list:
    """``n`` parents: each from the best of ``tournament`` cells drawn uniformly (with replacement)
    among the occupied ones, then uniformly among that cell's elites.

    ``tournament = 1`` is MAP-Elites' uniform choice; larger sizes lean towards the cells
    of fitter best elites (ties: the lowest cell) while every occupied cell keeps a chance.
    """
    cells = np.array(archive.occupied())
    best = np.array([fitness(archive.cells[k][0]) for k in cells])
    draws = rng.integers(0, len(cells), size=(n, tournament))
    order = np.lexsort((np.arange(len(cells)), -best))  # fittest first, the lowest cell first among equals
    rank = np.empty(len(cells), dtype=np.int64)
    rank[order] = np.arange(len(cells))
    winners = cells[draws[np.arange(n), np.argmin(rank[draws], axis=1)]]
    sizes = np.array([len(archive.cells[k]) for k in winners])
    members = (rng.random(n) * sizes).astype(np.int64)
    return [archive.cells[int(k)][int(j)] for k, j in zip(winners, members)]
