"""Expert review 18, the multi-turn requests: R15 turn 3 "We're in Frankfurt, so EU hosting please, and we
want it done overnight (~10 hours)." turned a LoRA plan into serving; R17 turn 1's "every quarter" was
dropped, so turn 3's buy-vs-rent ran at 30% use and found a break-even that does not exist."""

from __future__ import annotations

import pytest

from advisor.conversation import Conversation

R15 = (
    "We need to fine-tune something for code review comments.",
    "Model would be Qwen2.5 7B, LoRA. Dataset about 200k examples, each ~1,500 tokens.",
)


@pytest.mark.parametrize(
    "turn3",
    [
        "We're in Frankfurt, so EU hosting please, and we want it done overnight (~10 hours).",
        "EU hosting please, and it must finish within 10 hours.",
        "Hosting has to stay in Germany, and it needs to be done in 10 hours.",
    ],
)
def test_r15_hosting_place_keeps_the_lora_job(turn3: str) -> None:
    c = Conversation(explain=False)
    for text in R15:
        c.send(text)
    turn = c.send(turn3)
    assert turn.profile.workload == "fine_tuning" and turn.profile.method == "lora"
    assert turn.profile.eu_only is True and turn.profile.deadline_hours == pytest.approx(10)
    rec = turn.recommendation
    assert rec is not None and rec.primary is not None
    # a job in the EU (an EU region, or a provider's sourced EU data centres), not an endpoint
    assert rec.primary.cost_basis == "per_job" and (rec.primary.eu or "eu" in rec.primary.areas)


def test_r15_near_miss_serving_said_outright_is_the_next_step() -> None:
    c = Conversation(explain=False)
    for text in R15:
        c.send(text)
    turn = c.send("After that we'd serve it to ~120 users, EU hosting please.")
    # the serving step is the other workload; the profile keeps the training plan
    assert turn.profile.workload == "fine_tuning"
    assert turn.input_account is not None and turn.input_account.other_workload is not None
    assert turn.input_account.other_workload.workload == "inference"


R17 = (
    "We do continual pretraining of Llama 3.1 8B on domain text, 20B tokens, every quarter.",
    "how long on 16 H100s?",
    "what if we bought our own 16 H100s instead of renting? when does it pay off?",
)


def test_r17_cadence_carries_into_buy_vs_rent() -> None:
    c = Conversation(explain=False)
    first = c.send(R17[0])
    assert first.profile.runs_per_month == pytest.approx(1 / 3)
    c.send(R17[1])
    turn = c.send(R17[2])
    t = turn.recommendation.buy_vs_rent if turn.recommendation is not None else None
    assert t is not None
    assert t.utilization < 0.1  # four runs a year, not the 30% default
    on_demand = next(r for r in t.rents if r.basis.name.startswith("on-demand"))
    assert on_demand.break_even_month is None  # owning never pays off at this use
    assert "when does it pay off" not in turn.reply  # the timeline answers it
