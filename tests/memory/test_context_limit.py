"""A context or sequence length beyond the model's trained maximum is flagged as an assumption.

Before: `size --model llama-3-8b --method inference --context-len 10000000` printed 1.2 TiB of KV cache
for a model trained to 8,192 tokens without a word.
"""

from __future__ import annotations

from tools.catalog.load import load_catalog
from tools.memory import estimate_memory


def _names(est: object) -> set[str]:
    return {a.name for a in est.assumptions}  # type: ignore[attr-defined]


def test_inference_context_beyond_max_is_flagged() -> None:
    arch = load_catalog().model("llama-3-8b")
    assert arch.max_context == 8192  # Llama 3 8B config.json max_position_embeddings
    est = estimate_memory(arch=arch, method="inference", context_len=100_000)
    assert "tokens_beyond_model_max_context" in _names(est)
    ok = estimate_memory(arch=arch, method="inference", context_len=8192)
    assert "tokens_beyond_model_max_context" not in _names(ok)


def test_training_sequence_beyond_max_is_flagged() -> None:
    arch = load_catalog().model("llama-3-8b")
    est = estimate_memory(arch=arch, method="lora", seq_len=16_384)
    assert "tokens_beyond_model_max_context" in _names(est)
