"""Serving accuracy, fit and cross-validation: the efficiency point's grid search (`--fit`) and the
leave-one-family-out CV over CV_GRID with a band per fold (`--cv`), for bench/serving_accuracy.py."""

from __future__ import annotations

import functools
import math
import statistics
from collections.abc import Callable, Sequence

from bench.calibration_data import ServingRow, load_serving_rows, load_serving_split
from bench.serving_checks import Check, checks, summarise
from bench.serving_rows import skip_reason
from tools.compute import serving_constants as K
from tools.compute.serving import ServingEfficiency
from tools.ranges import Range

GRID: dict[str, tuple[object, ...]] = {
    "bw": (0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85),
    "cmp": (0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.65),
    "prefill": (0.45, 0.55, 0.65, 0.75, 0.85),
    "overhead": (0.0001, 0.0003, 0.0007, 0.0015, 0.003),
    "p": (1.0, 1.5, 2.0, 3.0, math.inf),
    "moe": (0.4, 0.55, 0.7, 1.0),
    "fp8kv": (True, False),
    "layer": (0.0, 10e-6, 20e-6, 30e-6),
    "trt_layer": (0.0, 10e-6),
    "v0tp": (0.0, 1.5e-3, 3e-3, 4.5e-3),
    "int4": (0.0, 40e-6, 80e-6, 120e-6),
}
PYTORCH_ENGINES = ("vllm", "sglang", "tgi")
"""The engines that share the fitted per-layer step time (serving_constants.LAYER_STEP_S)."""


def _point(v: dict[str, object], spread: float = 1.0) -> ServingEfficiency:
    bw, cmp, ovh = float(v["bw"]), float(v["cmp"]), float(v["overhead"])  # type: ignore[arg-type]
    return ServingEfficiency(
        bandwidth=Range(low=bw / spread, high=min(0.95, bw * spread)),
        compute=Range(low=cmp / spread, high=min(0.9, cmp * spread)),
        prefill=Range(low=float(v["prefill"]) / spread, high=min(0.95, float(v["prefill"]) * spread)),  # type: ignore[arg-type]
        step_overhead_s=Range(low=ovh / spread, high=ovh * spread),
        overlap_exponent=float(v["p"]),  # type: ignore[arg-type]
        moe_compute_factor=float(v["moe"]),  # type: ignore[arg-type]
        fp8_kv_with_fp8_weights=bool(v["fp8kv"]),
        layer_step_s={
            "tensorrt-llm": float(v.get("trt_layer", v.get("layer", K.LAYER_STEP_S["tensorrt-llm"]))),  # type: ignore[arg-type]
            **{e: float(v.get("layer", K.LAYER_STEP_S[e])) for e in PYTORCH_ENGINES},  # type: ignore[arg-type]
        },
        v0_tp_step_s=float(v.get("v0tp", K.VLLM_V0_TP_STEP_S)),  # type: ignore[arg-type]
        int4_layer_s=float(v.get("int4", K.INT4_WEIGHT_ONLY_LAYER_S)),  # type: ignore[arg-type]
        fixed_band=spread,
        attention_apart=bool(v.get("apart", K.ATTENTION_KERNELS_APART)),
        framework_factor=_framework_factor(v),
    )


def _framework_factor(v: dict[str, object]) -> dict[str, float]:
    """The engines' speed relative to TensorRT-LLM's (serving_constants.FRAMEWORK_EFFICIENCY); grid key "pt":
    vLLM's and TGI's factor, SGLang's kept at its published ratio to vLLM's (1,920 / 1,850 tokens/s)."""
    pt = v.get("pt")
    if pt is None:
        return dict(K.FRAMEWORK_EFFICIENCY)
    vllm = float(pt)  # type: ignore[arg-type]
    sglang = min(1.0, vllm * K.FRAMEWORK_EFFICIENCY["sglang"] / K.FRAMEWORK_EFFICIENCY["vllm"])
    return {**K.FRAMEWORK_EFFICIENCY, "vllm": vllm, "tgi": vllm, "sglang": sglang}


def _fitted(row: ServingRow, c: Check) -> bool:
    """Figures the point estimate is fitted on: throughput and inter-token latency, and the time to first
    token of a lone request (prefill alone, no queue)."""
    return c.metric != "ttft_s" or row.concurrency == 1


