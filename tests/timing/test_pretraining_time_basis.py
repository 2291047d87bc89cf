"""Pre-training is timed with the band of the pre-training stacks, not the Transformers Trainer's, and the
time basis line names at most two ways to narrow the range (expert review, 2026-11-25)."""

from __future__ import annotations

from typing import Any

from tools.catalog.load import load_catalog
from tools.defaults import resolve_workload
from tools.present import TIME_BASIS_HINTS
from tools.profile import WorkloadProfile
from tools.recommend import recommend
from tools.recommend.models import RecommendSettings
from tools.vocabulary import FRAMEWORK_DEFAULT, PRETRAINING_STACK_TEXT


def _rec(**fields: Any) -> Any:
    p = WorkloadProfile().with_values("stated", **fields)
    return recommend(profile=p, catalog=load_catalog(), settings=RecommendSettings(sensitivity=False))


def _hints(basis: str) -> list[str]:
    return basis.split("To narrow it: ", 1)[1].rstrip(".").split("; ")


def test_pretraining_assumes_the_generic_band_of_the_pretraining_stacks() -> None:
    pre = WorkloadProfile(workload="pretraining", params_b=13, dataset_tokens=260e9)
    w = resolve_workload(profile=pre, catalog=load_catalog())
    assert w.profile.framework is None and w.profile.status_of("framework") == "assumed"
    lora = WorkloadProfile(model_id="llama-3-8b", method="lora")
    ft = resolve_workload(profile=lora, catalog=load_catalog())
    assert ft.profile.framework == FRAMEWORK_DEFAULT  # fine-tuning keeps hf


def test_pretraining_time_basis_names_the_stack_and_two_hints() -> None:
    rec = _rec(workload="pretraining", params_b=13, dataset_tokens=260e9)
    basis = rec.time_basis
    assert basis is not None and basis.startswith(f"Time assumes {PRETRAINING_STACK_TEXT} (assumed")
    assert "hf" not in basis
    hints = _hints(basis)
    assert len(hints) <= TIME_BASIS_HINTS and hints[-1].startswith("time one training step")
    assert basis in rec.summary


def test_a_stated_framework_on_pretraining_is_kept() -> None:
    rec = _rec(workload="pretraining", params_b=13, dataset_tokens=260e9, framework="megatron")
    assert rec.time_basis is not None and rec.time_basis.startswith("Time assumes Megatron-LM.")


def test_an_unmeasured_gpu_basis_names_it_in_at_most_two_hints() -> None:
    # before: four hints ('measure one training step with hf (no calibrated band for it)'; 'measure one
    # training step on Intel Gaudi 3 (...)'; 'give the micro-batch size per GPU'; 'measure one training
    # step (tokens/s) on one GPU: it replaces the band'), two of them wrong or repeated
    rec = _rec(
        workload="pretraining",
        params_b=13,
        dataset_tokens=260e9,
        horizon_months=36,
        ops_capacity="dedicated",
        gpus_excluded=["b200", "b300"],
    )
    assert rec.primary is not None and rec.primary.gpu == "gaudi3"
    hints = _hints(rec.time_basis)
    assert hints == ["give the micro-batch size per GPU", hints[-1]] and "Intel Gaudi 3" in hints[-1]
    assert "hf" not in hints[-1]  # the GPU has no measurement, not the framework
    assert len(rec.time_narrowing) >= len(hints)  # the JSON keeps them all
