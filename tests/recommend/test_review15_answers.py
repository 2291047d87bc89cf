"""Expert review 15: replies on the review's own phrasing (R02, R09, R13, R17, R19 turn 3) and the one
compact money range (R18: '$4,526/month', never '$4,526-4,526/month')."""

from __future__ import annotations

import pytest

from advisor.api import ask
from advisor.conversation import Conversation
from tools import present
from tools.ranges import Range

R09 = (
    "We want to run full-parameter DPO on Llama 3.1 70B with 60k preference pairs, about 1.5k tokens per "
    "pair. What's the minimum setup? We are on CoreWeave."
)
R13 = (
    "We need to LoRA fine-tune Gemma 2 27B on 400M tokens. No B200 please, our stack isn't ready for "
    "Blackwell. US providers only. Cheapest option that finishes within 48 hours?"
)


def _unused(reply: str) -> str:
    return reply.split("Recommended:")[0]


def test_r09_rents_at_the_teams_provider_and_answers_the_minimum() -> None:
    reply = str(ask(R09)["reply"])
    assert "your provider (only it is priced) coreweave" in reply
    assert "Recommended: 16x NVIDIA B200 (HGX, 180GB) at coreweave" in reply
    # 16 x 70 + 2 x 70 GB of states over 16 GPUs + activations: 93.7 GiB per B200; 8 do not hold it (review)
    assert "It is the minimum set-up: no option with fewer GPUs holds it." in reply
    assert "minimum setup" not in _unused(reply)


@pytest.mark.parametrize("where", ["US providers only.", "Everything has to stay in the US."])
def test_r13_primary_has_a_us_region_the_catalog_confirms(where: str) -> None:
    reply = str(ask(R13.replace("US providers only.", where))["reply"])
    head = next(line for line in reply.splitlines() if line.startswith("Recommended:"))
    assert "region not listed" not in head and "spheron" not in head
    why = next(line for line in reply.splitlines() if line.startswith("Why:"))
    # placed in the US by its own region or its provider's sourced region list (tools/catalog/prices.yaml)
    assert "US region " in why or "US data centres on" in why
    # a marketplace with no region list is left out, not shown as a US alternative (expert review 20, R02)
    assert "spheron" not in reply and "region not listed" not in reply


def test_r13_near_miss_without_a_us_requirement_says_nothing_of_regions() -> None:
    reply = str(ask(R13.replace(" US providers only.", ""))["reply"])
    assert "region not listed" not in reply and "US data centres" not in reply


def test_r17_sizes_a_7b_pretrain() -> None:
    reply = str(ask(
        "We're scoping a 7B pretrain on 1T tokens. H100 vs H200 vs B200: which is cheapest per run, and how "
        "many GPUs do we need to finish in 30 days?"
    )["reply"])  # fmt: skip
    assert "Say which model" not in reply
    # 6 x 7e9 x 1e12 = 4.2e22 FLOP: B200 cheapest per run (review: $77-116k own arithmetic, tool $78-174k)
    assert "Recommended: 64x NVIDIA B200" in reply


def test_r02_which_servers_and_how_many_is_answered() -> None:
    reply = str(ask(
        "We need to serve Llama 3.1 70B Instruct internally for about 200 employees, peak 40 concurrent "
        "users, target 25 tokens/s per user. Capex budget is $250k. Which servers and how many do you "
        "recommend?"
    )["reply"])  # fmt: skip
    assert "Recommended:" in reply and "Which servers" not in _unused(reply)


def test_r19_turn3_can_we_use_those_is_answered() -> None:
    c = Conversation(explain=False)
    c.send("I want to fine-tune Qwen2.5 72B.")
    c.send("QLoRA, about 100M tokens, sequence length 4k.")
    reply = c.send("We already have 2x A100 80GB in house - can we use those? How long would it take?").reply
    assert "Yes: on 2x NVIDIA A100 80GB SXM4 it fits" in reply
    assert "can we use those" not in _unused(reply)


@pytest.mark.parametrize(
    ("low", "high", "unit", "text"),
    [
        (4526.2, 4526.4, "/month", "$4,526/month"),  # R18: a collapsed range is one figure
        (4526.0, 4870.0, "/month", "$4,526-4,870/month"),
        (2.85, 3.10, "", "$2.85-3.10"),
        (1_250_000.0, 1_260_000.0, "", "$1.25M-1.26M"),
    ],
)
def test_one_compact_money_range(low: float, high: float, unit: str, text: str) -> None:
    assert present.usd_span(Range(low=low, high=high), unit) == text


def test_r18_turn1_also_offered_prints_one_figure() -> None:
    turn = Conversation(explain=False).send("serve a chat assistant on Llama 3.1 70B for our customers")
    reply = turn.reply
    # review 15, R18: nebius sells the same 4x L40S at one monthly price: 4 x $1.55 x 730 h = $4,526
    assert "also offered by nebius ($4,526/month)" in reply
    assert "$4,526-4,526" not in reply
