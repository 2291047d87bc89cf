"""A figure the writer sets aside in its own sentence is not this job's (advisor/extract/
rules_aside_figures.py), and a form's amount field with a currency is its budget (rules_amount_label.py);
issue 12, evals v15 development cases (shift handover, expense form), two variants each and near misses."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from advisor.extract.units_text import usd_from
from tools.profile import WorkloadProfile
from tools.units import SECONDS_PER_HOUR

Extract = Callable[..., WorkloadProfile]
_JOB = (
    "Judge 3.2M answer pairs with Gemma 2 9B, ~40 output tokens per verdict. Results needed within 2 days. "
)
_RATE = 3.2e6 * 40 / (48 * SECONDS_PER_HOUR)  # the job's own rate: volume over the 48 h given


@pytest.mark.parametrize(
    "aside",
    [
        "- Yesterday's shift saw 1,900 tok/s on the old pipeline -- different model, ignore.",
        "The old vendor did 2,500 tokens/s (for reference only).",
        "Our last run hit 3,000 tok/s; not relevant here.",
    ],
)
def test_a_rate_set_aside_is_not_the_target(extract: Extract, aside: str) -> None:
    p = extract(_JOB + aside)
    assert p.target_tokens_per_s == pytest.approx(_RATE)


def test_near_miss_a_rate_with_no_aside_cue_is_the_target(extract: Extract) -> None:
    p = extract(_JOB + "We need at least 1,900 tok/s.")
    assert p.target_tokens_per_s == pytest.approx(1900)


def test_near_miss_ignore_said_of_an_option_drops_no_figure(extract: Extract) -> None:
    p = extract(_JOB + "Budget $2,000, ignore spot offers.")
    assert p.budget_usd == pytest.approx(2000)


@pytest.mark.parametrize(
    ("form", "usd"),
    [
        (
            "Amount:       EUR 1.800 (one-off)\n"
            "Prior spend:  FY25 EUR 12.400 on the old vendor (for comparison)",
            usd_from(1800, "EUR").value,
        ),
        ("Requested amount: $4,500", 4500.0),
        ("Amount (USD): 3,200\nNotes: last year we spent $9,000 on this (for comparison)", 3200.0),
    ],
)
def test_a_forms_amount_with_a_currency_is_the_budget(extract: Extract, form: str, usd: float) -> None:
    p = extract("EXPENSE PRE-APPROVAL FORM\nPurpose: classify 12 million tickets with Qwen2.5 7B\n" + form)
    assert p.budget_usd == pytest.approx(usd)


def test_near_miss_an_amount_of_data_is_no_budget(extract: Extract) -> None:
    p = extract(
        "REQUEST FORM\nPurpose: classify 12 million tickets with Qwen2.5 7B\nAmount: 500 GB of tickets"
    )
    assert p.budget_usd is None


def test_near_miss_a_budget_said_as_fyi_stands(extract: Extract) -> None:
    p = extract(_JOB + "Just FYI, the budget is $5,000.")
    assert p.budget_usd == pytest.approx(5000)
