"""A sentence repeated word for word is read at most twice, and a sentence with many amounts weighs its
last ones (issue 17: 20,000 characters of "EU only. " or "€5 " had every repeat through every rule);
what a person writes reads the same."""

from __future__ import annotations

from advisor.conversation import Conversation
from advisor.extract.accounting import account_for
from advisor.extract.rules import RulesExtractor
from advisor.extract.rules_money_time import MAX_BUDGET_AMOUNTS_PER_SENTENCE


def test_a_repeated_sentence_is_read_and_its_repeats_count_as_read() -> None:
    text = "LoRA Llama 3 8B on 20M tokens. EU only. " + "EU only. " * 500
    p = Conversation(explain=False).send(text).profile
    assert p.eu_only is True and p.dataset_tokens == 20e6
    account = account_for(text, p)
    assert account.unused == () and account.more_unused == 0


def test_said_again_after_a_change_still_wins() -> None:
    p = RulesExtractor().extract("LoRA Llama 3 8B on 20M tokens. Budget $5k. Budget $8k. Budget $5k.")
    assert p.budget_usd == 5000


def test_a_sentence_of_many_amounts_keeps_its_last_as_the_budget() -> None:
    amounts = " ".join(f"${n}" for n in range(1, MAX_BUDGET_AMOUNTS_PER_SENTENCE + 40))
    p = RulesExtractor().extract(f"budget {amounts}")
    assert p.budget_usd == MAX_BUDGET_AMOUNTS_PER_SENTENCE + 39
