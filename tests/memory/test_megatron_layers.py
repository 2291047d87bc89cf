"""Megatron-core layer memory (tools.memory_megatron): the preset's fused SwiGLU, FP8 linears, FP8 primary
weights and a bf16 gradient buffer. Each expectation is the module's byte count recomputed from the model's
shape, so a change to the formula, or to where it is applied, fails here."""

from __future__ import annotations

import json
from typing import Any

import pytest

from advisor.cli import main
from tools.catalog.load import Catalog
from tools.errors import InputError
from tools.memory import estimate_memory
from tools.memory_types import MemoryEstimate

_TOKENS = 4096


def _est(catalog: Catalog, model: str = "llama-3-8b", **kw: Any) -> MemoryEstimate:
    base: dict[str, Any] = dict(
        arch=catalog.model(model), method="full", seq_len=_TOKENS, batch_size=1, grad_checkpointing=False,
        memory_basis="allocated", framework="megatron", gpus=8, tp=4, pp=1,
    )  # fmt: skip
    base.update(kw)
    return estimate_memory(**base)


def _step(est: MemoryEstimate, name: str) -> float:
    return float(next(s.output for s in est.trace if s.step == name))  # type: ignore[arg-type]


def test_megatron_fused_swiglu_keeps_two_bytes_less_per_mlp_width(catalog: Catalog) -> None:
    arch = catalog.model("llama-3-8b")
    # SwiGLUFunction saves its input only: 2 B x f fewer per token than gate, up, SiLU(gate), product
    assert _step(_est(catalog), "fused_swiglu_saving") == pytest.approx(2.0 * arch.intermediate_size)
    hf = _est(catalog, framework="hf")
    assert "fused_swiglu_saving" not in {s.step for s in hf.trace}


def test_fp8_linears_keep_their_inputs_in_one_byte(catalog: Catalog) -> None:
    arch = catalog.model("llama-3-8b")
    h, f = arch.hidden_size, arch.intermediate_size
    off, on = _est(catalog), _est(catalog, fp8_linears=True)
    # q/k/v and fc1 inputs (h each) and fc2's (f) at 1 B not 2; o_proj's FP8 copy (h) is one more byte
    per_token = -(2 * h + f) + h
    assert _step(on, "fp8_linear_inputs_delta") == pytest.approx(per_token)
    stored = _step(on, "stored_activations") - _step(off, "stored_activations")
    assert stored == pytest.approx(arch.n_layers * _TOKENS * per_token / 4)


def test_fp8_params_store_the_linear_weights_in_one_byte(catalog: Catalog) -> None:
    arch = catalog.model("llama-3-8b")
    linear, total = arch.linear_params(), arch.param_count()
    bf16 = _est(catalog, fp8_linears=True).breakdown_gib.weights
    fp8 = _est(catalog, fp8_linears=True, fp8_params=True).breakdown_gib.weights
    assert bf16 - fp8 == pytest.approx(linear * 1.0 / 4 / 2**30, rel=1e-6)  # 1 B saved per linear weight
    assert fp8 == pytest.approx((linear * 1.0 + (total - linear) * 2.0) / 4 / 2**30, rel=1e-6)


def test_a_bf16_gradient_buffer_halves_the_grads_and_copies_them_to_fp32_for_the_step(
    catalog: Catalog,
) -> None:
    arch = catalog.model("llama-3-8b")
    fp32, bf16 = _est(catalog), _est(catalog, grad_reduce_in_fp32=False)
    assert fp32.breakdown_gib.gradients == pytest.approx(2 * bf16.breakdown_gib.gradients)
    assert bf16.breakdown_gib.gradients == pytest.approx(arch.param_count() * 2.0 / 4 / 2**30, rel=1e-6)
    # the buffer is persistent: the gradients are live at the forward peak too
    assert bf16.phase_peaks_gib["forward"] >= bf16.breakdown_gib.weights + bf16.breakdown_gib.gradients
    # the optimizer's fp32 copy: 4 B per parameter of the tp shard, over dp = 2 with the distributed optimizer
    copy = _step(_est(catalog, grad_reduce_in_fp32=False, sharding="zero1"), "megatron_fp32_grad_copy")
    assert copy == pytest.approx(arch.param_count() * 4.0 / 4 / 2)
    assert "megatron_fp32_grad_copy" not in {s.step for s in fp32.trace}


@pytest.mark.parametrize(
    ("kw", "words"),
    [
        ({"fp8_params": True}, "fp8-params needs fp8-linears"),
        ({"fp8_linears": True, "method": "lora"}, "full training"),
        ({"fp8_linears": True, "model": "mixtral-8x7b"}, "dense models"),
    ],
)
def test_fp8_options_refuse_set_ups_they_do_not_model(
    catalog: Catalog, kw: dict[str, Any], words: str
) -> None:
    with pytest.raises(InputError, match=words):
        _est(catalog, **kw)


def test_the_flags_reach_the_estimate_and_are_reported(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["size", "--model", "llama-3-8b", "--gpus", "8", "--tp", "4", "--framework", "megatron"]
    args += ["--sharding", "zero1", "--memory-basis", "allocated"]  # Megatron's distributed optimizer
    assert main([*args, "--format", "json"]) == 0
    base = json.loads(capsys.readouterr().out)
    flags = ["--fp8-linears", "--fp8-params", "--no-grad-reduce-in-fp32"]
    assert main([*args, *flags, "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["memory_options"]["fp8_params"] == {"value": True, "source": "flag"}
    assert out["memory_options"]["grad_reduce_in_fp32"] == {"value": False, "source": "flag"}
    assert base["memory_options"]["grad_reduce_in_fp32"] == {"value": True, "source": "framework preset"}
    assert out["peak_gib_per_gpu"] < base["peak_gib_per_gpu"]


def test_without_the_distributed_optimizer_a_bf16_buffer_raises_the_step(catalog: Catalog) -> None:
    # Float16OptimizerWithFloat16Params copies every bf16 gradient to fp32 beside the buffer: 2 + 4 B per
    # parameter at the step where an fp32 buffer is used in place (4 B)
    fp32, bf16 = _est(catalog, sharding="ddp"), _est(catalog, sharding="ddp", grad_reduce_in_fp32=False)
    assert bf16.phase_peaks_gib["optimizer"] > fp32.phase_peaks_gib["optimizer"]
