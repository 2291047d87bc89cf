"""ModelArch -> Hugging Face config mapping (pure Python, no torch needed)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from advisor.simulate.hf_config import hf_config_kwargs, model_type_for
from tools.catalog.schema import ModelArch
from tools.errors import InputError


@pytest.mark.parametrize(
    ("architecture", "family", "model_type"),
    [
        ("LlamaForCausalLM", "llama", "llama"),
        ("Qwen2ForCausalLM", "qwen2.5", "qwen2"),
        ("Gemma3ForConditionalGeneration", "gemma3", "gemma3_text"),
        ("", "mistral", "mistral"),
        ("", "qwen2.5", "qwen2"),
    ],
)
def test_model_type_from_architecture_or_family(
    arch_factory: Callable[..., ModelArch], architecture: str, family: str, model_type: str
) -> None:
    assert model_type_for(arch_factory(hf_architecture=architecture, family=family)) == model_type


def test_unsupported_architecture_is_a_user_error(arch_factory: Callable[..., ModelArch]) -> None:
    with pytest.raises(InputError, match="use the analytic estimate"):
        model_type_for(arch_factory(hf_architecture="FalconForCausalLM", family="falcon"))


def test_shape_fields_are_copied_and_positions_cover_the_sequence(
    arch_factory: Callable[..., ModelArch],
) -> None:
    arch = arch_factory(tied_embeddings=True)
    model_type, kw = hf_config_kwargs(arch, max_positions=8192)
    assert model_type == "llama"
    assert (kw["hidden_size"], kw["num_key_value_heads"], kw["head_dim"], kw["vocab_size"]) == (
        256,
        2,
        64,
        1000,
    )
    assert kw["tie_word_embeddings"] is True
    assert kw["max_position_embeddings"] == 8192  # longer than the arch's 4096 context
    assert kw["use_cache"] is False


def test_mixtral_experts_use_the_moe_width(tiny_moe: ModelArch) -> None:
    arch = tiny_moe.model_copy(update={"n_experts": 8})
    _, kw = hf_config_kwargs(arch)
    assert (kw["num_local_experts"], kw["num_experts_per_tok"], kw["intermediate_size"]) == (8, 2, 384)
