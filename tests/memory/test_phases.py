"""Issue 15: the peak is the largest training phase, with the optimizer's temporaries and the basis.

Phase rankings here were checked against the fake-tensor simulator (bench/accuracy_sim.py grid):
full training with foreach AdamW peaks inside the optimizer step, LoRA at the loss backward.
"""

from __future__ import annotations

from typing import Any

import pytest

from tools.catalog.load import Catalog
from tools.catalog.schema import ModelArch
from tools.memory import CUDA_CONTEXT_GIB, estimate_memory
from tools.memory_reserve import RESIDUAL_FRACTION
from tools.memory_types import PEAK_PHASES

GIB = 2**30


@pytest.fixture(scope="module")
def llama8b(catalog: Catalog) -> ModelArch:
    return catalog.model("llama-3.1-8b")


def _step(est: object, name: str) -> float:
    return float(next(s.output for s in est.trace if s.step == name))  # type: ignore[attr-defined]


def test_full_foreach_peaks_in_the_optimizer_step(llama8b: ModelArch) -> None:
    est = estimate_memory(arch=llama8b, method="full", optimizer_impl="foreach")
    assert est.peak_phase == "optimizer"
    assert set(est.phase_peaks_gib) == {"forward", "loss", "backward", "optimizer"}
    assert est.phase_peaks_gib["optimizer"] == max(est.phase_peaks_gib.values())
    # what is live at the step: no activations (they died with the backward), all the gradients
    assert est.breakdown_gib.activations == 0
    assert est.breakdown_gib.gradients == pytest.approx(est.params * 4 / GIB)  # AMP: fp32 gradients


def test_full_fused_peaks_in_the_backward(llama8b: ModelArch) -> None:
    est = estimate_memory(arch=llama8b, method="full", optimizer_impl="fused", seq_len=2048)
    assert est.peak_phase == "backward"
    assert est.breakdown_gib.activations > 0 and est.breakdown_gib.gradients > 0


@pytest.mark.parametrize("ckpt", [True, False])
def test_lora_peaks_at_the_loss(llama8b: ModelArch, ckpt: bool) -> None:
    est = estimate_memory(arch=llama8b, method="lora", seq_len=2048, grad_checkpointing=ckpt)
    assert est.peak_phase == "loss"
    assert est.breakdown_gib.gradients == 0  # the frozen base has none; adapters' are in `adapters`


def test_full_without_checkpointing(llama8b: ModelArch) -> None:
    # fused: the stored activations of every layer + the logits gradient beat the gradients
    fused = estimate_memory(arch=llama8b, method="full", optimizer_impl="fused", grad_checkpointing=False,
                            seq_len=4096)  # fmt: skip
    assert fused.peak_phase == "loss"
    assert fused.breakdown_gib.gradients == 0
    # foreach: the step's extra parameter-sized set wins again
    foreach = estimate_memory(arch=llama8b, method="full", optimizer_impl="foreach", grad_checkpointing=False,
                              seq_len=4096)  # fmt: skip
    assert foreach.peak_phase == "optimizer"
    # without checkpointing the activations held are far above the checkpointed run's
    ckpt = estimate_memory(arch=llama8b, method="full", optimizer_impl="fused", seq_len=4096)
    assert fused.phase_peaks_gib["loss"] > ckpt.phase_peaks_gib["loss"] + 10


