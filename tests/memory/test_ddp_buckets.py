"""torch DDP's all-reduce buckets (tools.memory_phases.ddp_bucket_bytes): with gradient_as_bucket_view False
(torch's default, kept by accelerate and Lightning) the reducer holds a second copy of every trained gradient
from the wrap on (torch/nn/parallel/distributed.py docstring). Stacks with their own buffers add none."""

from __future__ import annotations

import pytest

from tools.catalog.load import Catalog
from tools.memory import estimate_memory

GIB = 2.0**30


def _est(catalog: Catalog, **kw: object):  # type: ignore[no-untyped-def]
    base: dict[str, object] = dict(
        arch=catalog.model("llama-3-8b"), method="full", seq_len=1024, batch_size=1, gpus=4,
        memory_basis="allocated", training_precision="pure-bf16",
    )  # fmt: skip
    base.update(kw)
    return estimate_memory(**base)  # type: ignore[arg-type]


def test_hf_ddp_holds_one_more_gradient_copy_in_every_phase(catalog: Catalog) -> None:
    one_gpu = _est(catalog, gpus=1)
    ddp = _est(catalog)
    grads = ddp.params * 2.0 / GIB  # pure bf16: 2 B per gradient
    for phase in ("forward", "loss", "optimizer"):
        assert ddp.phase_peaks_gib[phase] - one_gpu.phase_peaks_gib[phase] == pytest.approx(grads, rel=0.01)


def test_stacks_with_their_own_gradient_buffers_add_no_buckets(catalog: Catalog) -> None:
    for framework in ("deepspeed", "torchtune"):
        assert _est(catalog, framework=framework).peak_gib_per_gpu == pytest.approx(
            _est(catalog, framework=framework, gpus=1).peak_gib_per_gpu
        )


def test_zero3_gradient_partitions_are_live_from_the_forward(catalog: Catalog) -> None:
    # DeepSpeed stage3.py allocates grad_partitions_flat_buffer with the optimizer: the sharded gradients
    # (2 B / param / dp in a 16-bit model) are there in the forward already, on the CPU when offloaded.
    z3 = _est(catalog, sharding="zero3", framework="deepspeed")
    z2 = _est(catalog, sharding="zero2", framework="deepspeed")
    shard = z3.params * 2.0 / 4 / GIB
    weights_gap = z2.breakdown_gib.weights - z3.breakdown_gib.weights  # ZeRO-3 also shards the weights
    fwd_gap = z2.phase_peaks_gib["forward"] - z3.phase_peaks_gib["forward"]
    assert weights_gap - fwd_gap == pytest.approx(shard, rel=0.02)
