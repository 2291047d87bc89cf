"""A batch's output length said through what each output is ("Each translation is about 150 tokens") with
the items counted by the job's verb (advisor/extract/rules_output_each.py; issue 12, evals v15 development
case): the phrasing, two variants, and near misses (an input's length, a count under a test run's size)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tools.profile import WorkloadProfile
from tools.units import SECONDS_PER_HOUR

Extract = Callable[..., WorkloadProfile]


@pytest.mark.parametrize(
    ("text", "items", "tokens"),
    [
        ("We must translate 8 million product descriptions with Llama 3.3 70B. Each translation is "
         "about 150 tokens. The job must be ready in 10 days.", 8e6, 150),
        ("Summarise 400k support calls with Qwen2.5 7B. Every summary runs to ~220 tokens. Done in 10 days.",
         4e5, 220),
        ("Please draft 2 million emails with Llama 3.1 8B; each draft will be around 300 tokens. "
         "Within 10 days.",
         2e6, 300),
    ],
)  # fmt: skip
def test_each_written_thing_is_the_output_per_item(
    extract: Extract, text: str, items: float, tokens: int
) -> None:
    p = extract(text)
    assert p.workload == "inference" and p.output_tokens == tokens
    assert p.generation_tokens == pytest.approx(items * tokens)
    assert p.target_tokens_per_s == pytest.approx(items * tokens / (240 * SECONDS_PER_HOUR))


def test_near_miss_each_input_is_not_an_output(extract: Extract) -> None:
    p = extract(
        "Translate 8 million product descriptions with Llama 3.3 70B. Each document is about 150 tokens."
    )
    assert p.generation_tokens is None


def test_near_miss_a_test_run_is_no_batch_volume(extract: Extract) -> None:
    p = extract(
        "Translate 200 product descriptions with Llama 3.3 70B (pilot). Each translation is about 150 tokens."
    )
    assert p.generation_tokens is None
