"""A batch written as a chain of counts joined by "x" (advisor/extract/rules_generation_chain.py; issue 12,
structural, evals v14/v15 development cases): the failing layouts, two variants in other words, and near
misses (a training set's size, a chain under a test run's size, a chain per period)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tools.profile import WorkloadProfile

Extract = Callable[..., WorkloadProfile]


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        # evals v14 whiteboard: 50k x 8 x 300 = 120M
        ("SYNTH DATA v2\n- 50k convos × 8 turns × ~300 tok per turn (output)\n- teacher = Qwen3 235B-A22B\n"
         "- DONE BY: Tue Dec 1 (hard) → student training starts Wed", 120e6),
        # evals v15 git log: 400k x 1.5k = 600M
        ("9f3c2e1 synth: target 400k samples x ~1.5k tokens each with Qwen3 32B, must land before the data "
         "freeze on Mon 30 Nov", 600e6),
        # variants in other words
        ("Distillation run: Llama 3.1 70B as the teacher, 20k topics * 5 questions * 400 tokens.", 40e6),
        ("We sample 3 answers x 200k problems x ~900 new tokens with Qwen2.5 7B.", 540e6),
    ],
)  # fmt: skip
def test_chain_of_counts_is_a_generation_volume(extract: Extract, text: str, tokens: float) -> None:
    p = extract(text)
    assert p.workload == "inference"
    assert p.generation_tokens == pytest.approx(tokens)
    assert p.dataset_tokens is None


def test_chain_with_deadline_gives_the_rate(extract: Extract) -> None:
    p = extract("Teacher job: 100k prompts x 8 samples x 500 tokens with Qwen3 32B, within 4 days.")
    assert p.generation_tokens == pytest.approx(4e8)
    assert p.target_tokens_per_s == pytest.approx(4e8 / (96 * 3600), rel=0.01)


@pytest.mark.parametrize(
    "text",
    [
        # a training set's size: a training word leaves the chain to the data reader
        "LoRA fine-tune of Qwen3 32B on 400k samples x ~1.5k tokens each, 2 epochs.",
        # no generation named: the chain stays whatever the data reader made of it
        "We have 400k samples x ~1.5k tokens each and Qwen3 32B.",
    ],
)
def test_near_miss_training_set_is_not_generation(extract: Extract, text: str) -> None:
    p = extract(text)
    assert p.generation_tokens is None
    assert p.workload != "inference"


def test_near_miss_small_or_periodic_chain(extract: Extract) -> None:
    assert extract("synth pilot: 20 convos x 8 turns x 300 tok with Qwen3 32B").generation_tokens is None
    p = extract("synth job: 50k convos x 300 tokens a day with Qwen3 32B")
    assert p.generation_tokens != pytest.approx(15e6)
