"""logits_held (tools.memory_activations.LOGITS_HELD_BYTES): a loop that keeps the model's output through the
backward and the step holds its logits there; the bytes follow what the model returns. Off by default
(HF Trainer, torchtune drop them)."""

from __future__ import annotations

import pytest

from tools.catalog.load import Catalog
from tools.memory import estimate_memory
from tools.memory_activations import LOGITS_HELD_BYTES


def _pair(catalog: Catalog, **kw: object) -> tuple[float, float, str]:
    base: dict[str, object] = dict(
        arch=catalog.model("llama-2-7b"), method="lora", seq_len=2048, batch_size=4, grad_checkpointing=True,
        training_precision="pure-bf16", lora_dropout=0.0, memory_basis="allocated",
        lora_fp32_adapters=False,  # 16-bit adapters: the logits alone decide the phase here
    )  # fmt: skip
    base.update(kw)
    off = estimate_memory(**base)  # type: ignore[arg-type]
    on = estimate_memory(logits_held=True, **base)  # type: ignore[arg-type]
    return off.peak_allocated_gib(), on.peak_allocated_gib(), on.peak_phase


@pytest.mark.parametrize(
    ("kw", "key"),
    [
        ({}, "shift-labels"),
        ({"loss_impl": "shift-logits"}, "shift-logits"),
        ({"loss_upcast": False}, "16-bit"),
    ],
)
def test_held_logits_add_what_the_model_returns_at_the_loss(
    catalog: Catalog, kw: dict[str, object], key: str
) -> None:
    off, on, phase = _pair(catalog, **kw)
    values = 2048 * 4 * 32000
    assert phase == "loss"
    assert (on - off) * 2**30 == pytest.approx(values * LOGITS_HELD_BYTES[key], rel=0.02)


def test_a_chunked_loss_already_counts_its_logits_and_inference_has_none(catalog: Catalog) -> None:
    off, on, _ = _pair(catalog, loss_chunking=True)
    assert on == pytest.approx(off)
    arch = catalog.model("llama-2-7b")
    a = estimate_memory(arch=arch, method="inference", seq_len=2048)
    b = estimate_memory(arch=arch, method="inference", seq_len=2048, logits_held=True)
    assert a.peak_gib_per_gpu == b.peak_gib_per_gpu
