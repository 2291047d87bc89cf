"""A Gantt chart exported as text (evals v14, development data; issue 12): the period and bar of a line
are drawing, the task after them is read with its label (advisor/extract/workloads.py reads a bar before a
task as the start of that part); variants of our own."""

from __future__ import annotations

from collections.abc import Callable

import pytest

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
