"""Concurrency in the general forms of advisor/extract/rules_concurrency_forms.py, with near misses whose
counts are not people at once (GPUs, head-count with no share, last year's figure read before a peak)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tools.profile import WorkloadProfile

Extract = Callable[..., WorkloadProfile]

SERVE = "We want to serve Llama 3.1 8B as an internal assistant. "


@pytest.mark.parametrize(
    ("text", "concurrency"),
    [
        ("ballpark for serving llama3.1-70b to ~300 ppl at once? 4k ctx", 300),
        ("can we host phi-4 for 60-80 ppl at once? replies ~250 toks", 80),  # a range: its upper end
        (SERVE + "Around 70 usuarios concurrentes in the peak.", 70),
        (SERVE + "We're about 2,000 employees and I'd guess at most 10% would be using it at the same"
         " moment.",
         200),
        (SERVE + "About 400 devs are onboarded. At most a quarter of them trigger completions at the same"
         " moment.", 100),
        (SERVE + "It is for our 40 researchers.", 40),
        (SERVE + "We bought 40 seats.", 40),
        (SERVE + "The dashboard says about 120 concurrent conversations on an average afternoon, but Monday"
         " mornings spike to around 400.", 400),
        (SERVE + "Peak concurrency: 120 simultaneous conversations.\n2026-11-10 peak concurrency 50 -> 80\n"
         "2026-11-16 peak concurrency 80 -> 120\n", 120),
    ],
)  # fmt: skip
def test_concurrency_forms(extract: Extract, text: str, concurrency: int) -> None:
    assert extract(text).concurrency == concurrency


@pytest.mark.parametrize(
    "text",
    [
        SERVE + "We run 8 GPUs at once in our rack.",
        SERVE + "We have 2,000 employees in 4 offices.",  # a head-count with no share is no concurrency
        SERVE + "It serves 500 orders a day.",
    ],
)
def test_counts_that_are_not_concurrency(extract: Extract, text: str) -> None:
    assert extract(text).concurrency is None


def test_peak_below_the_figure_read_is_not_taken(extract: Extract) -> None:
    p = extract(SERVE + "About 300 concurrent sessions; at night it drops and peaks at 50 only on Sundays.")
    assert p.concurrency == 300


def test_training_text_gets_no_users(extract: Extract) -> None:
    p = extract("LoRA fine-tune Llama 3.1 8B on 20M tokens of tickets written by our 40 researchers.")
    assert p.concurrency is None
