"""Issue 13, round of 2026-11-29: framework cells pulled towards the pooled cell by their source-family
count, the evidence behind a cell named in the band, the MoE factor's ceiling, and the per-side
leave-one-family-out scores (bench/time_cv.py). Each term is tested where it binds and where it does not."""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path

import pytest
import yaml

from bench.calibration_data import TRAINING_FILE
from bench.time_accuracy import Scored, summarise
from bench.time_cv import SCORED_APART_SIDES, cv_scored_sides, fold_calibration
from bench.time_fit import (
    CELL_SHRINK_FAMILIES,
    MOE_FACTOR_CEILING,
    _fit_rows,
    _shrunk,
    development_rows,
    fit,
    fit_constants,
)
from tools.catalog.schema import GpuSpec
from tools.compute import efficiency as eff
from tools.compute.efficiency import efficiency_band
from tools.ranges import Range


def test_a_thin_cell_is_pulled_further_towards_the_pooled_cell() -> None:
    generic: dict[tuple[str, ...], float] = {("hopper", "fp8"): 0.40}
    raw: dict[tuple[str, ...], float] = {
        ("a", "hopper", "fp8"): 0.60,
        ("b", "hopper", "fp8"): 0.60,
        ("c", "hopper", "fp8"): 0.40,
    }
    out = _shrunk(
        raw, generic, {("a", "hopper", "fp8"): 1, ("b", "hopper", "fp8"): 3, ("c", "hopper", "fp8"): 2}
    )
    # binds: one family keeps 1 / (1 + k) of its log lead, three families 3 / (3 + k)
    assert CELL_SHRINK_FAMILIES == 1.0
    assert out[("a", "hopper", "fp8")] == pytest.approx(0.40 * 1.5**0.5)
    assert out[("b", "hopper", "fp8")] == pytest.approx(0.40 * 1.5**0.75)
    assert out[("a", "hopper", "fp8")] < out[("b", "hopper", "fp8")] < 0.60
    # does not bind: a cell at the pooled value stays there
    assert out[("c", "hopper", "fp8")] == pytest.approx(0.40)


def test_shipped_cells_sit_between_their_rows_and_the_pooled_cell(monkeypatch: pytest.MonkeyPatch) -> None:
    # torchtitan's H100 FP8 table (one family) runs below the pooled Hopper FP8 stacks: its anchor is
    # raised half way (in log) towards them, never past them
    rows = [fr for fr in _fit_rows() if fr.identified]
    monkeypatch.setattr("bench.time_fit.CELL_SHRINK_FAMILIES", 0.0)  # k = 0: the cell's own median
    raw = fit_constants(rows).framework_anchor[("torchtitan", "hopper", "fp8")]
    anchor = eff.FRAMEWORK_ANCHORS[("torchtitan", "hopper", "fp8")]
    pooled = eff.GENERIC_ANCHORS[("hopper", "fp8")]
    assert raw < anchor < pooled
    assert anchor == pytest.approx(math.sqrt(raw * pooled), rel=0.01)


def test_cell_evidence_is_the_fit_and_named_in_the_band(gpus: dict[str, GpuSpec]) -> None:
    evidence = fit()["framework_cell_evidence"]
    assert isinstance(evidence, dict)
    assert {"/".join(k): v for k, v in eff.FRAMEWORK_CELL_EVIDENCE.items()} == evidence
    assert set(eff.FRAMEWORK_CELL_EVIDENCE) == set(eff.FRAMEWORK_ANCHORS)
    # a fitted cell names its rows and families ...
    nemo = efficiency_band(gpu=gpus["h100-sxm"], precision="fp8", framework="nemo")
    families, n = eff.FRAMEWORK_CELL_EVIDENCE[("nemo", "hopper", "fp8")]
    assert f"{n} rows from {families} source families" in nemo.how
    # ... a cell moved from another generation or the generic band does not claim any
    moved = efficiency_band(gpu=gpus["a100-80gb-sxm"], precision="bf16", framework="nemo")
    generic = efficiency_band(gpu=gpus["h100-sxm"], precision="bf16", framework=None)
    assert moved.framework == "nemo" and "moved" in moved.how and "rows from" not in moved.how
    assert "rows from" not in generic.how


def test_nemo_bf16_on_hopper_is_a_fitted_cell_now(gpus: dict[str, GpuSpec]) -> None:
    # DGX Cloud Benchmarking's NeMo 24.09 BF16 rows (fresh-3, fitted since 2026-11-29): no move from FP8
    band = efficiency_band(gpu=gpus["h100-sxm"], precision="bf16", framework="nemo")
    assert "fitted cell hopper/bf16" in band.how
    assert band.mfu.high / band.mfu.low == pytest.approx(eff.FRAMEWORK_HALF_WIDTH**2, rel=1e-6)


