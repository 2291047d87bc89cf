"""Expert review 14, problem 5: clauses whose fact was read and honoured were listed under "I did not use"
(R07 "no AWS" beside "excluded providers aws", R13 "on-demand (no spot)" beside "pricing ruled out spot",
R19 turn 3 "same traffic?" with the traffic kept, R10 "the reservation" beside the held 8x H200). A clause
naming only facts the answer holds is used; one naming a fact it does not hold stays listed."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, cast

import pytest

from advisor.api import ask
from advisor.conversation import Conversation
from advisor.extract.honoured_clauses import honoured_clause
from tools.profile import WorkloadProfile


def _rec(nodes: int = 1, **fields: Any) -> Any:
    return cast(Any, SimpleNamespace(profile=WorkloadProfile(**fields), primary=SimpleNamespace(nodes=nodes)))


@pytest.mark.parametrize(
    ("text", "fields"),
    [
        ("no AWS please", {"providers_excluded": ["aws"]}),
        ("and we dont want AWS", {"providers_excluded": ["aws"]}),
        ("on-demand (no spot)", {"pricing_excluded": ["spot"]}),
        ("the reservation", {"owned_reserved": True}),
        ("same traffic?", {"concurrency": 300}),
        ("EU only please", {"eu_only": True}),
    ],
)
def test_a_clause_the_answer_holds_is_used(text: str, fields: dict[str, Any]) -> None:
    assert honoured_clause(text, _rec(**fields))


@pytest.mark.parametrize(
    ("text", "fields"),
    [
        ("no AWS please", {"providers_excluded": ["gcp"]}),  # another provider excluded
        ("no AWS, but GCP is fine", {"providers_excluded": ["aws"]}),  # GCP preferred: not read
        ("on-demand (no spot)", {}),  # nothing read about spot
        ("no AWS, max 4 GPUs", {"providers_excluded": ["aws"]}),  # a figure of its own
        ("same traffic?", {}),  # nothing kept
        ("no AWS because of the SOC2 audit", {"providers_excluded": ["aws"]}),  # a reason with a fact unread
    ],
)
def test_a_clause_with_a_fact_not_held_stays_listed(text: str, fields: dict[str, Any]) -> None:
    assert not honoured_clause(text, _rec(**fields))


def _unused(reply: str) -> str:
    return reply.split("I did not use:", 1)[1].split("\n\n", 1)[0] if "I did not use:" in reply else ""


def test_no_aws_please_is_not_listed_as_unused() -> None:
    out = ask(
        "we want to serve Mixtral 8x7B as an API, 2,000 requests per hour, 800 tokens in and 200 out, "
        "latency not important, cheapest per month and no AWS please"
    )
    assert "aws" not in _unused(str(out["reply"])).lower()


def test_on_demand_no_spot_is_not_listed_as_unused() -> None:
    out = ask(
        "Llama 3.1 8B chat for 50 concurrent users, at least 30 tok/s per user, EU only, on-demand (no spot)."
    )
    assert "spot" not in _unused(str(out["reply"]))


def test_same_traffic_in_a_later_turn_is_not_listed() -> None:
    chat = Conversation(explain=False)
    chat.send("We serve Qwen2.5 7B to 300 concurrent sessions at 40 tok/s each, 2k-token prompts.")
    turn = chat.send("And Llama 3.1 70B instead, same traffic?")
    assert "same traffic" not in _unused(turn.reply)
