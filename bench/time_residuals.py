"""Out-of-family residuals of the training-time estimate, grouped by set-up: where the model misses.

Every row with a tokens/s per GPU is predicted by the fold that leaves its own source family out
(bench/time_cv.py, the framework given), and its log residual log(published / geometric middle) is grouped
by side, family, framework, GPU, precision, method, model size, MoE, GPU count, nodes, sequence length,
tokens per micro-batch and checkpointing. Per group: rows, share inside the range, median residual
(published / middle - 1: negative = the estimate is too fast) and the widest one.

Run: .venv/bin/python -m bench.time_residuals [--by KEY ...]
"""

from __future__ import annotations

import math
import statistics
import sys
from collections.abc import Callable

from bench.time_accuracy import Scored
from bench.time_cv import cv_scored_sides
from bench.time_rows import row_full_recompute, row_parallel, row_seq_len


def _bucket(x: float | None, edges: tuple[float, ...], unit: str) -> str:
    if x is None:
        return "unstated"
    for e in edges:
        if x <= e:
            return f"<={e:g}{unit}"
    return f">{edges[-1]:g}{unit}"


def _tokens_per_micro_batch(s: Scored) -> float | None:
    seq = row_seq_len(s.row)
    mb = row_parallel(s.row).tokens_per_micro_batch_sequences
    return None if seq is None or mb is None else seq * mb


KEYS: dict[str, Callable[[Scored, str], str]] = {
    "side": lambda s, side: side,
    "family": lambda s, side: s.row.family,
    "framework": lambda s, side: s.row.framework,
    "gpu": lambda s, side: s.row.gpu,
    "precision": lambda s, side: s.row.precision,
    "method": lambda s, side: s.row.method,
    "params": lambda s, side: _bucket(s.row.model.params_b, (1, 4, 10, 20, 80, 200), "B"),
    "moe": lambda s, side: "moe" if s.row.model.moe else "dense",
    "gpus": lambda s, side: _bucket(s.row.gpus, (1, 8, 64, 512), " GPUs"),
    "nodes": lambda s, side: "1 node" if s.row.nodes == 1 else "multi-node",
    "seq_len": lambda s, side: _bucket(row_seq_len(s.row), (1024, 2048, 4096, 8192), ""),
    "micro_batch_tokens": lambda s, side: _bucket(
        _tokens_per_micro_batch(s), (2048, 4096, 8192, 16384), " tok"
    ),
    "recompute": lambda s, side: "full recompute" if row_full_recompute(s.row) else "none/selective",
}


def _log_res(s: Scored) -> float:
    return math.log(s.published / math.sqrt(s.with_framework.low * s.with_framework.high))


def main(argv: list[str]) -> int:
    keys = [a for a in argv if a in KEYS] or list(KEYS)
    scored = [(s, side) for side, rows in cv_scored_sides().items() for s in rows]
    for key in keys:
        groups: dict[str, list[Scored]] = {}
        for s, side in scored:
            groups.setdefault(KEYS[key](s, side), []).append(s)
        print(f"by {key}: rows, inside, median published/middle - 1, widest")
        for name, ss in sorted(groups.items()):
            logs = [_log_res(s) for s in ss]
            print(
                f"  {name[:34]:34s} {len(ss):4d}  {sum(s.inside for s in ss) / len(ss):6.1%}"
                f"  {math.expm1(statistics.median(logs)):+7.1%}  {math.expm1(max(logs, key=abs)):+8.1%}"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
