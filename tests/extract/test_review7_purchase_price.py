"""Expert review 7, R20: a price stated for the machine to buy ("buy an 8x H100 server (~$250k) or
rent?") is the purchase in buy vs rent, not a budget, and with no job given the buy-vs-rent answer leads
instead of an assumed 100M-token job (evals/reviews/2026-11-27-expert-review-7.md)."""

from __future__ import annotations

import pytest

from advisor.api import ask
from advisor.extract.rules import RulesExtractor

R20 = (
    "Should we buy an 8x H100 server (~$250k) or rent? We'd use it about 60% of the time for fine-tuning "
    "Llama 3.1 8B and running evals, over 3 years."
)


def test_review_phrasing_is_a_purchase_price_not_a_budget() -> None:
    p = RulesExtractor().extract(R20)
    assert p.purchase_usd_per_gpu == pytest.approx(250_000 / 8)
    assert p.purchase_gpu == "h100-sxm"
    assert p.budget_usd is None


@pytest.mark.parametrize(
    ("text", "per_gpu", "gpu"),
    [
        ("An 8x H100 box for ~$250k, buy or rent? 3 years.", 31_250, "h100-sxm"),
        ("We got a quote of $240k for an 8x H200 node. Buy or keep renting?", 30_000, "h200"),
        ("The 8x H100 server costs $250k; is buying worth it over 3 years?", 31_250, "h100-sxm"),
    ],
)
def test_other_wordings(text: str, per_gpu: float, gpu: str) -> None:
    p = RulesExtractor().extract(text)
    assert p.purchase_usd_per_gpu == pytest.approx(per_gpu)
    assert p.purchase_gpu == gpu


@pytest.mark.parametrize(
    "text",
    ["We have $250k to spend on renting 8x H100 for LoRA of Llama 3 8B.", "Buy 8x H100 at $2.50/h?"],
)
def test_a_rental_budget_or_a_rate_is_no_purchase_price(text: str) -> None:
    assert RulesExtractor().extract(text).purchase_usd_per_gpu is None


def test_the_answer_uses_the_stated_price_and_leads_with_buy_vs_rent() -> None:
    out = ask(R20)
    reply = str(out["reply"])
    assert "purchase $250,000" in reply and "$312,000" not in reply
    body = reply.split("\n\n", 1)[1]  # after what was understood
    # the purchase question's verdict, then its block (expert review 19, R13), before the example job
    assert body.startswith("Buying 8x NVIDIA H100"), body[:200]
    assert body.index("Buy vs rent") < body.index("For one example job")
    assert "For one example job" in reply
    assert "or rent?" not in str(out["input_account"]["unused"])


def test_a_stated_job_keeps_its_headline() -> None:
    reply = str(ask("Buy an 8x H100 server (~$250k) or rent? LoRA Llama 3.1 8B on 2B tokens a month, over "
                    "3 years.")["reply"])  # fmt: skip
    assert "For one example job" not in reply and "purchase $250,000" in reply
