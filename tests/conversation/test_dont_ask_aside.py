"""Expert review 9, R14: "We cannot use H100s (compliance, don't ask)" is an aside that waves away a
question about the reason; it is not a request to stop asking questions, and not a constraint left unread.
"Don't ask me questions" and "don't ask, just pick" still mean: use defaults."""

from __future__ import annotations

import pytest

from advisor.conversation import Conversation

ASIDE = "Need to LoRA fine-tune Llama 3.1 70B on 100M tokens. We cannot use H100s (compliance, don't ask)."


def test_an_aside_is_neither_a_defaults_request_nor_an_unread_constraint() -> None:
    t = Conversation(explain=False).send(ASIDE)
    assert "use defaults" not in t.reply
    assert "don't ask" not in t.reply  # not listed under "I did not use"
    assert "h100-sxm" in t.reply  # the constraint itself is read


@pytest.mark.parametrize(
    "text",
    [
        "QLoRA fine-tune of Llama 3 70B on 50M tokens. Don't ask me questions, just pick.",
        "QLoRA fine-tune of Llama 3 70B on 50M tokens, don't ask, use what you think",
        "QLoRA fine-tune of Llama 3 70B on 50M tokens. dont ask anything else",
    ],
)
def test_dont_ask_as_a_request_still_means_defaults(text: str) -> None:
    t = Conversation(explain=False).send(text)
    assert "use defaults" in t.reply and t.questions == []


def test_dont_ask_why_is_an_aside_too() -> None:
    t = Conversation(explain=False).send(ASIDE.replace("(compliance, don't ask)", "- don't ask why"))
    assert "use defaults" not in t.reply
