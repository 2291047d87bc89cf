"""returns_kv_cache (tools.memory_use_cache): a training forward with use_cache=True returns every layer's
K/V; they are live at the end of the forward, and through the backward only when the loop holds the output."""

from __future__ import annotations

import pytest

from tools.catalog.load import Catalog
from tools.memory import estimate_memory
from tools.memory_use_cache import returned_kv_bytes


def _run(catalog: Catalog, **kw: object) -> tuple[float, dict[str, float]]:
    base: dict[str, object] = dict(
        arch=catalog.model("llama-2-7b"), method="lora", seq_len=2048, batch_size=4, grad_checkpointing=True,
        training_precision="pure-bf16", lora_dropout=0.0, memory_basis="allocated", gpus=4, sharding="fsdp",
    )  # fmt: skip
    base.update(kw)
    est = estimate_memory(**base)  # type: ignore[arg-type]
    return est.peak_allocated_gib(), est.phase_peaks_gib


def test_llama_7b_kv_is_the_4_gb_pr165_names(catalog: Catalog) -> None:
    # llama-recipes PR #165: use_cache=False 'saves ~4 GB in activation memory' for 7B at 4 x 2048 tokens
    kv_gb = returned_kv_bytes(catalog.model("llama-2-7b"), 4 * 2048) / 1e9
    assert 4.0 <= kv_gb <= 4.6  # ~4 GB as printed (1e9 or 2**30 bytes): 4.29e9 B


def test_kv_adds_at_the_forward_and_only_when_held_later(catalog: Catalog) -> None:
    kv_gib = returned_kv_bytes(catalog.model("llama-2-7b"), 4 * 2048) / 2**30
    _, off = _run(catalog)
    _, on = _run(catalog, returns_kv_cache=True)
    assert on["forward"] - off["forward"] == pytest.approx(kv_gib, rel=0.01)
    assert on["backward"] == pytest.approx(off["backward"], rel=1e-9)
    _, held_off = _run(catalog, logits_held=True)
    _, held_on = _run(catalog, logits_held=True, returns_kv_cache=True)
    assert held_on["backward"] - held_off["backward"] == pytest.approx(kv_gib, rel=0.01)


def test_inference_ignores_it(catalog: Catalog) -> None:
    a = estimate_memory(arch=catalog.model("llama-2-7b"), method="inference", returns_kv_cache=True)
    b = estimate_memory(arch=catalog.model("llama-2-7b"), method="inference")
    assert a.peak_gib_per_gpu == b.peak_gib_per_gpu
