"""A value that could not be read is named in the reply rather than dropped (issue 12)."""

from __future__ import annotations

import pytest

from advisor.conversation import Conversation
from advisor.extract.accounting import account_for
from advisor.extract.rules import RulesExtractor
from advisor.extract.unreadable import find_unreadable
from reports.input_account import not_used_items

BASE = "LoRA Llama 3 8B on 20M tokens. "


@pytest.mark.parametrize(
    ("text", "quote"),
    [
        (BASE + "Budget around a few k.", "Budget around a few k"),
        (BASE + "Sequence length: TBD", "Sequence length: TBD"),
        ("LoRA Llama 3 8B on ~? tokens", "~? tokens"),  # inside a clause that gave other facts
        (BASE + "The budget is about a few grand.", "budget is about a few grand"),
        (BASE + "3 epochs, sequence length: ?", "sequence length: ?"),
        ("LoRA Llama 3 8B, maybe a few million tokens", "a few million tokens"),
        (BASE + "XX epochs", "XX epochs"),
        ("Serve Llama 3 8B to lots of users", "lots of users"),  # the rules read no concurrency from it
    ],
)
def test_an_unreadable_value_is_named(text: str, quote: str) -> None:
    profile = RulesExtractor().extract(text)
    account = account_for(text, profile)
    kinds = {c.text: c.kind for c in account.unused}
    assert any(quote in t and k == "unreadable" for t, k in kinds.items()), kinds
    assert any("a value I could not read" in item and quote in item for item in not_used_items(account))


def test_the_reply_says_it() -> None:
    reply = Conversation().send("LoRA Llama 3 8B on ~? tokens, budget: TBD").reply
    assert "'~? tokens': a value I could not read" in reply and "'budget: TBD'" in reply


@pytest.mark.parametrize(
    "text",
    ["LoRA Llama 3 8B on 20M tokens, 3 epochs, budget 5k", "Serve Llama 3 8B to 50 users",
     "English-ish tokens", "a stylish setup with 8k context"],
)  # fmt: skip
def test_values_that_were_read_or_are_no_values_are_not_named(text: str) -> None:
    profile = RulesExtractor().extract(text)
    assert not [c for c in account_for(text, profile).unused if c.kind == "unreadable"]


def test_finder_is_linear_on_long_text() -> None:
    text = "budget " * 3000 + "tbd " * 3000 + "~? tokens " * 2000
    assert len(find_unreadable(text)) >= 2000