def test_foreach_minus_fused_is_one_parameter_set(llama8b: ModelArch) -> None:
    kw: dict[str, Any] = {"arch": llama8b, "method": "full", "memory_basis": "allocated"}
    foreach = estimate_memory(optimizer_impl="foreach", **kw)
    fused = estimate_memory(optimizer_impl="fused", **kw)
    # torch/optim/adam.py _multi_tensor_adam: _foreach_sqrt(exp_avg_sq) = one fp32 set per parameter
    one_set_gib = foreach.params * 4 / GIB
    diff = foreach.phase_peaks_gib["optimizer"] - fused.phase_peaks_gib["optimizer"]
    assert diff == pytest.approx(one_set_gib, rel=1e-9)
    for phase in ("forward", "loss", "backward"):
        assert foreach.phase_peaks_gib[phase] == pytest.approx(fused.phase_peaks_gib[phase])
    # pure bf16: the set is in the states' dtype (2 B)
    bf16: dict[str, Any] = {
        "arch": llama8b,
        "method": "full",
        "training_precision": "pure-bf16",
        "memory_basis": "allocated",
    }
    d16 = (
        estimate_memory(optimizer_impl="foreach", **bf16).phase_peaks_gib["optimizer"]
        - estimate_memory(optimizer_impl="fused", **bf16).phase_peaks_gib["optimizer"]
    )
    assert d16 == pytest.approx(foreach.params * 2 / GIB, rel=1e-9)


def test_for_loop_holds_two_of_the_largest_tensor(llama8b: ModelArch) -> None:
    kw: dict[str, Any] = {"arch": llama8b, "method": "full", "memory_basis": "allocated"}
    loop = _step(estimate_memory(optimizer_impl="for-loop", **kw), "optimizer_step_temporaries")
    largest = llama8b.vocab_size * llama8b.hidden_size * 4  # the embedding / lm_head matrix in fp32
    # _single_tensor_adam: exp_avg_sq.sqrt() and its quotient live at once (simulator: 2 x largest)
    assert loop == pytest.approx(2 * largest)


def test_reserved_basis_adds_context_and_allocator_reserve(llama8b: ModelArch) -> None:
    kw: dict[str, Any] = {
        "arch": llama8b,
        "method": "lora",
        "seq_len": 4096,
        "training_precision": "pure-bf16",
    }
    reserved = estimate_memory(memory_basis="reserved", **kw)
    allocated = estimate_memory(memory_basis="allocated", **kw)
    assert (reserved.memory_basis, allocated.memory_basis) == ("reserved", "allocated")
    assert reserved.peak_phase == allocated.peak_phase == "loss"
    assert allocated.breakdown_gib.overhead == 0
    bd = reserved.breakdown_gib
    dynamic_gib = bd.activations + bd.gradients + bd.adapters  # fused AdamW: no step temporaries
    # checkpointed (the LoRA default), pure bf16: one fp32 logits block + the residue (tools.memory_reserve)
    tokens = 4096
    logits_block_gib = (12 * tokens * llama8b.vocab_size + 8 * tokens * llama8b.hidden_size) / 3 / GIB
    assert reserved.fragmentation_gib == pytest.approx(logits_block_gib + RESIDUAL_FRACTION * dynamic_gib)
    assert reserved.peak_gib_per_gpu == pytest.approx(
        allocated.peak_gib_per_gpu + CUDA_CONTEXT_GIB + reserved.fragmentation_gib
    )
    assert reserved.peak_gib_per_gpu > allocated.peak_gib_per_gpu + CUDA_CONTEXT_GIB
    # both figures are given whichever basis is chosen
    assert allocated.peak_reserved_gib() == pytest.approx(reserved.peak_gib_per_gpu)
    assert reserved.peak_allocated_gib() == pytest.approx(allocated.peak_gib_per_gpu)


def test_inference_has_one_phase(catalog: Catalog) -> None:
    est = estimate_memory(arch=catalog.model("llama-3.1-8b"), method="inference", context_len=4096)
    assert est.peak_phase == "serving" and est.peak_phase in PEAK_PHASES
    assert list(est.phase_peaks_gib) == ["serving"]


def test_lora_dropout_counted_only_when_on(llama8b: ModelArch) -> None:
    kw: dict[str, Any] = {
        "arch": llama8b,
        "method": "lora",
        "grad_checkpointing": False,
        "memory_basis": "allocated",
    }
    off = estimate_memory(lora_dropout=0.0, **kw)
    on = estimate_memory(lora_dropout=0.05, **kw)
    assert on.peak_gib_per_gpu > off.peak_gib_per_gpu * 1.05  # copy + mask per adapted input
    assert off.lora_dropout == 0.0 and on.lora_dropout == 0.05
