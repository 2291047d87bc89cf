"""tim15: a framework's own LoRA/full factor (bench/time_fit_ratios._framework_adapter_over_full),
applied only to a framework with a dense full/pretraining fit row (bench/time_fit.fit_constants); the
estimate reads it through Calibration.adapter_factor. Since tim16 its pairs are the fit's own rows (a
cross-validation fold reads no pair of the family it predicts), and the pooled factor leaves out the
frameworks with their own."""

from __future__ import annotations

import dataclasses

import pytest

from bench.calibration_data import load_training_rows, load_training_split
from bench.time_fit import (
    UNFITTED_DEVELOPMENT_SIDES,
    _fit_rows,
    development_rows,
    fit,
    fit_constants,
)
from bench.time_fit_ratios import FitRow, _framework_adapter_over_full
from tools.catalog.schema import GpuSpec
from tools.compute import efficiency as eff
from tools.compute.training import estimate_training_time


def _pair(method: str, mfu: float, **update: object) -> FitRow:
    row = next(r for r in load_training_rows() if r.id.startswith("h200-llama-3.1-8b-full-pure"))
    row = row.model_copy(update={"method": method, **update})
    return FitRow(row, mfu, "hf", "hopper", "bf16", None)


def test_pairs_need_the_same_model_sequence_and_precision_regime() -> None:
    lora, full = _pair("lora", 0.30), _pair("full", 0.45)
    assert _framework_adapter_over_full([lora, full], "hf") == pytest.approx(0.30 / 0.45)
    assert _framework_adapter_over_full([lora, full], "nemo") is None  # another framework's rows
    other_seq = _pair("full", 0.20, seq_len=4096)
    assert _framework_adapter_over_full([lora, other_seq], "hf") is None
    mixed = _pair("full", 0.20, framework_detail="plain PyTorch loop, mixed")
    assert _framework_adapter_over_full([lora, mixed], "hf") is None


def _pair_family_rows() -> list[FitRow]:
    # the families tim15 read for the hf pairs: device, device2 (one script, one H200) and fms-acceleration
    families = {
        "gpu-advisor-device-measurements",
        "gpu-advisor-device-measurements-second",
        "fms-acceleration-bench-refs",
    }
    rows = [r for r in load_training_rows() if r.family in families]
    return [fr for fr in _fit_rows(rows) if fr.identified]


def test_the_hf_pair_factor_and_its_rows() -> None:
    # the shipped fit has no hf full row, so no hf pair (bench.time_fit, 2026-11-28)
    assert fit()["framework_adapter_pairs"] == {}
    # tim15's pair families, fitted: six matched set-ups, recompute and (tim16) the full rows' optimizer
    # update out: 0.736 (0.722 before the optimizer update came out, its recompute factor the shipped
    # one; 0.758 before tim18 counted the context beyond 8k of the device 16k/32k rows at the causal
    # FLOPs, which moves the recompute factor these rows give, 1.048 -> 0.988)
    c = fit_constants(_pair_family_rows())
    assert c.framework_adapter_pairs == {"hf": pytest.approx(0.736, abs=0.001)}
    # those families are development sides not fitted; device3 is held out, never among them
    sides = load_training_split().sides()
    assert "device3_held_out" not in UNFITTED_DEVELOPMENT_SIDES
    assert {"device_held_out", "device2_held_out", "fresh5_held_out"} <= set(UNFITTED_DEVELOPMENT_SIDES)
    assert "gpu-advisor-device-measurements" in sides["device_held_out"]


def test_the_pooled_factor_leaves_the_hf_pairs_out() -> None:
    # with hf's own pairs among the rows, the pooled factor (NeMo-like stacks) is not pulled to them
    rows = [fr for fr in _fit_rows(development_rows()) if fr.identified]
    pooled = fit_constants(rows).adapter_over_full
    assert fit_constants([*rows, *_pair_family_rows()]).adapter_over_full == pytest.approx(pooled)


def test_not_applied_where_the_framework_has_no_full_fit_row() -> None:
    # every hf fit row is LoRA/QLoRA: the shipped model keeps the pooled factor for hf (README, tim15)
    rows = _fit_rows(development_rows())
    assert not any(fr.framework == "hf" and fr.row.method not in ("lora", "qlora") for fr in rows)
    c = fit_constants(rows)
    assert c.framework_adapter_over_full == {} == eff.ADAPTER_OVER_FULL_BY_FRAMEWORK
    # with one hf full row among the fit rows, the factor comes out of the hf LoRA rows and the cell moves
    hf_lora = next(fr for fr in rows if fr.framework == "hf" and fr.row.method == "lora")
    full_mfu = 2.0 * hf_lora.mfu  # a full row at twice the LoRA MFU: a factor near 0.5, below the pooled one
    full_row = hf_lora.row.model_copy(update={"method": "full"})
    hf_full = dataclasses.replace(hf_lora, row=full_row, mfu=full_mfu)
    anchored = fit_constants([*rows, hf_full])
    # its only pair: that LoRA set-up's rows over the one full row (both through the same recompute factor)
    lora_mfus = sorted(
        fr.mfu
        for fr in rows
        if fr.framework == "hf" and fr.row.method == "lora" and fr.row.model.name == hf_lora.row.model.name
        and fr.row.gpu == hf_lora.row.gpu and fr.row.gpus == hf_lora.row.gpus
        and fr.row.seq_len == hf_lora.row.seq_len
    )  # fmt: skip
    assert set(anchored.framework_adapter_over_full) == {"hf"}
    assert lora_mfus[0] / full_mfu <= anchored.framework_adapter_over_full["hf"] <= lora_mfus[-1] / full_mfu
    key = ("hf", "ampere", "bf16")
    assert anchored.framework_anchor[key] > c.framework_anchor[key]


def test_the_estimate_reads_the_framework_factor(gpus: dict[str, GpuSpec]) -> None:
    cal = dataclasses.replace(eff.CALIBRATION, framework_adapter_over_full={"hf": 0.7})
    assert cal.adapter_factor("hf") == (0.7, eff.ADAPTER_OVER_FULL_BY_FRAMEWORK_SOURCE)
    assert cal.adapter_factor("nemo") == (eff.ADAPTER_OVER_FULL, eff.ADAPTER_OVER_FULL_SOURCE)
    assert cal.adapter_factor(None)[0] == eff.ADAPTER_OVER_FULL

    def eff_mid(calibration: eff.Calibration, framework: str) -> float:
        r = estimate_training_time(
            active_params=8e9,
            tokens=1e9,
            method="lora",
            grad_checkpointing=False,
            gpu=gpus["h100-sxm"],
            n_gpus=1,
            framework=framework,  # type: ignore[arg-type]
            calibration=calibration,
        )
        return r.throughput_efficiency.mid

    # hf LoRA's efficiency moves from the pooled 1.057 to the framework's 0.7; other frameworks' do not
    assert eff_mid(cal, "hf") == pytest.approx(eff_mid(eff.CALIBRATION, "hf") * 0.7 / eff.ADAPTER_OVER_FULL)
    assert eff_mid(cal, "nemo") == pytest.approx(eff_mid(eff.CALIBRATION, "nemo"))
