"""Expert review 7, R02: "Capex budget EUR 250k" is a one-off purchase budget, held against each buy
option's purchase price, not compared with one month of serving
(evals/reviews/2026-11-27-expert-review-7.md)."""

from __future__ import annotations

import pytest

from advisor.api import ask
from advisor.extract.rules import RulesExtractor

R02 = (
    "Dear team, we plan to run Llama 3.3 70B on-prem as an internal chat assistant for ~150 employees, peak "
    "40 concurrent sessions. Capex budget EUR 250k. Please advise on configuration (H100 vs H200 vs L40S)."
)


def test_review_phrasing_is_a_capex_budget() -> None:
    p = RulesExtractor().extract(R02)
    assert p.budget_capex is True
    assert p.budget_usd is not None and p.budget_usd > 250_000  # EUR at the catalog's dated rate
    assert p.deployment_preference == "on_prem"


@pytest.mark.parametrize(
    "text",
    [
        "Serve Llama 3.1 8B to 50 users. Hardware budget: $200k.",
        "Serve Llama 3.1 8B to 50 users; one-off budget of $150k for the servers.",
        "Serve Llama 3.1 8B to 50 users. CAPEX of $120k approved.",
    ],
)
def test_other_capex_wordings(text: str) -> None:
    assert RulesExtractor().extract(text).budget_capex is True


@pytest.mark.parametrize(
    "text",
    [
        "Serve Llama 3.1 8B to 50 users. Opex budget $5k/month.",
        "Capex or opex? Serve Llama 3.1 8B to 50 users.",
    ],
)
def test_a_monthly_budget_or_a_bare_question_is_not_capex(text: str) -> None:
    assert RulesExtractor().extract(text).budget_capex is None


def test_the_answer_holds_the_budget_against_purchases() -> None:
    out = ask(R02)
    reply = str(out["reply"])
    assert "compared with one month" not in reply
    assert "one-off purchase (capex)" in reply
    primary = out["recommendation"]["primary"]
    assert primary["pricing"] == "owned"  # a purchase, held to the capex budget
    assert primary["meets_budget"] is True
