"""Expert review 20, R07/P07: a reserved-term question on an endpoint gets the term's dollar figures
(tools.recommend.reserved_answer), in words other than the review's; near misses get none."""

from __future__ import annotations

import pytest

from advisor.api import ask
from advisor.conversation import Conversation
from advisor.extract.rules import RulesExtractor

SERVE = "We keep Qwen2.5 32B up around the clock for about 12 concurrent users at 8k context."


def _reserved(out: dict) -> dict | None:  # type: ignore[type-arg]
    checks = out["recommendation"]["expectation_checks"]
    return next((c for c in checks if c["claim"].startswith("reserved ")), None)


@pytest.mark.parametrize(
    ("question", "months"),
    [
        ("What would an annual prepay come to?", 12.0),
        ("How much if we commit for 12 months up front?", 12.0),
        ("Would a 3-year reservation be cheaper?", 36.0),
    ],
)
def test_a_reserved_term_question_gets_its_figures(question: str, months: float) -> None:
    turn = Conversation(explain=False).send(f"{SERVE} {question}")
    rec = turn.recommendation
    assert rec is not None and rec.primary is not None
    assert rec.profile.reserved_months_asked == months
    check = next((c for c in rec.expectation_checks if c.claim.startswith("reserved ")), None)
    assert check is not None and check.leads and "$" in check.explanation
    steps = {s.step: s for s in rec.trace}
    pick = steps["reserved_answer_pick_usd_per_month"]
    whole = steps["reserved_answer_pick_usd_for_term"]
    # the term's amount is the month's figure x the term's months (a term bills every hour)
    assert whole.output == pytest.approx(pick.output * months, rel=1e-9)
    assert pick.inputs["n_gpus"] == rec.primary.total_gpus
    if rec.primary.pricing == "on_demand":
        assert pick.output < steps["reserved_answer_on_demand_usd_per_month"].output


def test_the_question_is_not_listed_as_unanswered() -> None:
    turn = Conversation(explain=False).send(f"{SERVE} And what about a one-year reserved term?")
    assert "could not answer" not in turn.reply
    assert turn.reply.split("\n\n")[1].startswith("Reserved 1 year:")


@pytest.mark.parametrize(
    "text",
    [
        SERVE + " What will it cost per month?",  # no term asked
        "We hold a 1-year reservation of 16 H100s on AWS. Serve Llama 3.1 70B to 40 users; what's the cost?",
        "We signed a 1-year commitment with Lambda.",  # said, not asked
    ],
)
def test_no_term_asked_no_reserved_answer(text: str) -> None:
    assert RulesExtractor().extract(text).reserved_months_asked is None


def test_a_training_job_gets_no_reserved_answer() -> None:
    out = ask("LoRA of Llama 3.1 8B on 200M tokens. How does that compare with paying for a year up front?")
    assert _reserved(out) is None
