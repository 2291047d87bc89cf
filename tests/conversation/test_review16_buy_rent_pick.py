"""Expert review 16, R19 turn 3: asked to buy instead, the pick was 8x MI300X (nobody rents it in the
catalog) but the "Buy vs rent" paragraph was about 16x A100 40GB. The paragraph is the pick's: its rent side
is the best rental doing the same work (tools/recommend/advise.py _best_rental)."""

from __future__ import annotations

import re

import pytest

from advisor.conversation import Conversation


def _pick_and_buy_rent(reply: str) -> tuple[str, str]:
    pick = re.search(r"^Recommended: (\d+x [^\n]+?) at ", reply, re.M)
    bvr = re.search(r"^Buy vs rent \((\d+x [^,]+),", reply, re.M)
    assert pick is not None and bvr is not None, reply
    return pick.group(1), bvr.group(1)


@pytest.mark.parametrize(
    "turn3",
    [
        "What if we buy the hardware instead? 3-year horizon.",
        "we'd rather buy servers instead, over 3 years",
        "Buy instead of rent - 3 year horizon, on prem.",
    ],
)
def test_r19_buy_vs_rent_describes_the_pick(turn3: str) -> None:
    c = Conversation(explain=False)
    c.send("We want to serve Llama 3.1 70B internally.")
    c.send("100 concurrent users, 20 tok/s each, 4k context.")
    pick, bought = _pick_and_buy_rent(c.send(turn3).reply)
    assert pick == bought


def test_r19_near_miss_a_rented_pick_with_a_horizon_keeps_its_own_paragraph() -> None:
    c = Conversation(explain=False)
    c.send("We want to serve Llama 3.1 70B internally for 100 concurrent users, 20 tok/s each, 4k context.")
    reply = c.send("Should we buy or rent over 3 years?").reply
    pick, bought = _pick_and_buy_rent(reply)
    assert pick == bought
