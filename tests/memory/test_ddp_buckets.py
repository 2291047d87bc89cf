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
