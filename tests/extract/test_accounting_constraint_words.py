"""A clause counts as used only for the parts its findings' evidence covers (issue 12): a constraint word left
uncovered in a clause that gave other facts (where the data may be, how capacity is bought, where the
hardware runs, by when) is listed as not used, and an unused clause stating one is a constraint, not
context. Synonyms of a fact read from the same clause, languages, postcodes and headings are not listed
(advisor/extract/constraint_words.py)."""

from __future__ import annotations

import pytest

from advisor.extract.accounting import account_input, clause_kind
from advisor.extract.constraint_words import classes_in, states_constraint, topic_class
from tools.input_account import InputAccount


def _listed(text: str, *read: str) -> list[tuple[str, str]]:
    """(kind, text) of what the account of `text` lists as not used, given the quotes facts were read from."""
    account: InputAccount = account_input(text, [(q, None) for q in read])
    return [(c.kind, c.text) for c in account.unused]


@pytest.mark.parametrize(
    ("text", "read", "word"),
    [
        # residency in a clause that gave the model and the tokens
        (
            "fine-tune mistral 7b on 20M tokens with data staying in Germany",
            ("mistral 7b", "20M tokens"),
            "Germany",
        ),
        # voice-to-text, no punctuation, lower case
        ("lora llama 8b 10M tokens data has to stay in the eu", ("llama 8b", "10M tokens"), "eu"),
        (
            "serve qwen 32b on aws eu-central-1 for 100 users",
            ("qwen 32b", "aws", "100 users"),
            "eu-central-1",
        ),
        ("LoRA llama 70b on 30M tokens, any US region is fine", ("llama 70b", "30M tokens"), "US region"),
        ("Qwen 72B batch job 2M docs on German data centres", ("Qwen 72B", "2M docs"), "German data centres"),
        ("llama 70b lora 30M tokens spot is ok", ("llama 70b", "lora", "30M tokens"), "spot"),
        ("Mixtral for 50 users, pre-emptible is fine", ("Mixtral", "50 users"), "pre-emptible"),
        ("Mixtral for 50 users, PAYG only", ("Mixtral", "50 users"), "PAYG"),
        ("serve llama 8b to 40 users on a 1-year commitment", ("llama 8b", "40 users"), "commitment"),
        ("serve llama 8b to 40 users, air-gapped", ("llama 8b", "40 users"), "air-gapped"),
        ("LoRA llama 8b on 10M tokens by Friday", ("llama 8b", "10M tokens"), "by Friday"),
        (
            "LoRA llama 8b on 10M tokens before end of the month",
            ("llama 8b", "10M tokens"),
            "end of the month",
        ),
        ("serve llama 70b to 200 users hosted in Frankfurt", ("llama 70b", "200 users"), "Frankfurt"),
        (
            "QLoRA llama 70b on 5M tokens, no cross-border transfers",
            ("llama 70b", "5M tokens"),
            "cross-border",
        ),
        (
            "serve llama 70b to 40 clinicians, only a provider with a signed BAA",
            ("llama 70b", "40 clinicians"),
            "BAA",
        ),
        (
            "Qwen3 32B for 60 users in Germany (BSI C5 attestation)",
            ("Qwen3 32B", "60 users", "Germany"),
            "C5",
        ),
        (
            "LoRA llama 8b on 10M tokens before the Christmas code freeze",
            ("llama 8b", "10M tokens"),
            "Christmas",
        ),
    ],
)
def test_a_constraint_word_no_finding_covers_is_listed(text: str, read: tuple[str, ...], word: str) -> None:
    listed = _listed(text, *read)
    assert any(kind == "constraint" and word in said for kind, said in listed), listed


@pytest.mark.parametrize(
    ("text", "read"),
    [
        # the fact was read from those words
        ("llama 70b lora 30M tokens spot is ok", ("llama 70b", "lora", "30M tokens", "spot is ok")),
        ("LoRA llama 8b on 10M tokens by Friday", ("llama 8b", "10M tokens", "by Friday")),
        # a synonym of the fact read from the same clause
        ("serve qwen 32b to 100 users, EU only (Germany preferred)", ("qwen 32b", "100 users", "EU only")),
        ("Mixtral for 50 users, no spot or preemptible", ("Mixtral", "50 users", "no spot")),
        # languages, not locations; "us" the pronoun, not the country
        ("translate 2M docs into German and French with Qwen 72B", ("2M docs", "Qwen 72B")),
        ("LoRA llama 8b for us on 10M tokens", ("LoRA", "llama 8b", "10M tokens")),
        # a postcode's city is an address
        ("serve llama 8b to 40 users, ship invoices to 75004 Paris", ("llama 8b", "40 users")),
        # a count with its figure is a number's, not a second listing; "one of" is no hardware count
        ("QLoRA llama 70b on one of our 5M-token sets", ("llama 70b",)),
        # "hdsl" is no certification
        ("serve llama 8b to 40 users over hdsl lines", ("llama 8b", "40 users")),
        # "committed" to another job is not a commitment to buy
        ("serve llama 8b to 40 users, three servers are committed to risk", ("llama 8b", "40 users")),
    ],
)
def test_a_read_synonym_a_language_or_an_address_is_not_listed(text: str, read: tuple[str, ...]) -> None:
    assert not [said for kind, said in _listed(text, *read) if kind == "constraint"]


