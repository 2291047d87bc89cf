"""ZeRO-1/2 optimizers with an fp32 master cast their gradient partition to fp32 for the step
(tools.memory_zero).

Sources: DeepSpeed runtime/zero/stage_1_and_2.py step() (`flatten(averaged_gradients).to(fp32)`), ColossalAI
zero/low_level/low_level_optim.py step() (`grads.to(master dtype)`). Exact products: tolerance 1e-9 relative.
"""

from __future__ import annotations

from typing import Any

import pytest

from tools.catalog.load import load_catalog
from tools.memory import MemoryEstimate, estimate_memory

GIB = 2**30
P7B = 6_738_415_616  # Llama 2 7B, the catalog's count (tools/catalog/models.yaml, from config.json)


def _est(**kw: Any) -> MemoryEstimate:
    base: dict[str, Any] = dict(method="full", framework="deepspeed", seq_len=512, gpus=2, sharding="zero2")
    return estimate_memory(arch=load_catalog().model("llama-2-7b"), **{**base, **kw})


def _copy_bytes(est: MemoryEstimate) -> float:
    return sum(float(s.output or 0.0) for s in est.trace if s.step == "zero_fp32_grad_partition")


@pytest.mark.parametrize(("sharding", "shard"), [("zero1", 2), ("zero2", 2)])
def test_zero12_step_holds_the_fp32_gradient_partition(sharding: str, shard: int) -> None:
    # 4 B x params / dp on top of the 16-bit gradients, live at the optimizer step
    est = _est(sharding=sharding)
    assert load_catalog().model("llama-2-7b").param_count() == P7B
    assert _copy_bytes(est) == pytest.approx(P7B * 4 / shard, rel=1e-9)
    assert est.phase_peaks_gib["optimizer"] > est.phase_peaks_gib["backward"]


@pytest.mark.parametrize(
    "kw",
    [
        {"offload": "optimizer"},  # cast on the host for the CPU step
        {"sharding": "zero3"},  # one sub-group at a time (not counted)
        {"sharding": "ddp", "framework": "hf"},  # AMP: the fp32 model's gradients are fp32 already
        {"training_precision": "pure-bf16"},  # no fp32 master
        {"framework": "megatron", "sharding": "zero1"},  # persistent fp32 grad buffer
        {"method": "lora"},  # adapters only: their states are fp32 already
    ],
)
def test_no_fp32_gradient_copy_where_the_stack_has_none(kw: dict[str, Any]) -> None:
    assert _copy_bytes(_est(**kw)) == 0.0


def test_the_copy_raises_the_step_by_exactly_its_size() -> None:
    on, off = _est(), _est(offload="optimizer")
    # the optimizer phase without offload = weights + 16-bit grads + (12 + 4) B / dp per parameter
    assert on.phase_peaks_gib["optimizer"] * GIB == pytest.approx(
        P7B * 2 + P7B * 2 / 2 + P7B * (12 + 4) / 2, rel=1e-9
    )
    assert off.phase_peaks_gib["optimizer"] < on.phase_peaks_gib["optimizer"]
