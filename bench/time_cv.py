"""Leave-one-family-out scores per side: what bench/time_accuracy.py prints, but with every row predicted
by constants fitted WITHOUT its own source family (bench/time_fit.py's fit on the development rows minus
that family), so the figures say how the model does on a source it has not seen.

For each family with a tokens/s figure, every constant of tools/compute/efficiency.py that the fit
derives (anchors, generation ratios, adapter and recompute factors, the MoE factor) is refitted without
it (a constant only that family identifies takes its no-information value, as in cross_validate), and
all its rows are predicted, MoE and QLoRA included, with the row's framework and without. The band
half-widths stay the shipped ones (their own CV is bench/time_fit.py's cross_validate), and so do the
QLoRA slowdown and expert-imbalance ranges (named sources, not refitted). A family outside FIT_SIDES is
not in the fit at all, so its fold is the shipped model.

Run: .venv/bin/python -m bench.time_cv [--rows] [--with-side NAME]   (or: python -m bench.time_accuracy --cv)
--with-side NAME: the side NAME (e.g. fresh4_held_out) joins the development rows for this run, as if it were
in bench/time_fit.py's FIT_SIDES; each of its rows is still predicted without its own family.
"""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

from bench.calibration_data import (
    TRAINING_FILE,
    TrainingRow,
    load_training_rows,
    load_training_split,
    rows_in,
)
from bench.time_accuracy import Scored, _print_rows, _print_summary, predict, summarise
from bench.time_fit import SMALL_BATCH_FAMILY, _fit_rows, development_rows, fit_constants
from bench.time_rows import row_framework
from tools.catalog.load import load_catalog
from tools.compute.efficiency import CALIBRATION, SMALL_BATCH_EXPONENT, Calibration


def fold_calibration(development: list[TrainingRow], family: str) -> Calibration:
    """The shipped model's constants refitted without `family` (shipped widths and their cap flags)."""
    train = [r for r in development if r.family != family]
    if len(train) == len(development):  # not a development family: the shipped model is its fold
        return CALIBRATION
    exponent = SMALL_BATCH_EXPONENT if any(r.family == SMALL_BATCH_FAMILY for r in train) else 0.0
    cal = fit_constants(_fit_rows(train, small_batch_exponent=exponent)).calibration(
        small_batch_exponent=exponent,
        framework_half_width=CALIBRATION.framework_half_width,
        generic_half_width=CALIBRATION.generic_half_width,
    )
    return dataclasses.replace(
        cal,
        framework_width_capped=CALIBRATION.framework_width_capped,
        generic_width_capped=CALIBRATION.generic_width_capped,
    )


SCORED_APART_SIDES = ("fresh8_held_out", "device3_held_out", "device4_held_out", "device5_held_out")
"""Held-out sides the CV leaves out: scored apart with `bench.time_accuracy --side NAME` at the end of a round
(bench/data/README.md, "Fresh-8 held-out set (training)", "Measured on a lent GPU: second and third sets")."""


def cv_scored_sides(path: Path = TRAINING_FILE) -> dict[str, list[Scored]]:
    """Every side of the split but SCORED_APART_SIDES, each row predicted by the fold that leaves its family
    out."""
    rows = load_training_rows(path)
    development = development_rows(path)
    gpus = {g.id: g for g in load_catalog().gpus}
    folds: dict[str, Calibration] = {}
    out: dict[str, list[Scored]] = {}
    for name, fams in load_training_split(path).sides().items():
        if name in SCORED_APART_SIDES:
            continue
        scored = []
        for r in rows_in(rows, fams):
            if r.tokens_per_s_per_gpu is None:
                continue
            if r.family not in folds:
                folds[r.family] = fold_calibration(development, r.family)
            cal, gpu = folds[r.family], gpus[r.gpu]
            scored.append(
                Scored(
                    r,
                    r.tokens_per_s_per_gpu,
                    predict(r, gpu, row_framework(r), cal),
                    predict(r, gpu, None, cal),
                )
            )
        if scored:
            out[name] = scored
    return out


def main(argv: list[str]) -> int:
    if "--with-side" in argv:  # what-if: a checking side joins the development rows (every fold refitted)
        import bench.time_fit as time_fit

        i = argv.index("--with-side")
        time_fit.FIT_SIDES = (*time_fit.FIT_SIDES, *argv[i + 1].split(","))  # NAME[,NAME...]
    sides = cv_scored_sides()
    if "--rows" in argv:
        for name, scored in sides.items():
            print(f"{name} rows (out of family): id, framework, published, predicted range, middle's error")
            _print_rows(scored)
    print("Training tokens/s per GPU, leave-one-family-out (each row predicted without its own family):")
    for name, scored in sides.items():
        _print_summary(name, summarise(scored))
    every = [s for scored in sides.values() for s in scored]
    _print_summary("all", summarise(every))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
