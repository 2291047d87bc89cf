"""Memory accuracy: the analytic model vs published measurements, and vs the simple rules of thumb.

For each usable measured row (tools/memory_calibration.py: source, setup, basis, tolerance) prints the
configuration, the estimate on the measurement's basis, the measurement, and the signed error; then the
same rows sized by the simple rules, and the median absolute error of each method.

Simple rules (all give a total in GB; per GPU = total / GPUs, as if perfectly sharded, which flatters
them on multi-GPU rows):
- seed 001: tools.memory.seed_rule_gb (18 B/param full, 2 B + 9 GB LoRA, 0.5 B + 12 GB QLoRA);
- seed 000 table: the middle of the band for the nearest size (7/13/34/70B); full column is a total,
  LoRA/QLoRA column per GPU;
- seed 002 rules: 16 GB per billion full, 2 GB/B LoRA, 0.5 GB/B QLoRA (middle of 0.4-0.6);
- seed 004 table: the minimum-VRAM column for the nearest size;
- accelerate estimate-memory: training = 4 x the weights in the load dtype (weights, grads, two Adam
  states, "max of components" ~8 B/param in 16-bit), the dtype being int4 for 4-bit bases.

Run: .venv/bin/python bench/accuracy.py
"""

from __future__ import annotations

import statistics

from tools.memory_calibration import CALIBRATION_ROWS, EXCLUDED_ROWS, SIMPLE_RULES
from tools.units import gb_to_gib


def main() -> int:
    print(
        "Analytic memory model vs published measurements (GiB per GPU, estimate on the measurement's basis)"
    )
    print(f"{'row':28s} {'config':74s} {'basis':9s} {'est':>7s} {'meas':>7s} {'err':>7s}  tol")
    errors: list[float] = []
    for row in CALIBRATION_ROWS:
        est = row.comparable_gib()
        err = row.error()
        errors.append(abs(err))
        flag = "" if abs(err) <= row.tolerance else "  OUT"
        print(f"{row.id:28s} {row.config[:74]:74s} {row.basis:9s} {est:7.2f} {row.measured_gib:7.2f} "
              f"{err * 100:+6.1f}%  ±{row.tolerance * 100:.0f}%{flag}")  # fmt: skip
    model_median = statistics.median(errors)
    print(f"\nanalytic model: median |error| {model_median * 100:.1f}% over {len(errors)} rows "
          f"(mean {statistics.mean(errors) * 100:.1f}%, max {max(errors) * 100:.1f}%)")  # fmt: skip

    print("\nSimple rules on the same rows (signed error %, rule GB converted to GiB):")
    header = f"{'row':28s} " + " ".join(f"{name:>22s}" for name in SIMPLE_RULES)
    print(header)
    rule_errors: dict[str, list[float]] = {name: [] for name in SIMPLE_RULES}
    for row in CALIBRATION_ROWS:
        cells = []
        for name, rule in SIMPLE_RULES.items():
            err = gb_to_gib(rule(row)) / row.measured_gib - 1
            rule_errors[name].append(abs(err))
            cells.append(f"{err * 100:+21.1f}%")
        print(f"{row.id:28s} " + " ".join(cells))
    print("\nmedian |error|:")
    print(f"  {'analytic model':24s} {model_median * 100:6.1f}%")
    for name, errs in rule_errors.items():
        better = "model better" if model_median < statistics.median(errs) else "RULE BETTER"
        print(f"  {name:24s} {statistics.median(errs) * 100:6.1f}%   ({better})")
    print("\nmeasured figures not used as rows:")
    for what, why in EXCLUDED_ROWS:
        print(f"  - {what}: {why}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
