"""How often a two-section brief is read (advisor/extract/workloads.py split_parts, issue 12 speed4): the
part with fewer sentences of its own is read first, and when it states no fact of its kind the other part
is not read (the text is then read as one). The order changes no finding: both orders give the same
analysis, checked here by forcing each."""

from __future__ import annotations

from typing import Any

import pytest

import advisor.extract.rules as rules_module
import advisor.extract.workloads as workloads
from advisor.extract.rules import RulesExtractor
from advisor.extract.rules_ctx import Ctx
from evals.harness import REFERENCE_TIME

# a training section with its own facts and a serving section with none of its kind (no users, lengths
# or speed): one workload, read as one
SERVING_SAYS_NOTHING = """## Training
LoRA fine-tune of Llama 3.1 8B on 40M tokens of support chats, 2 epochs, sequence length 4096.

## Serving
We will decide later.

## Constraints
EU only. Budget EUR 20,000."""

# both sections state facts of their kind: two workloads
BOTH_PARTS = """## Training
QLoRA of Qwen2.5 7B on 30M tokens, 3 epochs.

## Serving
About 80 concurrent users, 1k tokens in and 200 out, 24/7.

## Constraints
No spot instances."""


def _reads(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """A list that collects the number of sentences of each reading the rules do."""
    sizes: list[int] = []

    def counting(**kwargs: Any) -> Ctx:
        sizes.append(len(kwargs["sentences"]))
        return Ctx(**kwargs)

    monkeypatch.setattr(rules_module, "Ctx", counting)
    return sizes


def test_a_part_without_its_own_facts_stops_the_split_after_one_reading(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    sizes = _reads(monkeypatch)
    a = RulesExtractor(reference_time=REFERENCE_TIME).analyse(SERVING_SAYS_NOTHING)
    assert a.other == ()  # one workload
    assert len(sizes) == 2  # the serving part (fewer sentences of its own), then the whole; was 3


def test_both_parts_are_read_when_both_state_facts(monkeypatch: pytest.MonkeyPatch) -> None:
    sizes = _reads(monkeypatch)
    a = RulesExtractor(reference_time=REFERENCE_TIME).analyse(BOTH_PARTS)
    assert a.other != () and len(sizes) == 2


@pytest.mark.parametrize("text", [SERVING_SAYS_NOTHING, BOTH_PARTS])
def test_the_reading_order_changes_no_finding(monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    analyses = []
    for fewer in (True, False):  # the serving part first, then the training part first
        monkeypatch.setattr(workloads, "serving_first", lambda train, serve, first=fewer: first)
        analyses.append(RulesExtractor(reference_time=REFERENCE_TIME).analyse(text))
    assert analyses[0] == analyses[1]