def test_two_words_of_one_class_in_a_clause_are_listed_once() -> None:
    listed = _listed(
        "serve llama 70b to 200 users in two EU regions (Frankfurt and Paris)", "llama 70b", "200 users"
    )
    assert len([s for k, s in listed if k == "constraint"]) == 1


@pytest.mark.parametrize(
    "text",
    ["nothing reserved", "Spot OK", "data stays in Germany", "we need it by Friday",
     "Nothing leaves the building", "update, deadline got pulled in", "only interruptible capacity",
     "keep it in eu-west-1", "savings plan is fine"],
)  # fmt: skip
def test_an_unused_clause_stating_a_constraint_is_a_constraint(text: str) -> None:
    assert clause_kind(text) == "constraint"


@pytest.mark.parametrize(
    ("text", "alone"),
    [("nothing fancy", True), ("Nothing huge", False), ("Data team, Madrid", True), ("Deadline", True),
     ("ask us anything", False), ("translated into German", False), ("Acme GmbH, 75004 Paris", True)],
)  # fmt: skip
def test_shrugs_headings_signatures_and_languages_are_not_constraints(text: str, alone: bool) -> None:
    assert clause_kind(text, alone) not in ("constraint",)


def test_classes_group_synonyms() -> None:
    assert topic_class("preemptible") == topic_class("spot") == topic_class("preemptions") == "interruptible"
    assert topic_class("Germany") == topic_class("EU") == topic_class("US") == "location"
    assert topic_class("us") is None and topic_class("German") is None
    assert classes_in("on-demand, no spot") == {"on_demand", "interruptible"}
    assert states_constraint("Deadline", heading=True) is False
    assert states_constraint("the deadline moved") is True


def test_a_repeated_read_sentence_lists_nothing() -> None:
    text = "LoRA Llama 3 8B on 20M tokens, data in the EU. " * 3
    assert _listed(text, "LoRA", "Llama 3 8B", "20M tokens", "data in the EU") == []


@pytest.mark.parametrize(
    "text",
    ["lora_r: 64 # tried on the v2 data dump", '"gradient_accumulation_steps": 4', "--max-num-seqs 64",
     "per_device_train_batch_size=2"],
)  # fmt: skip
def test_a_setting_with_its_value_is_a_number(text: str) -> None:
    assert clause_kind(text) == "number"


@pytest.mark.parametrize("text", ["Rina K 9:15 AM", "[MLPLAT-2231]", "see the v2_data dump"])
def test_a_time_a_ticket_or_a_name_with_an_underscore_is_not_a_setting(text: str) -> None:
    assert clause_kind(text) != "number"


def test_a_setting_left_in_a_read_command_line_is_listed_whole() -> None:
    listed = _listed(
        "vllm serve Llama-3.3-70B --max-num-seqs 64 --gpu-memory-utilization 0.92", "Llama-3.3-70B"
    )
    assert any("--max-num-seqs 64" in said for _, said in listed)
    assert any("0.92" in said for _, said in listed)


@pytest.mark.parametrize(
    "text",
    ["The model has to be trained on hardware we physically own and operate",
     "so managed or simple setups preferred", "the founders want us to self-host",
     "Power is included in our colo contract"],
)  # fmt: skip
def test_hosting_and_obligations_in_an_unused_clause_are_constraints(text: str) -> None:
    assert clause_kind(text) == "constraint"


def test_hosting_words_beside_a_read_fact_are_part_of_its_phrase() -> None:
    # "managed endpoint" is where it runs today, not a requirement: no leftover in a read clause
    listed = _listed("Right now Llama 3.1 8B runs on a managed endpoint", "Llama 3.1 8B")
    assert not [said for kind, said in listed if kind == "constraint"]


def test_a_fact_read_from_the_next_clause_of_the_sentence_covers_its_synonym() -> None:
    # eu_only read from "GDPR applies": "in the EU" before it is that fact, not a second one
    text = "We need to serve DeepSeek V3 in the EU, GDPR applies, about 50 simultaneous requests"
    listed = _listed(text, "serve", "DeepSeek V3", "GDPR applies", "50 simultaneous requests")
    assert not [said for kind, said in listed if kind == "constraint"]


def test_a_fact_read_in_another_sentence_does_not_cover_a_new_one() -> None:
    text = "Serve Llama 3.1 70B in the EU. Training of Llama 3.1 8B on 10M tokens can run in the US."
    listed = _listed(text, "Serve", "Llama 3.1 70B", "in the EU", "Llama 3.1 8B", "10M tokens")
    assert any(kind == "constraint" and "US" in said for kind, said in listed), listed
