"""A batch job's prompt length said as the size of each record it reads (rd17,
advisor/extract/rules_item_size.py), with near misses: the size of what it writes, a training set's
records, a distractor figure of another kind."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tools.profile import WorkloadProfile

Extract = Callable[..., WorkloadProfile]
JOB = "Classify 30 million customer e-mails with Qwen3 8B, a ~10-token label back. "


@pytest.mark.parametrize(
    ("text", "prompt"),
    [
        (JOB + "Each e-mail is roughly 400 tokens.", 400),
        (JOB + "Every e-mail averages ~1.5k tokens.", 1500),
        (JOB + "Our e-mails average 350 tokens.", 350),
        ("Translate 85k product descriptions, ~180 tokens each, with Qwen2.5 72B into German.", 180),
    ],
)
def test_the_size_of_each_record_read_is_the_prompt(extract: Extract, text: str, prompt: int) -> None:
    assert extract(text).prompt_tokens == prompt, text


@pytest.mark.parametrize(
    "text",
    [
        "Summarise our 400,000 old tickets with Llama 3.1 8B, each summary about 600 tokens.",
        "Fine-tune Llama 3.1 8B on 2M documents, ~500 tokens each, 2 epochs.",
        JOB + "We have 140 employees and $22M ARR.",
    ],
)
def test_what_the_job_writes_or_trains_on_is_no_prompt(extract: Extract, text: str) -> None:
    assert extract(text).prompt_tokens is None, text
