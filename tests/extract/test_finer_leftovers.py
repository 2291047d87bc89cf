"""Finer leftovers of a clause that gave other facts (issue 12, drops0): a currency, a date, milliseconds,
cents per kWh, a policy word that governs nothing read, a question about named hardware and a form's
key=value pairs are listed as not used even inside a read clause, so an unread constraint is named rather
than dropped. Each class: the eval text that dropped it silently (evals/cases_v13..v17, 2026-11-28), two
variants of our own and a near miss that must stay quiet (a read fact is not listed again)."""

from __future__ import annotations

import datetime as dt

import pytest

from advisor.extract.accounting import split_clauses
from advisor.extract.rules import RulesExtractor
from evals.harness import _account

REF = dt.datetime(2026, 11, 18, 9, 0, tzinfo=dt.UTC)  # the harness's reference time


def _unused(*turns: str) -> list[tuple[str, str]]:
    """(kind, text) of what the accounting lists as not used, the turns read as the harness reads them."""
    return [(c.kind, c.text) for c in _account(list(turns), REF).unused]


def _texts(*turns: str) -> str:
    return " | ".join(text for _, text in _unused(*turns))


# --------------------------------------------------------------------------- currency
@pytest.mark.parametrize(
    ("text", "listed"),
    [
        # v15-req-quebec-writer-lora-3b-cad: "2 000 $" was read as USD, the "CAD" after it by nobody
        ("We want to do a LoRA fine-tuning of Llama 3.2 3B on 8M tokens. Our budget is 2 000 $ CAD for "
         "everything.", "$ CAD for everything"),
        ("LoRA of Llama 3 8B on 10M tokens, budget 900 $ AUD in total.", "$ AUD in total"),
        ("Fine-tune Mistral 7B with LoRA on 20M tokens; we can spend 5000 $ NZD.", "$ NZD"),
        # v17-two-kenyan-qlora-gemma3-then-serve-lambda: a code before the amount was no number with a unit
        ("QLoRA of Gemma 3 12B on 8 million tokens. The budget for this training is KSh 150,000.",
         "The budget for this training is KSh 150,000"),
        ("Serve Qwen2.5 14B to 50 users. Monthly budget is RMB 60,000.", "Monthly budget is RMB 60,000"),
        ("Summarise 2M tickets with Llama 3.1 8B each month. We have SEK 9,000 for each run.",
         "We have SEK 9,000 for each run"),
    ],
)  # fmt: skip
def test_a_currency_nobody_read_is_listed_as_a_number(text: str, listed: str) -> None:
    assert ("number", listed) in _unused(text)


@pytest.mark.parametrize(
    "text",
    [
        "LoRA of Llama 3 8B on 10M tokens, budget EUR 5,000.",
        "Serve Llama 3.1 8B to 50 users. Budget is $5,000 per month.",
    ],
)
def test_near_miss_a_budget_read_with_its_currency_is_not_listed(text: str) -> None:
    assert _unused(text) == []


# --------------------------------------------------------------------------- dates
def test_a_date_in_a_table_cell_or_a_config_line_is_listed() -> None:
    # v13-batch-lab-wiki-table-synthetic-qa: the "due" cell was context (now read as the deadline, its
    # column names it: advisor/extract/table_columns.py, ext26); a date column that names no deadline stays
    # listed; v17-two-ini: inside a read clause
    table = (
        "| job | model | items | tokens out / item | added |\n|---|---|---|---|---|\n"
        "| synthetic QA | Llama 3.1 8B | 5,000,000 | 150 | Dec 10 |"
    )
    # ext25 (settings rows) reads a one-row table as a record: the date is listed either way, never lost
    assert any("Dec 10" in said for kind, said in _unused(table) if kind == "number")
    ini = "[training]\nmodel = Llama 3.1 8B\ntokens = 3e9\ndeadline = 2026-12-11"
    assert ("number", "= 2026-12-11") in _unused(ini) or RulesExtractor().extract(ini).deadline_hours
    assert "12 January" in _texts("| model | due |\n|---|---|\n| Llama 3.1 8B | 12 January |")


