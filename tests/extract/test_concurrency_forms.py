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
        (SERVE + "300 people will hit it at the same moment.", 300),
        (SERVE + "concurrent users: 80", 80),
        (SERVE + "Sessions at peak: 120", 120),
        (SERVE + "Concurrent users - 75", 75),
        (SERVE + "concurrency ~ 50", 50),
        (SERVE + "300 CCU at peak.", 300),
        (SERVE + "It peaks at 300 sessions.", 300),
        (SERVE + "At peak there are about 250 open sessions.", 250),
        (SERVE + "Last year it was 60 concurrent, now plan for 140.", 140),
        (SERVE + "60 concurrent users last year; plan for 140 this year.", 140),
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


def test_stale_figure_in_a_later_turn(extract: Extract) -> None:
    first = extract("We need to serve Qwen2.5 32B for our support agents, about 60 concurrent.")
    assert first.concurrency == 60
    assert extract("sorry, 60 was last year's number - plan for 140.", first).concurrency == 140


def test_a_stale_word_about_another_figure_changes_nothing(extract: Extract) -> None:
    first = extract("We need to serve Qwen2.5 32B for our support agents, about 60 concurrent.")
    assert extract("sorry, 30 was last year's budget - plan for 50.", first).concurrency == 60


def test_two_workloads_serving_part_non_native_and_table() -> None:
    import datetime as dt

    from advisor.extract.rules import RulesExtractor

    rules = RulesExtractor(reference_time=dt.datetime(2026, 11, 18, 9, tzinfo=dt.UTC))
    text = (
        "First we want to train (LoRA) the model Llama 3.1 8B on our data, approximately 30 millions tokens,"
        " 3 epoch. After, we will put it for our clients, expected maybe 20 in the same time, answer length"
        " around 400 tokens. Please give cost of training first."
    )
    other = {f.field: f.value for f in rules.analyse(text).other}
    assert other.get("concurrency") == 20
    assert "prompt_tokens" not in other  # "20 in the same time" is no prompt going "in"
    table = (
        "## Phase 1 - fine-tuning\n- Base model: Llama 3.1 70B\n- Method: QLoRA\n- Data: 180M tokens\n\n"
        "## Phase 2 - serving\n| metric | value |\n|---|---|\n| concurrent users (peak) | 350 |\n"
        "| prompt length (tokens) | 2,500 |\n| answer length (tokens) | 700 |\n"
    )
    other = {f.field: f.value for f in rules.analyse(table).other}
    read = (other.get("concurrency"), other.get("prompt_tokens"), other.get("output_tokens"))
    assert read == (350, 2500, 700)
