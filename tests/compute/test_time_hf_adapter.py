"""tim15: a framework's own LoRA/full factor (bench/time_fit_ratios._framework_adapter_over_full), fitted on
the adapter-pair families only (bench/time_fit.ADAPTER_PAIR_FAMILIES) and applied only to a framework with a
dense full/pretraining fit row (bench/time_fit.fit_constants); the estimate reads it through
Calibration.adapter_factor."""

from __future__ import annotations

import dataclasses

import pytest

from bench.calibration_data import TRAINING_DEVICE3_FILE
from bench.time_fit import (
    ADAPTER_PAIR_FAMILIES,
    _fit_rows,
    adapter_pair_rows,
    development_rows,
    fit,
    fit_constants,
)
from bench.time_fit_ratios import FitRow, _framework_adapter_over_full
from tools.catalog.schema import GpuSpec
from tools.compute import efficiency as eff
from tools.compute.training import estimate_training_time


def _pair(method: str, mfu: float, **update: object) -> FitRow:
    row = next(fr.row for fr in adapter_pair_rows() if fr.row.id.startswith("h200-llama-3.1-8b-full-pure"))
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


def test_the_hf_pair_factor_and_its_rows() -> None:
    # six matched set-ups, recompute out (efficiency.ADAPTER_OVER_FULL_BY_FRAMEWORK's comment): H200 device
    # 0.668 and 0.591, fms-acceleration A100 0.63-0.92; their median 0.722 (bench.time_fit, 2026-11-28)
    f = fit()
    assert f["framework_adapter_pairs"] == {"hf": pytest.approx(0.722, abs=0.001)}
    # held-out device3 is never read for it
    assert TRAINING_DEVICE3_FILE not in ADAPTER_PAIR_FAMILIES
    assert {fr.row.family for fr in adapter_pair_rows()} == set(ADAPTER_PAIR_FAMILIES.values())


def test_not_applied_where_the_framework_has_no_full_fit_row() -> None:
    # every hf fit row is LoRA/QLoRA: the shipped model keeps the pooled factor for hf (README, tim15)
    rows = _fit_rows(development_rows())
    assert not any(fr.framework == "hf" and fr.row.method not in ("lora", "qlora") for fr in rows)
    c = fit_constants(rows)
    assert c.framework_adapter_over_full == {} == eff.ADAPTER_OVER_FULL_BY_FRAMEWORK
    # with one hf full row among the fit rows, the factor comes out of the hf LoRA rows and the cell moves
    hf_lora = next(fr for fr in rows if fr.framework == "hf" and fr.row.method == "lora")
    hf_full = dataclasses.replace(hf_lora, row=hf_lora.row.model_copy(update={"method": "full"}), mfu=0.4)
    anchored = fit_constants([*rows, hf_full])
    assert anchored.framework_adapter_over_full == {"hf": pytest.approx(0.722, abs=0.001)}
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
