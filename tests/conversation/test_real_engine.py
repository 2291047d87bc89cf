"""The conversation with the real rules extractor and the real recommender: templated replies carry only
numbers from the user's words and the recommendation, corrections and injected briefs behave."""

from __future__ import annotations

from pathlib import Path

import pytest

from advisor.conversation import Conversation
from advisor.llm.numbers import AllowedNumbers

BRIEFS = Path(__file__).resolve().parents[2] / "evals" / "cases" / "briefs"


def traceable(c: Conversation, reply: str) -> list[str]:
    allowed = AllowedNumbers()
    for m in c.history:
        if m["role"] == "user":
            allowed.add_user_text(m["text"])
    assert c.last is not None
    allowed.add_tool_result(c.last.profile)
    if c.last.recommendation is not None:
        allowed.add_tool_result(c.last.recommendation)
    return list(allowed.check(reply).unsupported)


@pytest.mark.parametrize(
    "messages",
    [
        ["QLoRA fine-tune of Llama 3 8B on 2B tokens"],
        ["LoRA Mistral 7B, 3 epochs, budget $500, within 5 days", "actually 8 epochs"],
        ["serve Llama 3.1 70B to 200 concurrent users with 8k context, EU only"],
        ["full fine-tune of a 70B model on 10B tokens in 2 weeks", "use your defaults"],
    ],
    ids=["qlora-8b", "correction", "inference-eu", "full-70b-defaults"],
)
def test_templated_replies_use_only_tool_and_user_numbers(messages: list[str]) -> None:
    c = Conversation()
    for m in messages:
        t = c.send(m)
        assert t.recommendation is not None
        assert traceable(c, t.reply) == []
        assert len(t.questions) <= 3


def test_correction_with_real_rules() -> None:
    c = Conversation()
    c.send("LoRA Mistral 7B, 3 epochs, budget $500")
    t = c.send("actually 8 epochs")
    assert t.profile.epochs == 8 and t.profile.method == "lora" and t.profile.budget_usd == 500


def test_injected_note_in_brief_changes_nothing() -> None:
    brief = (BRIEFS / "injection_brief.md").read_text(encoding="utf-8")
    t = Conversation().send("please size this brief", brief_text=brief)
    assert t.profile.budget_usd == 3000 and t.profile.deadline_hours == 240
    assert t.recommendation is not None and t.recommendation.primary is not None
    assert t.recommendation.primary.total_gpus != 512