def test_moe_factor_ceiling_binds_only_with_a_row_above_the_dense_middle() -> None:
    rows = [fr for fr in _fit_rows() if fr.identified]
    c = fit_constants(rows)
    # FlagPerf's Qwen1.5-MoE rows set the top: 0.952 of the Megatron Ampere middle since tim8 read the
    # Megatron-LM paper's rows as eager attention (1.02 before, held at the ceiling): it does not bind
    assert c.moe_factor is not None and c.moe_factor[1] == pytest.approx(eff.MOE_FACTOR.high, abs=0.001)
    assert eff.MOE_FACTOR.high < MOE_FACTOR_CEILING
    # a row above the dense middle is held at the ceiling
    fast = [
        dataclasses.replace(fr, mfu=fr.mfu * 1.2)
        if fr.row.family == "flagperf-nvidia" and fr.row.model.moe
        else fr
        for fr in rows
    ]
    capped = fit_constants(fast)
    assert capped.moe_factor is not None and capped.moe_factor[1] == MOE_FACTOR_CEILING


def test_a_fold_leaves_its_family_out_and_a_later_side_is_not_refitted(tmp_path: Path) -> None:
    dev = development_rows()
    fold = fold_calibration(dev, "dgxc-benchmarking")
    # without DGX Cloud, NeMo has no Hopper BF16 cell; the shipped model has one
    assert ("nemo", "hopper", "bf16") not in fold.framework_anchors
    assert ("nemo", "hopper", "bf16") in eff.CALIBRATION.framework_anchors
    assert fold.framework_half_width == eff.CALIBRATION.framework_half_width
    # a family outside the development sides: its fold is the shipped model
    assert fold_calibration(dev, "not-a-family") is eff.CALIBRATION
    data = yaml.safe_load(TRAINING_FILE.read_text(encoding="utf-8"))
    keep = {"qwen1-readme", "torchtune-readme", "torchtitan-h100"}
    data["rows"] = [r for r in data["rows"] if r["family"] in keep]
    data["split"] = {
        "fit": ["qwen1-readme"],
        "held_out": ["torchtune-readme"],
        "new_held_out": ["torchtitan-h100"],
    }
    path = tmp_path / "rows.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    sides = cv_scored_sides(path)
    assert set(sides) == {"fit", "held_out", "new_held_out"} and len(sides["new_held_out"]) == 7


def test_out_of_family_scores_stay_within_loose_bounds() -> None:
    # 2026-11-29: 204 rows, coverage 89.7%, median error 13.3% (88.7% / 14.2% before the cells were pulled);
    # then fresh-4 joined as development data after its blind scores (74 rows, 47.3% inside in-sample): 278
    # rows, coverage 78.4%, median error 15.5% out of family; 2026-11-28: the lent-GPU second set (device2, 15
    # rows, 60.0% inside at its blind score) joined as development data: 434 rows, 75.8%, 16.8% (held-out
    # sides, time_cv.SCORED_APART_SIDES, are not in this figure); tim18 (context beyond 8k at the causal
    # count): 77.9%, 16.7%
    sides = cv_scored_sides()
    s = summarise([s for side in sides.values() for s in side])
    assert s.rows >= 430 and s.coverage >= 0.75 and s.median_error <= 0.17
    assert not set(sides) & set(SCORED_APART_SIDES)


def test_summary_width_over_rows_with_a_band() -> None:
    rows = development_rows()
    titan = next(r for r in rows if r.framework == "torchtitan")
    other = next(r for r in rows if r.framework == "other")
    band, generic = Range(low=100, high=150), Range(low=100, high=200)
    scored = [Scored(titan, 120, band, generic), Scored(other, 120, generic, generic)]
    s = summarise(scored)
    assert s.banded_rows == 1 and s.width_banded == pytest.approx(1.5)
    assert s.width_with_framework == pytest.approx(1.75)  # the 'other' row counts at the generic width
    assert summarise([Scored(other, 120, generic, generic)]).width_banded is None


def test_summary_splits_rows_by_whether_they_state_their_framework() -> None:
    # issue 13's two width targets: 1.5x with the framework given (scored with its band), 2x without
    rows = development_rows()
    titan = next(r for r in rows if r.framework == "torchtitan")
    other = next(r for r in rows if r.framework == "other")
    band, generic = Range(low=100, high=150), Range(low=100, high=200)
    s = summarise([Scored(titan, 160, band, generic), Scored(other, 120, band, generic)])
    assert s.stated is not None and s.unstated is not None
    assert s.stated.rows == 1 and s.stated.width == pytest.approx(1.5) and s.stated.coverage == 0.0
    # the unstated row is scored at the generic range, not the (here narrower) 'with framework' one
    assert s.unstated.rows == 1 and s.unstated.width == pytest.approx(2.0) and s.unstated.coverage == 1.0
    assert summarise([Scored(other, 120, generic, generic)]).stated is None
