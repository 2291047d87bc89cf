"""Expert review 18's left-overs through the conversation path (advisor.conversation.Conversation) and the
one-shot reply, in words other than the review's:

- R17: the cadence said in any form sets the utilisation the buy-vs-rent block and the pick use: a what-if
  purchase that renting beats gives way to the rental, with one utilisation in the reply; the cards named in
  the what-if are the ones weighed, even said in one message; GPUs nobody rents give way to the rental that
  does the same work;
- R15: a time limit said in a later turn is the deadline, and the job stays a training job;
- R08: a vendor's count is answered as the vendor's claim, never as "you said"."""

from __future__ import annotations

import re

import pytest

from advisor.api import ask
from advisor.conversation import Conversation

CPT = "We continually pretrain Mistral 7B on filings, 15B tokens a run"


def _why(reply: str) -> str:
    return next(line for line in reply.splitlines() if line.startswith("Why:"))


@pytest.mark.parametrize("cadence", ["quarterly", "twice a year", "4 times a year"])
def test_a_cadence_in_any_form_sets_the_buy_vs_rent_use(cadence: str) -> None:
    c = Conversation(explain=False)
    c.send(f"{CPT}, {cadence}.")
    turn = c.send("what if we purchased our own 16 H100s rather than renting? when would that pay off?")
    rec = turn.recommendation
    assert rec is not None and rec.primary is not None and rec.buy_vs_rent is not None
    assert rec.buy_vs_rent.n_gpus == 16 and rec.buy_vs_rent.utilization < 0.1
    assert rec.primary.deployment == "cloud"  # a few runs a year: renting wins
    uses = set(re.findall(r"(\d+)% use", turn.reply))
    assert len(uses) == 1 and "30" not in uses, uses  # one utilisation, the runs', not the 30% default
    assert "rent, not buy" in _why(turn.reply)


def test_the_cadence_said_after_the_buy_turn_moves_the_pick_to_the_rental() -> None:
    c = Conversation(explain=False)
    c.send(f"{CPT}.")
    c.send("what if we bought 16 H100s instead of renting?")
    turn = c.send("we'd run it 4 times a year")
    rec = turn.recommendation
    assert rec is not None and rec.primary is not None and rec.buy_vs_rent is not None
    assert rec.buy_vs_rent.n_gpus == 16 and rec.buy_vs_rent.gpu_name is not None
    assert "H100" in rec.buy_vs_rent.gpu_name and rec.primary.deployment == "cloud"


def test_one_message_with_cadence_and_a_buy_what_if_weighs_the_cards_named() -> None:
    out = ask(f"{CPT}, every quarter. What if we bought our own 16 H100s instead of renting?")
    prof, rec = out["profile"], out["recommendation"]
    assert prof["claimed_gpu_count"] == 16 and prof["owned_gpu"] is None
    assert rec["primary"]["pricing"] != "owned" and rec["primary"]["total_gpus"] == 16


def test_a_what_if_purchase_of_cards_nobody_rents_gives_way_to_the_rental() -> None:
    # no count named: the engine sizes the cheapest purchase (8 RTX 5090s, which no provider in the catalog
    # rents); renting 8 B200s for the same work costs less over the 36 months
    c = Conversation(explain=False)
    turn = c.send(
        "Continual pretraining of Llama 3.1 8B, 20B tokens per run, quarterly. What if we bought our own "
        "GPUs instead of renting?"
    )
    rec = turn.recommendation
    assert rec is not None and rec.primary is not None and rec.buy_vs_rent is not None
    assert rec.buy_vs_rent.rented_instead is not None
    assert rec.primary.deployment == "cloud"
    assert "for the same work" in _why(turn.reply)


@pytest.mark.parametrize(
    "limit", ["12 hours is our limit", "we can't go over 12 h", "anything over 12h is too long"]
)
def test_a_time_limit_in_a_later_turn_is_the_deadline_of_the_job(limit: str) -> None:
    c = Conversation(explain=False)
    c.send("We want to fine-tune Qwen2.5 7B with LoRA for ticket triage. About 300M tokens.")
    turn = c.send(f"EU hosting please, and {limit}.")
    p = turn.profile
    assert p.workload == "fine_tuning" and p.deadline_hours == pytest.approx(12)
    assert "did not understand it" not in turn.reply
    assert "meets the 12 h deadline" in turn.reply


def test_a_vendors_count_is_answered_as_the_vendors_claim() -> None:
    c = Conversation(explain=False)
    turn = c.send(
        "Our reseller insists we need 4x H100 to serve Llama 3.1 8B for 40 concurrent users at 8k context. "
        "Sounds like overkill?"
    )
    assert turn.profile.claim_source == "your reseller"
    assert "you said" not in turn.reply
    check = next(line for line in turn.reply.splitlines() if line.startswith("Check:"))
    assert check.startswith("Check: Fewer do it (your reseller's claim: at least 4x")
    assert "not the minimum" in check
