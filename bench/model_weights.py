"""How a score stage turns comparison levels into weights and probabilities, at the size of a large
pass: term-frequency values given as one list per pair (the way before) against cells, (pair,
comparison) -> value, with the probabilities summed from the weights once: in a dict over the whole
pass at once (the way before), and as the stage holds them now (``Cells``: three arrays), weighed
``OUTCOME_CHUNK`` pairs at a time (``match_weights``). Pure Python and numpy, no Neo4j.

    python bench/model_weights.py [--pairs 1000000] [--comparisons 12] [--cells 300000] [--repeat 2]

The ways run alternately in one process on the same synthetic pairs; each prints its seconds and the
peak memory tracemalloc traced while it ran (a second run, so that tracing does not slow the timed one).
"""

from __future__ import annotations

import argparse
import time
import tracemalloc
from collections.abc import Callable

import numpy as np

from kgres.resolve.score.model import Cells, ComparisonWeights, MatchModel, probability
from kgres.resolve.score.stage import match_weights

VALUES = 5000  # distinct values of each comparison with term frequencies


def model_of(comparisons: int) -> MatchModel:
    """A model whose every comparison has three levels, the first term-frequency adjusted."""
    return MatchModel(comparisons=[
        ComparisonWeights(name=f"attr:c{k}", kind="text", levels=["exact", "close", "different"],
                          m=[0.8, 0.15, 0.05], u=[0.05, 0.15, 0.8], u_random=[0.05, 0.15, 0.8],
                          tf={f"v{i}": 1 / VALUES for i in range(VALUES)}, tf_levels=[0], tf_baseline=0.001)
        for k in range(comparisons)], prior=0.01)


def as_rows(cells: dict[tuple[int, int], str], pairs: int, comparisons: int) -> list[list[str | None]]:
    rows: list[list[str | None]] = [[None] * comparisons for _ in range(pairs)]
    for (i, k), value in cells.items():
        rows[i][k] = value
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pairs", type=int, default=1_000_000)
    ap.add_argument("--comparisons", type=int, default=12)
    ap.add_argument("--cells", type=int, default=300_000)
    ap.add_argument("--repeat", type=int, default=2)
    args = ap.parse_args()
    model = model_of(args.comparisons)
    rng = np.random.default_rng(1)
    gamma = rng.integers(0, 3, size=(args.pairs, args.comparisons)).astype(np.int8)
    cells = {(int(i), int(k)): f"v{int(i) % VALUES}"
             for i, k in zip(rng.integers(0, args.pairs, args.cells), rng.integers(0, args.comparisons, args.cells))}

    def rows_way() -> tuple[np.ndarray, np.ndarray]:
        rows = as_rows(cells, args.pairs, args.comparisons)
        model.weights(gamma, rows)  # the evidence the stage writes
        return model.predict(gamma, rows)

    def cells_way() -> tuple[np.ndarray, np.ndarray]:
        return model.predict(gamma, level_weights=model.cell_weights(gamma, cells))

    arrays = Cells()
    for (i, k), value in sorted(cells.items()):  # a stage adds them in pair order
        arrays.add(i, k, value)

    def chunked_way() -> tuple[np.ndarray, np.ndarray]:
        weights = match_weights(model, gamma, arrays)
        return weights, probability(weights)

    ways: list[tuple[str, Callable[[], tuple[np.ndarray, np.ndarray]]]] = [
        ("a list per pair, weights twice", rows_way), ("cells, weights once", cells_way),
        ("cell arrays, a chunk at a time", chunked_way)]
    print(f"{args.pairs:,} pairs, {args.comparisons} comparisons with term frequencies, {len(cells):,} cells")
    for _ in range(args.repeat):
        for name, way in ways:
            t = time.perf_counter()
            way()
            seconds = time.perf_counter() - t
            tracemalloc.start()
            way()
            peak = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
            print(f"  {name:32s} {seconds:6.2f} s   peak traced {peak / 2**20:6.0f} MiB")
    results = [way() for _, way in ways]
    same = [np.array_equal(x, y) for other in results[1:] for x, y in zip(results[0], other)]
    print(f"same match weights and probabilities: {all(same)}")


if __name__ == "__main__":
    main()