def test_near_miss_a_chat_timestamp_is_no_date_to_meet() -> None:
    listed = _unused("[2026-11-17 16:02] nadia: LoRA Llama 3 8B on 10M tokens")
    assert not [said for kind, said in listed if kind == "number" and "16:02" in said]


# --------------------------------------------------------------------------- policy words
@pytest.mark.parametrize(
    ("text", "listed"),
    [
        # v17-train-python-dataclass-qlora-qwen25-72b-gbp: "caps" was no policy word
        ('base_model: str = "Qwen/Qwen2.5-72B"\nmax_gpus: int = 2     # finance caps us at two cards',
         "finance caps us"),
        # v17-owned-dockerfile-8x-h200-colo-cpt-qwen3: "forbids" was no policy word
        ("Qwen3 8B continued pretraining on 30B tokens. Nothing of this goes to a public cloud: the contract "
         "with the data owner forbids it.", "forbids it"),
        ("LoRA Llama 3 8B on 10M tokens; our policy prohibits anything but two GPUs at most.",
         "our policy prohibits anything"),
    ],
)  # fmt: skip
def test_a_policy_word_that_governs_nothing_read_is_listed(text: str, listed: str) -> None:
    assert any(kind == "constraint" and listed in said for kind, said in _unused(text))


def test_near_miss_a_policy_word_beside_the_fact_it_modifies_is_not_listed() -> None:
    assert _unused("Fine-tune Llama 3 8B on 10M tokens, data must stay in the EU.") == []
    assert "only" not in _texts("Pretrain a 1B decoder-only model on 20B tokens by Friday")


# --------------------------------------------------------------------------- units
def test_milliseconds_in_a_read_clause_are_listed() -> None:
    # v17-serve-dictation-llama31-8b-ttft-200ms: a dictated message is one clause; the model was read
    text = (
        "Serve Llama 3.1 8B to sixty people at the same time no more than two hundred milliseconds to "
        "the first token and the prompts are short"
    )
    assert ("number", "two hundred milliseconds to the") in _unused(text)
    assert ("number", "to 80 msec per token") in _unused(
        "Serve Mistral 7B to 40 users and keep latency to 80 msec per token"
    )
    # near miss: a latency read is not listed again
    assert _unused("Serve Mistral 7B to 40 users with under 150 milliseconds per token") == []


def test_cents_per_kwh_are_a_number() -> None:
    # v17-owned-australian-4x-4090-lora-mistral-claim: "38c a kWh" was context
    text = "LoRA Mistral 7B on 50M tokens of commentary. Power here is 38c a kWh (AUD, yeah it's a rip-off)."
    assert any(kind == "number" and "38c a kWh" in said for kind, said in _unused(text))
    assert ("number", "power at 30c per kWh, AUD") in _unused(
        "LoRA Mistral 7B on 50M tokens, power at 30c per kWh, AUD."
    )


def test_near_miss_a_power_price_read_is_not_listed() -> None:
    assert "kWh" not in _texts(
        "We own 4 RTX 4090s. LoRA Mistral 7B on 50M tokens. Power here is 38c a kWh (AUD)."
    )


# --------------------------------------------------------------------------- questions
def test_a_question_about_named_hardware_answered_by_nothing_is_listed() -> None:
    # (v16-multi-owned-nvl-corrected-then-claim, "Could our four NVLs get through it in 36 hours?", was
    # listed here until the owned-claim reading took "our four NVLs": tests/extract/test_owned_claim_refs.py)
    text = "Full fine-tune of Llama 3.1 70B over 2B tokens. Is 16 of those enough to finish in 5 days?"
    assert ("question", "Is 16 of those enough to finish in 5 days?") in _unused(text)
    text = "LoRA Llama 3 8B on 20M tokens. Will 2x L40S finish it by Friday?"
    assert ("question", "Will 2x L40S finish it by Friday?") in _unused(text)


