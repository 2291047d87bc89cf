"""Sizing speed: the time to size one configuration, and to size one workload on every catalog GPU.

1. One configuration: estimate_memory for Llama 3 70B QLoRA (seed 001), median of many calls.
2. One workload across the GPU catalog: for each GPU, the smallest power-of-two GPU count (1..64, FSDP)
   whose per-GPU peak fits its usable memory, for Llama 3 70B full fine-tuning; median of several sweeps.
3. The same through advisor.api.size (model lookup + JSON dict, what the CLI does after start-up).

Prints figures; asserts nothing about time. Run: .venv/bin/python bench/size_speed.py [--runs N]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from advisor.api import size
from tools.catalog.load import load_catalog
from tools.memory import estimate_memory


def _timed(fn: Callable[[], object], runs: int) -> list[float]:
    samples = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - t0)
    return samples


def _fmt(samples: list[float]) -> str:
    med, lo, hi = statistics.median(samples) * 1e3, min(samples) * 1e3, max(samples) * 1e3
    return f"{med:8.3f} ms median (min {lo:.3f}, max {hi:.3f}, n={len(samples)})"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=300)
    args = parser.parse_args()
    catalog = load_catalog()
    arch = catalog.model("llama-3-70b")

    one = _timed(lambda: estimate_memory(arch=arch, method="qlora", optimizer="paged-adamw-8bit"), args.runs)
    print(f"size one configuration (estimate_memory, 70B QLoRA):      {_fmt(one)}")

    def sweep() -> list[tuple[str, int | None]]:
        plan: list[tuple[str, int | None]] = []
        for gpu in catalog.gpus:
            chosen = None
            for n in (1, 2, 4, 8, 16, 32, 64):
                est = estimate_memory(arch=arch, method="full", gpus=n, sharding="fsdp" if n > 1 else "none")
                if est.peak_gib_per_gpu <= gpu.usable_memory_gib:
                    chosen = n
                    break
            plan.append((gpu.id, chosen))
        return plan

    sweeps = _timed(sweep, max(5, args.runs // 30))
    plan = sweep()
    calls = sum(1 + [1, 2, 4, 8, 16, 32, 64].index(n) if n else 7 for _, n in plan)
    print(f"size one workload on all {len(catalog.gpus)} catalog GPUs ({calls} estimates): {_fmt(sweeps)}")
    print("  70B full fine-tuning, smallest FSDP GPU count that fits: "
          + ", ".join(f"{g}={n or '>64'}" for g, n in plan))  # fmt: skip

    api = _timed(
        lambda: size(model="llama-3-70b", method="qlora", optimizer="paged-adamw-8bit"), args.runs // 3
    )
    print(f"advisor.api.size (lookup + JSON dict):                    {_fmt(api)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
