"""Expert review 15: the team's provider said as its situation (R09 "We are on CoreWeave"), the minimum
set-up asked (R09 "What's the minimum setup?"), a size said of the run (R17 "a 7B pretrain"), each on the
review's phrasing, two variants written the way teams write, and a near miss."""

from __future__ import annotations

import pytest

from advisor.extract.rules import RulesExtractor

R09 = (
    "We want to run full-parameter DPO on Llama 3.1 70B with 60k preference pairs, about 1.5k tokens per "
    "pair. What's the minimum setup? We are on CoreWeave."
)
R17 = (
    "We're scoping a 7B pretrain on 1T tokens. H100 vs H200 vs B200: which is cheapest per run, and how many "
    "GPUs do we need to finish in 30 days?"
)


@pytest.mark.parametrize(
    ("text", "provider"),
    [
        (R09, "coreweave"),
        ("Our provider is CoreWeave. LoRA Llama 3.1 8B on 50M tokens.", "coreweave"),
        ("fyi we run everything on Nebius - LoRA Llama 3.1 8B on 50M tokens", "nebius"),
        ("we're hosted with Lambda, so LoRA Llama 3.1 8B on 50M tokens there", "lambda"),
    ],
)
def test_the_teams_provider_is_required(text: str, provider: str) -> None:
    p = RulesExtractor().extract(text)
    assert provider in p.providers_required
    assert "the team's provider" in (p.provenance["providers_required"].evidence or "")


@pytest.mark.parametrize(
    "text",
    [
        "We are on CoreWeave's waitlist. LoRA Llama 3.1 8B on 50M tokens.",  # not the team's provider yet
        "We were on Lambda last year. LoRA Llama 3.1 8B on 50M tokens.",  # a past one
        "We are not on AWS. LoRA Llama 3.1 8B on 50M tokens.",
        "Our provider is CoreWeave but we're open to others. LoRA Llama 3.1 8B on 50M tokens.",
    ],
)
def test_near_misses_require_no_provider(text: str) -> None:
    assert RulesExtractor().extract(text).providers_required == []


@pytest.mark.parametrize(
    "text",
    [
        R09,
        "LoRA Llama 3.1 70B on 100M tokens. What is the smallest GPU setup?",
        "LoRA Llama 3.1 70B on 100M tokens - how many GPUs do we need at minimum?",
    ],
)
def test_the_minimum_setup_is_asked(text: str) -> None:
    assert RulesExtractor().extract(text).memory_asked is True


def test_a_minimum_of_something_else_is_not() -> None:
    text = "LoRA Llama 3.1 70B on 100M tokens. What's the minimum budget we should plan for?"
    assert RulesExtractor().extract(text).memory_asked is None


@pytest.mark.parametrize(
    ("text", "params_b"),
    [
        (R17, 7.0),
        ("thinking about a 13B pre-training run from scratch, 2T tokens", 13.0),
        ("Budget for a 3B pretrain: 500B tokens, how many H100s?", 3.0),
    ],
)
def test_a_size_said_of_the_run_is_the_models(text: str, params_b: float) -> None:
    p = RulesExtractor().extract(text)
    assert (p.workload, p.params_b) == ("pretraining", params_b)


def test_a_size_of_something_else_is_not_the_models() -> None:
    p = RulesExtractor().extract("we pretrain on 1T tokens with 7B GPU-hours of credits")
    assert p.params_b is None
