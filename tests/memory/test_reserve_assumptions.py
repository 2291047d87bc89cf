"""The allocator reserve's assumptions name the formula each run applies (issue 15: every number traceable to
its formula): a training step's reserve (tools.memory_reserve.training_reserve) lists its logits-segment and
step-temporaries shares and its residual fraction, and those assumptions reproduce the traced reserve; only
serving lists the calibrated 0.15 fraction of activations (before mem17 every run listed 0.15)."""

from __future__ import annotations

from typing import Any

import pytest

from tools.catalog.load import Catalog
from tools.memory import estimate_memory
from tools.memory_phases import VARIABLE_LENGTH_STALE_LOGITS
from tools.memory_reserve import ALLOCATOR_FRAGMENTATION_FRACTION, RESIDUAL_FRACTION


def _assumed(est: Any) -> dict[str, Any]:
    return {a.name: a for a in est.assumptions}


def _reserve_step(est: Any) -> Any:
    return {s.step: s for s in est.trace}["allocator_reserve"]


@pytest.mark.parametrize(
    "kw",
    [
        dict(method="lora", grad_checkpointing=True, training_precision="mixed"),
        dict(method="lora", grad_checkpointing=True, training_precision="pure-bf16"),
        dict(method="full", grad_checkpointing=False, optimizer_impl="foreach", training_precision="mixed"),
        dict(method="lora", grad_checkpointing=True, variable_length=True),
    ],
)
def test_training_assumptions_reproduce_the_reserve(catalog: Catalog, kw: dict[str, Any]) -> None:
    est = estimate_memory(
        arch=catalog.model("llama-3.1-8b"),
        seq_len=4096,
        batch_size=1,
        memory_basis="reserved",
        traced=True,
        **kw,
    )
    assumed = _assumed(est)
    assert "allocator_reserve_fraction" not in assumed  # the serving fraction is not what training applies
    step = _reserve_step(est)
    logits_share = assumed["allocator_logits_segment_share"].value
    step_share = assumed["allocator_step_temporaries_share"].value
    residue = assumed["allocator_residual_fraction"].value
    assert residue == RESIDUAL_FRACTION and "lent H200" in assumed["allocator_residual_fraction"].source
    stale = 0.0
    if kw.get("variable_length"):
        assert assumed["variable_length_stale_logits"].value == VARIABLE_LENGTH_STALE_LOGITS
        stale = VARIABLE_LENGTH_STALE_LOGITS * 3 * step.inputs["logits_block_bytes"]
    # the reserve recomputed from the listed assumptions and the traced byte inputs equals the trace's output
    recomputed = (
        max(
            logits_share * step.inputs["logits_block_bytes"],
            step_share * step.inputs["step_temporaries_bytes"],
        )
        + stale
        + residue * step.inputs["dynamic_bytes"]
    )
    assert recomputed == pytest.approx(step.output, rel=1e-9)
    assert est.fragmentation_gib * 2**30 == pytest.approx(step.output, rel=1e-9)


def test_quantised_training_names_the_calibrated_residue(catalog: Catalog) -> None:
    est = estimate_memory(
        arch=catalog.model("llama-3.1-8b"), method="qlora", memory_basis="reserved", traced=True
    )
    residue = _assumed(est)["allocator_residual_fraction"]
    assert residue.value == ALLOCATOR_FRAGMENTATION_FRACTION and "quantised" in residue.source
    assert "allocator_reserve_fraction" not in _assumed(est)


def test_serving_names_the_fraction_of_activations(catalog: Catalog) -> None:
    est = estimate_memory(
        arch=catalog.model("llama-3.1-8b"), method="inference", context_len=4096, memory_basis="reserved",
        traced=True,
    )  # fmt: skip
    assumed = _assumed(est)
    assert assumed["allocator_reserve_fraction"].value == ALLOCATOR_FRAGMENTATION_FRACTION
    assert "allocator_residual_fraction" not in assumed
    step = _reserve_step(est)
    assert step.output == pytest.approx(ALLOCATOR_FRAGMENTATION_FRACTION * step.inputs["dynamic_bytes"])
