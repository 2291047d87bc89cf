"""Out-of-family residuals of the training-time estimate, grouped by set-up: where the model misses.

Every row with a tokens/s per GPU is predicted by the fold that leaves its own source family out
(bench/time_cv.py, the framework given), and its log residual log(published / geometric middle) is grouped
by side, family, framework, GPU, precision, method, model size, MoE, GPU count, nodes, sequence length,
tokens per micro-batch, checkpointing and `structure` (one class per row, the first of STRUCTURES that
holds: a documented source quirk, a whole run, Blackwell or FP8 outside Transformer Engine, MoE, QLoRA,
long context, a consumer card, then method x scale). Per group: rows, share inside the range, rows outside,
median residual (published / middle - 1: negative = the estimate is too fast) and the widest one.

Run: .venv/bin/python -m bench.time_residuals [KEY ...] [--misses]   (--misses: every row outside its
range, with its structure class)
"""

from __future__ import annotations

import math
import statistics
import sys
from collections.abc import Callable

from bench.time_accuracy import Scored
from bench.time_cv import cv_scored_sides
from bench.time_rows import row_full_recompute, row_parallel, row_seq_len, row_whole_run
from tools.catalog.load import load_catalog
from tools.compute.efficiency import TE_FRAMEWORKS, generation_of


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


# Rows whose miss a documented quirk of the source's set-up explains (bench/data/README.md), not a mechanism a
# buyer's run has: the structure class "source quirk".
SOURCE_QUIRK_FAMILIES = {
    "universal-llm-trainer-gpu-test": "CUDA_LAUNCH_BLOCKING=1, deterministic mode, FP32 4-bit loads (tim10)",
    "torchao-low-bit-optim-readme": "batch and command not published; 41% MFU at the recipe defaults (tim10)",
    "amd-aig-pytorch-training-benchmark": "torch.compile inside a 30-step average (tim13)",
}
SOURCE_QUIRK_ROWS = {
    "surogate-qwen3-30b-a3b-rtx5090-unsloth-nf4": "30B MoE QLoRA on a 32 GB card: offloaded (tim7)",
}
LONG_CONTEXT_TOKENS = 16384
"""Sequences at or above this length form the structure class 'long context'."""


def _structure(s: Scored) -> str:
    """The first structural class (in this order) the row belongs to."""
    r = s.row
    gpu = _GPUS[r.gpu]
    gen = generation_of(gpu)
    seq = row_seq_len(r)
    if r.family in SOURCE_QUIRK_FAMILIES or r.id in SOURCE_QUIRK_ROWS:
        return "source quirk"
    if row_whole_run(r):
        return "whole run (cards, papers)"
    if gen == "blackwell" and r.framework not in TE_FRAMEWORKS:
        return "Blackwell, stack outside TE"
    if r.precision in ("fp8", "mxfp8") and r.framework not in TE_FRAMEWORKS:
        return "FP8, stack outside TE"
    if r.model.moe:
        return "MoE"
    if r.method == "qlora":
        return "QLoRA"
    if seq is not None and seq >= LONG_CONTEXT_TOKENS:
        return "long context (>= 16k)"
    if gpu.consumer:
        return "consumer card"
    scale = "1 GPU" if r.gpus == 1 else ("1 node" if r.nodes == 1 else "multi-node")
    return f"{r.method}, {scale}"


_GPUS = {g.id: g for g in load_catalog().gpus}

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
    "structure": lambda s, side: _structure(s),
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
        print(f"by {key}: rows, inside, outside, median published/middle - 1, widest")
        for name, ss in sorted(groups.items()):
            logs = [_log_res(s) for s in ss]
            inside = sum(s.inside for s in ss)
            print(
                f"  {name[:34]:34s} {len(ss):4d}  {inside / len(ss):6.1%} {len(ss) - inside:4d}"
                f"  {math.expm1(statistics.median(logs)):+7.1%}  {math.expm1(max(logs, key=abs)):+8.1%}"
            )
    if "--misses" in argv:
        print("rows outside their range (out of family): structure, family, id, published / middle - 1")
        for s, _ in sorted(scored, key=lambda p: (_structure(p[0]), p[0].row.family, p[0].row.id)):
            if not s.inside:
                res = math.expm1(_log_res(s))
                print(f"  {_structure(s)[:28]:28s} {s.row.family[:30]:30s} {s.row.id[:48]:48s} {res:+7.1%}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
