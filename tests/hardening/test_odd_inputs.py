"""Issue 17, odd inputs and figures: impossible amounts are not read as positive, deadlines read back as
a date, money and durations of any size read sanely, a report is not written under a .docx name, and a
message that only asks for the report says the report is being made."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from advisor.conversation import Conversation
from advisor.extract.odd_values import blank_out, find_odd_values
from advisor.service.reports import resolve_format
from tools import present
from tools.errors import InputError


@pytest.mark.parametrize(
    ("text", "words", "field"),
    [
        ("QLoRA 70B on 2B tokens, -3 epochs", "-3 epochs", "epochs"),
        ("a budget of -$500", "-$500", "budget"),
        ("train on 0 GPUs", "0 GPUs", "GPU count"),
        ("QLoRA 70B on 1e30 tokens", "1e30 tokens", "dataset size"),
        ("minus 2 epochs", "minus 2 epochs", "epochs"),
        ("budget: $0", "budget: $0", "budget"),
    ],
)
def test_impossible_amounts_are_found_with_their_field(text: str, words: str, field: str) -> None:
    found = find_odd_values(text)
    assert [(o.words, o.field) for o in found] == [(words, field)]
    blanked = blank_out(text, found)
    assert len(blanked) == len(text) and words not in blanked


@pytest.mark.parametrize(
    "text",
    [
        "Llama-3 70B, 2-3 epochs",
        "due 2026-12-04",
        "H100-80GB x8",
        "- 3 epochs (a bullet)",
        "$5 " * 50,
        "1,000,000 GPUs",
        "2 epochs on 8 GPUs, 1B tokens, $5,000",
    ],
)
def test_ordinary_amounts_are_left_alone(text: str) -> None:
    assert find_odd_values(text) == []


def test_negative_epochs_and_budget_are_not_read_as_positive() -> None:
    conv = Conversation(backend="rules", explain=False)
    turn = conv.send("LoRA 8B on 1B tokens for -2 epochs with a budget of -$500")
    assert turn.profile.epochs is None
    assert turn.profile.budget_usd is None
    assert '"-2 epochs" (epochs cannot be negative)' in turn.reply
    assert '"-$500" (budget cannot be negative)' in turn.reply


def test_absurd_tokens_are_reported_not_understood() -> None:
    turn = Conversation(backend="rules", explain=False).send("QLoRA 70B on 1e30 tokens")
    assert turn.profile.dataset_tokens is None
    assert '"1e30 tokens"' in turn.reply and "check the figure" in turn.reply


def test_a_dated_deadline_reads_back_as_its_day_and_whole_hours() -> None:
    now = dt.datetime(2026, 11, 25, 10, 28)
    assert present.deadline(229.53, now) == "Fri 4 Dec, 230 h from now"
    assert present.deadline(24 * 40, now) == "Mon 4 Jan 2027, 960 h from now"
    turn = Conversation(backend="rules", explain=False).send("QLoRA 70B on 2B tokens, need it by next Friday")
    assert "h from now" in turn.reply
    assert ".5" not in turn.reply.split("deadline", 1)[1].split(".")[0]  # no '233.701 h'
    assert all(f"{turn.profile.deadline_hours:g} h" not in line for line in turn.reply.splitlines())


@pytest.mark.parametrize(
    ("amount", "text"),
    [(1e14, "$100T"), (4.5e9, "$4.5B"), (1.26e6, "$1.26M"), (1e20, "$1 × 10²⁰"), (1e30, "$1 × 10³⁰")],
)
def test_money_of_any_size_reads_sanely(amount: float, text: str) -> None:
    assert present.usd(amount) == text
    assert len(present.usd(amount)) < 12


def test_huge_counts_and_hours_read_as_powers_of_ten() -> None:
    assert present.count(1e30) == "1 × 10³⁰"
    assert present.hours(1e30) == "1 × 10³⁰ h"
    assert present.hours(12_480) == "12,480 h"


def test_huge_budget_in_the_reply_is_short() -> None:
    turn = Conversation(backend="rules", explain=False).send("QLoRA 70B on 2B tokens, budget $100 trillion")
    assert "$100T" in turn.reply
    assert "000,000,000" not in turn.reply


def test_a_report_is_not_written_under_a_docx_name() -> None:
    with pytest.raises(InputError, match=r"x.docx: a report cannot be written as .docx; name it x.pdf"):
        resolve_format(None, Path("x.docx"))
    assert resolve_format(None, Path("x.report")) == "pdf"


def test_report_as_a_message_says_the_report_is_being_made() -> None:
    conv = Conversation(backend="rules", explain=False)
    conv.send("QLoRA Llama 3 70B on 2B tokens, 1 epoch")
    turn = conv.send("report")
    assert turn.report_requested
    assert "Making the PDF report" in turn.reply
    assert "nothing changes" not in turn.reply
