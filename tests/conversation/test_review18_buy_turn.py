"""Expert review 18, R17 (P17c): continual pre-training every quarter, then "what if we bought our own
16 H100s instead of renting? ... when does it pay off?" with the cadence read: the block said "breaks even
at never", yet the purchase was the pick, priced "at 30% use" beside "3% use", over 12, 36 and 48 months,
and "when does it pay off?" was listed as a question it could not answer."""

from __future__ import annotations

import re

from advisor.conversation import Conversation

TURNS = (
    "We do continual pretraining of Llama 3.1 8B on domain text, 20B tokens, every quarter.",
    "how long on 16 H100s?",
    "what if we bought our own 16 H100s instead of renting? we do 4 runs a year. when does it pay off?",
)


def test_r17_what_if_buy_at_a_quarterly_cadence_answers_rent() -> None:
    c = Conversation(explain=False)
    for text in TURNS:
        turn = c.send(text)
    assert turn.profile.buy_what_if is True and turn.profile.deployment_preference == "on_prem"
    rec = turn.recommendation
    assert rec is not None and rec.primary is not None and rec.buy_vs_rent is not None
    assert rec.primary.deployment == "cloud" and rec.primary.total_gpus == 16
    reply = turn.reply
    pick = next(line for line in reply.splitlines() if line.startswith("Why:"))
    assert "rent, not buy: over 36 months at 3% use" in pick and "never pays off" in pick
    assert "when does it pay off" not in reply  # answered by the block's break-even months
    # one horizon in the reply (not a price's age, "35 months before the catalog's prices")
    horizons = set(re.findall(r"(\d+)[ -]months?\b(?!\s+before)", reply))
    assert horizons <= {"36"}, horizons
    assert "30% use" not in reply


def test_near_miss_a_stated_wish_to_buy_is_not_a_what_if() -> None:
    c = Conversation(explain=False)
    for text in TURNS[:2]:
        c.send(text)
    turn = c.send("we'd rather buy our own 16 H100s than rent. we do 4 runs a year.")
    assert turn.profile.deployment_preference == "on_prem" and not turn.profile.buy_what_if
    rec = turn.recommendation
    assert rec is not None and rec.primary is not None and rec.primary.deployment == "owned"
