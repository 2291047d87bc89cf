"""Expert review 19's answers (evals/reviews/2026-11-28-expert-review-19.md, R13/P13, R19/P19, R05) in
words other than the review's, through the conversation: a purchase question opens with the buy-vs-rent
verdict (never a bare "Yes: ... it fits"), and says "No" when the cadence leaves the purchase idle; a price
question about the fleet rented now is answered per provider with or without a model, its provider no
requirement. Figures are the tools' own (tools.capacity_price, the recommendation's buy-vs-rent timeline),
not the review's."""

from __future__ import annotations

import pytest

from advisor.api import ask
from advisor.conversation import Conversation
from tools.capacity_price import capacity_prices
from tools.catalog.load import load_catalog
from tools.present import usd


def _checks(out: dict) -> list[dict]:  # type: ignore[type-arg]
    return list(out["recommendation"]["expectation_checks"])


@pytest.mark.parametrize(
    "text",
    [
        "We refresh our Mistral 7B fine-tune (full, 3B tokens) twice a year. Does owning an 8x H100 server "
        "make sense for us, or should we keep renting?",
        "Each quarter we retrain Llama 3.1 8B (full fine-tune) on about 4B tokens. Would getting our own 8x "
        "H100 box be cheaper than the cloud? No spot please.",
    ],
)
def test_an_idle_purchase_is_answered_no_first(text: str) -> None:
    out = ask(text)
    reply = out["reply"]
    verdict = _checks(out)[0]
    assert verdict["claim"].startswith("buy 8x") and verdict["verdict"] == "cannot_hold"
    assert reply.index("No: buying 8x") < reply.index("Recommended:")  # the answer comes first
    assert "does not pay off" in verdict["explanation"]
    assert "Yes: on 8x" not in reply  # the fit on the cards is no "yes, buy"
    timeline = out["recommendation"]["buy_vs_rent"]
    assert timeline is not None and timeline["utilization"] < 0.1  # what the runs fill, not a default
    assert "could not answer" not in reply


def test_a_busy_purchase_is_answered_yes() -> None:
    out = ask(
        "We serve Llama 3.3 70B around the clock to ~60 concurrent users at 8k context. Would buying our own "
        "8x H100 server be cheaper than renting?"
    )
    verdict = _checks(out)[0]
    assert verdict["verdict"] == "holds" and verdict["explanation"].startswith("Yes, buying 8x")
    t = out["recommendation"]["buy_vs_rent"]
    assert t["cheapest"] == "buy"
    assert usd(t["buy_cumulative_usd"][-1]) in verdict["explanation"]  # the block's own figure


def test_a_later_turn_asks_about_buying_the_pick() -> None:
    conv = Conversation(explain=False)
    conv.send("We serve Llama 3.1 8B for a support chatbot, about 20 concurrent users, 4k context.")
    turn = conv.send("Is it worth purchasing 2 L40S for this over 3 years?")
    rec = turn.recommendation
    assert rec is not None and rec.buy_vs_rent is not None and rec.buy_vs_rent.n_gpus == 2
    lead = rec.expectation_checks[0]
    assert lead.claim == "buy 2x NVIDIA L40S" and lead.leads
    # buying beats on demand here, yet a reservation is cheaper: neither a plain yes nor a plain no
    assert lead.verdict == "tight" and "not the cheapest" in lead.explanation


def test_near_miss_cards_owned_get_no_purchase_verdict() -> None:
    out = ask("We bought 8 H100s last year. How long to fine-tune Llama 3.1 8B (full) on 2B tokens on them?")
    assert not any(c["claim"].startswith("buy ") for c in _checks(out))


# --------------------------------------------------------------------------------- the fleet rented now
FLEET = (
    "Quick one: our Azure bill for 8x H100 (on demand) is about $90k a month. How much would the same "
    "capacity be at Nebius or CoreWeave, and on a 1-year commitment?"
)


def test_the_fleet_is_priced_per_provider_without_a_model() -> None:
    turn = Conversation(explain=False).send(FLEET)
    assert turn.recommendation is None and turn.capacity is not None
    expected = capacity_prices(
        load_catalog(), gpu="h100-sxm", n_gpus=8, providers=["nebius", "coreweave"], current_provider="azure",
        current_pricing="on_demand", stated_usd_per_month=90_000, reserved_term_months=12,
    )  # fmt: skip
    reply = turn.reply
    for ln in expected.lines:
        assert f"{usd(ln.usd_per_month)}/month" in reply, ln.provider
    assert {ln.provider for ln in turn.capacity.lines} == {"azure", "nebius", "coreweave"}
    assert "could not compute" not in reply and "could not answer" not in reply
    assert "required providers" not in reply
    assert turn.profile.pricing_excluded == []  # "on a 1-year commitment" asks a price, rules nothing out
    priced = turn.to_dict()["capacity_prices"]
    assert priced["n_gpus"] == 8
    assert any(s["step"].startswith("capacity_usd_per_month") for s in priced["trace"])


def test_the_fleet_is_priced_beside_a_job_when_a_model_is_given() -> None:
    turn = Conversation(explain=False).send(
        "We pay roughly $40,000 per month for 8x H100 on-demand on AWS, running all month, for continued "
        "pretraining of Llama 3.1 8B. How much would the same capacity be on Lambda or Nebius?"
    )
    assert turn.recommendation is not None and turn.capacity is not None
    assert turn.capacity.hours_per_month == pytest.approx(730)  # "running all month"
    assert turn.profile.providers_required == [] and turn.profile.current_provider == "aws"
    reply = turn.reply
    assert reply.index("The same capacity") < reply.index("Recommended:")
    assert "lambda-cluster" in reply and "nebius" in reply


def test_near_miss_a_policy_keeps_its_provider_and_prices_only_it() -> None:
    turn = Conversation(explain=False).send(
        "Company policy: all training must run in our AWS account. We spend around $40k a month on 8x H100 "
        "there. What would the same capacity cost with a 1-year reservation?"
    )
    assert turn.profile.providers_required == ["aws"]
    assert turn.capacity is not None and {ln.provider for ln in turn.capacity.lines} == {"aws"}


def test_a_campaign_prints_its_wall_clock_in_total() -> None:
    out = ask(
        "We will pre-train a 350M-parameter model from scratch on 7B tokens, 3 runs in total (seeds). We "
        "have 16 A100 80GB (2 nodes of 8). How long per run and for all of them?"
    )
    primary = out["recommendation"]["primary"]
    run, total = primary["wall_hours"], primary["campaign_wall_hours"]
    assert total["low"] == pytest.approx(3 * run["low"]) and total["high"] == pytest.approx(3 * run["high"])
    assert "3 runs:" in out["reply"]
    assert "How long per run" not in out["reply"]  # answered, not listed as unused


def test_the_capacity_block_is_not_repeated_on_a_later_turn() -> None:
    conv = Conversation(explain=False)
    first = conv.send(FLEET)
    assert "The same capacity" in first.reply
    later = conv.send("It's for continued pretraining of Llama 3.1 8B on 20B tokens.")
    assert later.capacity is not None  # still in the turn's figures
    assert "The same capacity" not in later.reply
    again = conv.send("And at Lambda?")
    assert "The same capacity" in again.reply and "lambda-cluster" in again.reply
