"""Reading rules written from the failure lines of evals v8 (issue 12; v8 was scored blind, then read),
each tested on its own phrasing with near misses that must not trigger."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from advisor.extract.rules_models import find_models
from tools.profile import WorkloadProfile

Extract = Callable[..., WorkloadProfile]


@pytest.mark.parametrize(
    ("text", "model_id"),
    [
        ("we'd go with Gemma 2, the 9 billion one", "gemma-2-9b"),
        ("the team picked Qwen 2.5, the 7B size, for this", "qwen2.5-7b"),
        ("the big Llama, version 3.1, the 70-billion one", "llama-3.1-70b"),
        ("they like Mistral's 7B for drafting", "mistral-7b-v0.3"),
        ("Phi 3.5 MoE behind the search box", "phi-3.5-moe"),
    ],
)
def test_a_model_name_spread_over_a_phrase(text: str, model_id: str) -> None:
    assert [m.model_id for m in find_models(text)] == [model_id]


@pytest.mark.parametrize(
    "text",
    [
        "Mistral's 7B tokens of pretraining data",
        "Llama 3.1, the 8 GPUs we own",
        "Qwen 2.5, the 14 million rows",
    ],
)
def test_a_size_after_a_family_that_is_not_the_model_size(text: str) -> None:
    assert all(m.model_id is None for m in find_models(text))