def _loss(rows: Sequence[ServingRow], eff: ServingEfficiency) -> float:
    cs = [c for r in rows for c in checks(r, eff) if _fitted(r, c)]
    return statistics.mean(abs(math.log1p(c.error)) for c in cs)


def _descend(rows: Sequence[ServingRow], v: dict[str, object]) -> tuple[float, dict[str, object]]:
    best = _loss(rows, _point(v))
    for _sweep in range(6):
        before = best
        for k, opts in GRID.items():
            for o in opts:
                trial = {**v, k: o}
                loss = _loss(rows, _point(trial))
                if loss < best - 1e-9:
                    best, v = loss, trial
        if best >= before - 1e-9:
            break
    return best, v


def _fit_point(rows: Sequence[ServingRow], quiet: bool = True) -> dict[str, object]:
    """Coordinate descent on the point estimate (mean |log error| over the rows' throughput and
    inter-token-latency figures and lone-request TTFTs), started from every combination of the
    structural choices (overlap exponent, FP8 KV) so it does not stop in a local minimum."""
    middle: dict[str, object] = {k: opts[len(opts) // 2] for k, opts in GRID.items()}
    best = (math.inf, middle)
    for p in GRID["p"]:
        for fp8kv in GRID["fp8kv"]:
            found = _descend(rows, {**middle, "p": p, "fp8kv": fp8kv})
            if found[0] < best[0] - 1e-9:
                best = found
                if not quiet:
                    print(f"mean |log error| {found[0]:.3f}  {found[1]}")
    return best[1]


SCORED_APART_SIDES = ("fresh5_held_out", "fresh6_held_out", "fresh7_held_out")
"""Sides that the CV and --fit leave out: fresh-5, fresh-6 and fresh-7 are scored apart (`--side
fresh5_held_out`, `--side fresh6_held_out`, `--side fresh7_held_out`), never fitted (bench/data/README.md,
"Fresh-5 / Fresh-6 / Fresh-7 held-out set (serving)");
the round-8 CV's 32 families / 377 figures."""


@functools.cache
def _fit_rows() -> tuple[ServingRow, ...]:
    """Every family of every side but SCORED_APART_SIDES: all are development data now (a new held-out set
    is collected apart). Read once per process: a grid point's table used to re-read and re-validate every
    serving file, over half of its time."""
    sides = load_serving_split().sides()
    fams = {f for name, side in sides.items() if name not in SCORED_APART_SIDES for f in side}
    return tuple(r for r in load_serving_rows() if r.family in fams and skip_reason(r) is None)


def _fit() -> None:
    """The point estimate on the fit families, then the coverage of a few band spreads around it."""
    rows = _fit_rows()
    v = _fit_point(rows, quiet=False)
    for spread in (1.1, 1.15, 1.2, 1.265, 1.3):
        cs = [c for r in rows for c in checks(r, _point(v, spread)) if c.metric != "ttft_s"]
        print(summarise(f"spread {spread}", cs))


CV_GRID: dict[str, tuple[object, ...]] = {
    "bw": (0.8, 0.85, 0.9),
    "pt": (0.88, 0.94, 1.0),
    "cmp": (0.45, 0.5),
    "p": (1.5, 2.0, 3.0),
    "layer": (25e-6, 30e-6),
}
"""The grid of the joint fit and its cross-validation: the bandwidth efficiency with the step's fixed costs
(serving_constants LAYER_STEP_S, VLLM_V0_TP_STEP_S, INT4_WEIGHT_ONLY_LAYER_S); the other centres stay at
the constants' (CV_BASE)."""
CV_BASE: dict[str, object] = {
    "bw": 0.8, "cmp": 0.5, "prefill": 0.65, "overhead": 0.0001, "p": 1.5, "moe": 0.55, "fp8kv": True,
}  # fmt: skip


def _grid_points() -> list[dict[str, object]]:
    points: list[dict[str, object]] = [dict(CV_BASE)]
    for k, opts in CV_GRID.items():
        points = [{**p, k: o} for p in points for o in opts]
    return points


_Fig = tuple[str, str, str, float, float, float, bool]  # row, family, metric, published, low, high, fitted


BAND_GRID: tuple[float, ...] = (1.20, 1.24, 1.28, 1.30, 1.32, 1.34, 1.36, 1.38, 1.40)
"""Candidate band half-widths (serving_constants.BAND_HALF_WIDTH) the CV chooses among per fold."""
WIDTH_CAP = 1.55
"""The band is the widest of BAND_GRID whose median width over the training families' figures (throughput
and inter-token latency) stays at or under this: the issue caps the out-of-sample median width at 1.6x, and
the margin keeps a held-out family's median under it."""


def _table_at(v: dict[str, object], band: float | None = None) -> list[_Fig]:
    eff = _point(v, band or K.BAND_HALF_WIDTH)
    return [
        (c.row, c.family, c.metric, c.published, c.predicted.low, c.predicted.high, _fitted(r, c))
        for r in _fit_rows()
        for c in checks(r, eff)
    ]


def _table(jobs: int) -> list[list[_Fig]]:
    """Every grid point's figures over every row (the expensive part, run once: a fold is an argmin)."""
    points = _grid_points()
    if jobs <= 1:
        return [_table_at(v) for v in points]
    import multiprocessing

    with multiprocessing.Pool(jobs) as pool:
        return pool.map(_table_at, points)


def _log_err(f: _Fig) -> float:
    return abs(math.log(math.sqrt(f[4] * f[5]) / f[3]))


def _covered(figs: list[_Fig], without: str | None) -> int:
    """Throughput and inter-token-latency figures of every family but `without` inside their range; 0 when
    those figures' median width is over WIDTH_CAP (a point may not buy coverage with width)."""
    mine = [f for f in figs if f[1] != without and f[2] != "ttft_s"]
    if statistics.median(f[5] / f[4] for f in mine) > WIDTH_CAP:
        return 0
    return sum(f[4] <= f[3] <= f[5] for f in mine)


CV_CRITERIA = ("log", "coverage")
"""How a fold chooses its grid point on the training families: "log", the least mean |log error| of the
point estimate (throughput, inter-token latency, lone-request TTFT); "coverage", the most throughput and
inter-token-latency figures inside the range at the table's band (BAND_HALF_WIDTH) with the median width
within WIDTH_CAP, ties to the lower log error. Either way the left-out family is scored at the band
widest_band gives the chosen point: coverage chooses by the issue's own target, on training families only."""


def _cv(
    jobs: int = 2,
    rows: bool = False,
    criterion: str = "coverage",
    cache: str | None = None,
    width_cap: float | None = None,
) -> None:
    """Leave-one-family-out over all families on the joint grid (CV_GRID): for each family, the grid point
    that fits every other family best (CV_CRITERIA: mean |log error| over throughput, inter-token latency and
    lone-request TTFT, or coverage at the width cap), scored on the left-out family at the fitted band.
    Prints each fold's point, the out-of-family
    coverage / median width / median error per side and the residual percentiles (which set
    serving_constants.BAND_HALF_WIDTH), then the all-families fit. `width_cap`: another WIDTH_CAP for this
    run (the grid's table is the same, so a --cache file is reused)."""
    global WIDTH_CAP
    if width_cap is not None:
        WIDTH_CAP = width_cap
    points, table = _grid_points(), _cached(cache, lambda: _table(jobs))
    families = sorted({f[1] for f in table[0]})
    loss: list[dict[str, list[float]]] = []
    for figs in table:
        by_fam: dict[str, list[float]] = {fam: [0.0, 0.0] for fam in families}
        for f in figs:
            if f[6]:
                by_fam[f[1]][0] += _log_err(f)
                by_fam[f[1]][1] += 1
        loss.append(by_fam)

    def best(without: str | None) -> int:
        def total(i: int) -> float:
            s = [v for fam, v in loss[i].items() if fam != without]
            return sum(a for a, _ in s) / max(1.0, sum(n for _, n in s))

        if criterion == "coverage":  # most training figures inside at the table's band, width within the cap
            return max(range(len(points)), key=lambda i: (_covered(table[i], without), -total(i)))
        return min(range(len(points)), key=total)

    chosen = sorted({best(fam) for fam in families} | {best(None)})
    banded = _banded_tables([points[i] for i in chosen], jobs)
    print(f"fold criterion: {criterion}")

    def band_for(i: int, without: str | None) -> float:
        return widest_band({b: banded[(chosen.index(i), b)] for b in BAND_GRID}, without)

    side_of = {fam: side for side, fams in load_serving_split().sides().items() for fam in fams}
    cv: dict[str, list[Check]] = {}
    for fam in families:
        i = best(fam)
        band = band_for(i, fam)
        print(f"without {fam}: {_short(points[i])}, band {band}")
        for f in banded[(chosen.index(i), band)]:
            if f[1] == fam and f[2] != "ttft_s":
                check = Check(f[0], f[1], f[2], f[3], Range(low=f[4], high=f[5]))
                cv.setdefault(side_of[fam], []).append(check)
    every = [c for cs in cv.values() for c in cs]
    if rows:
        for c in every:
            flag = "" if c.inside else "  OUT"
            print(f"  {c.row:52s} {c.metric:22s} pub {c.published:9.4g}  pred {c.predicted.low:9.4g}-"
                  f"{c.predicted.high:<9.4g} {c.error:+6.0%}{flag}")  # fmt: skip
    by_family: dict[str, list[Check]] = {}
    for c in every:
        by_family.setdefault(c.family, []).append(c)
    for fam, cs in sorted(by_family.items(), key=lambda kv: sum(c.inside for c in kv[1]) / len(kv[1])):
        print(summarise(f"CV {fam[:26]}", cs))
    for side, cs in cv.items():
        print(summarise(f"CV {side}", cs))
    print(summarise("CV all", every))
    a = sorted(abs(math.log1p(c.error)) for c in every)
    for q in (0.5, 0.8, 0.85, 0.9):
        print(f"out-of-family |log residual| p{int(q * 100)}: x/÷ {math.exp(a[int(q * (len(a) - 1))]):.3f}")
    print(f"fit on all families: {_short(points[best(None)])}, band {band_for(best(None), None)}")


def _cached(path: str | None, make: Callable[[], list[list[_Fig]]]) -> list[list[_Fig]]:
    """The grid's table from `path` when it holds one for this grid, these rows and this code (the serving
    model's sources, the bench, the serving data files), else made (and saved there): lets the fold criteria
    be compared without recomputing the grid. A development aid only."""
    import hashlib
    import pickle
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    sources = sorted(
        [
            *root.glob("tools/compute/*.py"),
            *root.glob("bench/data/serving_throughput*.yaml"),
            *root.glob("bench/serving_*.py"),
        ]
    )
    digest = hashlib.sha256(b"".join(f.read_bytes() for f in sources)).hexdigest()
    key = (repr(_grid_points()), sorted(r.id for r in _fit_rows()), digest)
    if path:
        try:
            with open(path, "rb") as fh:
                saved_key, saved = pickle.load(fh)
            if saved_key == key:
                return saved  # type: ignore[no-any-return]
        except (OSError, EOFError, pickle.UnpicklingError, ValueError):
            pass
    table = make()
    if path:
        with open(path, "wb") as fh:
            pickle.dump((key, table), fh)
    return table


def _banded_at(args: tuple[dict[str, object], float]) -> list[_Fig]:
    return _table_at(*args)


def _banded_tables(points: list[dict[str, object]], jobs: int) -> dict[tuple[int, float], list[_Fig]]:
    """The figures of each of `points` at every band of BAND_GRID, keyed (point index, band)."""
    keys = [(i, b) for i in range(len(points)) for b in BAND_GRID]
    args = [(points[i], b) for i, b in keys]
    if jobs <= 1:
        return dict(zip(keys, map(_banded_at, args), strict=True))
    import multiprocessing

    with multiprocessing.Pool(jobs) as pool:
        return dict(zip(keys, pool.map(_banded_at, args), strict=True))


def widest_band(by_band: dict[float, list[_Fig]], without: str | None) -> float:
    """The widest band whose median width over the figures of every family but `without` (the training
    families of a fold) is within WIDTH_CAP; the narrowest band when none is."""
    ok = [b for b, figs in by_band.items() if _median_width(figs, without) <= WIDTH_CAP]
    return max(ok) if ok else min(by_band)


def _median_width(figs: list[_Fig], without: str | None) -> float:
    """Median high / low of the throughput and inter-token-latency figures of every family but `without`."""
    return statistics.median(f[5] / f[4] for f in figs if f[1] != without and f[2] != "ttft_s")


def _short(v: dict[str, object]) -> str:
    return ", ".join(f"{k} {v[k]}" for k in CV_GRID)
