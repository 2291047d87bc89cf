"""Expert review 17, R19: turn 3 "Actually we'd prefer to buy hardware rather than rent, budget $400k" was
dropped: the reply kept the runpod-secure rental and compared the $400k with one month of rent. The buy
preference replaces the rental deployment, and the budget is held against the purchase price."""

from __future__ import annotations

import pytest

from advisor.conversation import Conversation

R19 = ("serve a 70B model for our customer support bot", "200 concurrent users, 25 tok/s each")


@pytest.mark.parametrize(
    "turn3",
    [
        "Actually we'd prefer to buy hardware rather than rent, budget $400k.",
        "we would rather buy our own GPUs than rent them, budget 400k",
        "Change of plan: buy the servers instead of renting. Budget $400k",
    ],
)
def test_r19_buy_turn_replaces_the_rental(turn3: str) -> None:
    c = Conversation(explain=False)
    for text in R19:
        rented = c.send(text)
    assert rented.recommendation is not None and rented.recommendation.primary.pricing != "owned"
    turn = c.send(turn3)
    rec = turn.recommendation
    assert rec is not None and rec.primary is not None
    assert turn.profile.deployment_preference == "on_prem" and turn.profile.budget_capex is True
    assert rec.primary.pricing == "owned"  # bought, not rented
    # the purchase budget against the purchase price (tools.cost_buy via the buy-vs-rent timeline)
    assert rec.buy_vs_rent is not None and rec.buy_vs_rent.purchase_usd <= 400_000
    assert "compared with one month" not in turn.reply
    assert "I did not use" not in turn.reply


def test_r19_near_miss_a_buy_or_rent_question_keeps_the_rental() -> None:
    c = Conversation(explain=False)
    for text in R19:
        c.send(text)
    turn = c.send("should we buy hardware rather than rent? budget $400k")
    assert turn.profile.deployment_preference != "on_prem" and turn.profile.budget_capex is not True
