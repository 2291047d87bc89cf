"""A Gantt chart exported as text (evals v14, development data; issue 12): the period and bar of a line
are drawing, the task after them is read with its label; variants of our own and near misses."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from advisor.extract.gantt_rows import gantt_rows
from advisor.extract.rules import RulesExtractor

Extract = Callable[..., object]


@pytest.mark.parametrize(
    "text",
    [
        "Roadmap\nJan W1–W3   ████        Fine-tune: LoRA on Llama 3.1 70B, 85M tokens, 3 epochs\n"
        "Jan W4–Jun      ██████  Serve: 250 concurrent agents, ~1,500-token prompts, ~200-token answers",
        "Plan\nQ1 ▇▇▇▇ Train: LoRA on Llama 3.1 70B, 85M tokens, 3 epochs\n"
        "Q2–Q4 ■■■■■■ Serving: 250 concurrent agents, ~1,500-token prompts, ~200-token answers",
    ],
)
def test_gantt_tasks_are_two_workloads(rules: RulesExtractor, text: str) -> None:
    a = rules.analyse(text)
    main = {f.field: f.value for f in a.findings}
    other = {f.field: f.value for f in a.other}
    assert main["workload"] == "fine_tuning" and main["dataset_tokens"] == 85_000_000
    assert other["workload"] == "inference" and other["concurrency"] == 250


def test_bar_is_blanked_to_the_same_length() -> None:
    line = "Jan W1–W3   ████  Fine-tune: LoRA"
    out = gantt_rows(line)
    assert len(out) == len(line) and out.lstrip() == "Fine-tune: LoRA"


@pytest.mark.parametrize(
    "text",
    [
        "Progress: █ one block is not a bar",  # a single block character
        "We serve Llama 3 8B to 40 users and the status page shows ██ in red since Monday",  # prefix too long
        "Serve Llama 3 8B to 40 users.",  # no bar at all
    ],
)
def test_text_without_a_chart_bar_is_left_alone(text: str) -> None:
    assert gantt_rows(text) == text