@pytest.mark.parametrize(
    "text",
    [
        "what gpu do I need to fine-tune mistral 7b with lora?",  # the pick answers it
        "LoRA Llama 3 8B on 20M tokens. Do NOT pick B200s.",  # an order, not a question
        "Priya, could you get the GPU sizing for the DeepSeek-V3 rollout?",  # a request the pick answers
    ],
)
def test_near_miss_a_question_the_pick_answers_is_not_listed(text: str) -> None:
    assert not [said for kind, said in _unused(text) if kind == "question"]


# --------------------------------------------------------------------------- forms
def test_each_key_value_pair_of_a_form_is_its_own_clause() -> None:
    # v17-req-http-form-post-qlora-phi3-mini: three leftovers filled the clause's quota, the rest vanished
    form = "task=finetune&base=x&method=qlora&epochs=3&examples=8000&budget_usd=30"
    # ext25 reads the form's budget; before, drops0 listed it: either way not lost
    assert ("number", "budget usd=30") in _unused(form) or RulesExtractor().extract(form).budget_usd == 30
    spot = "task=finetune&method=qlora&epochs=3&spot=allowed"  # read as spot OK since ext25, else listed
    assert "spot=allowed" in _texts(spot) or RulesExtractor().extract(spot).spot_ok
    # near miss: a "&" in prose is no separator
    assert [c.text for c in split_clauses("Q&A pairs for LoRA of Llama 3 8B")] == [
        "Q&A pairs for LoRA of Llama 3 8B"
    ]


# --------------------------------------------------------------------------- CSV rows
CMDB = (
    "Asset export (ServiceNow CMDB), filtered to GPU servers, Sydney office:\n"
    "asset_tag,model,gpus,gpu_type,status,location\n"
    "SYD-GPU-01,Supermicro SYS-421GE,4,L40S 48GB,in service,Sydney DC\n"
    "SYD-GPU-02,Supermicro SYS-421GE,4,L40S 48GB,in service,Sydney DC\n"
)


def test_a_question_after_a_csv_table_is_its_own_clause() -> None:
    # v14-owned-cmdb-export-l40s-sydney: the question line was joined to the rows and asked nothing
    text = CMDB + (
        "Question from our CTO: can the two in-service boxes serve Qwen2.5 32B to ~70 concurrent staff "
        "(prompts\n~1,200 tokens, replies ~350)? We don't want to rent anything."
    )
    listed = _unused(text)
    assert ("gpu", "SYD-GPU-01,Supermicro SYS-421GE,4,L40S 48GB,in service,Sydney DC") in listed
    assert any(
        kind == "question" and said.startswith("Question from our CTO: can the two") for kind, said in listed
    )
    own = CMDB + "Could these two boxes fine-tune Llama 3.1 8B on 20M tokens by Friday?"
    assert any(kind == "question" and "these two boxes" in said for kind, said in _unused(own))
    rows = "host,gpus,gpu_type,owner\nn1,8,H100 SXM,ml\nn2,8,H100 SXM,ml\nWill 16x H100 pretrain a 1B model?"
    assert any(kind == "question" and "16x H100" in said for kind, said in _unused(rows))


def test_near_miss_prose_with_commas_is_no_csv_row() -> None:
    # a wrapped prose line and a line of two bare commas stay joined to the next line
    text = "We fine-tune Llama 3 8B, Mistral 7B, Qwen2.5 7B and Phi-4\non 10M tokens each"
    assert [c.text for c in split_clauses(text)][-1] == "Qwen2.5 7B and Phi-4 on 10M tokens each"
    assert [c.text for c in split_clauses("a,b,c\nd e f")] == ["a,b,c d e f"]
