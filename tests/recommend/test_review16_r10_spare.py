"""Expert review 16, R10: "public API on Mixtral 8x7B, 500 requests/min at peak" got a single GPU, no spare
replica. A production endpoint with no uptime figure is now planned N+1 (advisor/extract/rules_availability.py
reads the wording as 99.9%, tools.recommend.serving_spare names it as an assumption); an internal tool or a
batch job is not."""

from __future__ import annotations

from typing import Any

import pytest

from advisor.api import ask

R10 = (
    "public API on Mixtral 8x7B, 500 requests/min at peak, 1k input and 300 output tokens each, p95 TTFT "
    "under 2 s. Cheapest on-demand setup with US providers?"
)
INTERNAL = (
    "internal tool on Mixtral 8x7B, 500 requests/min at peak, 1k input and 300 output tokens each, p95 TTFT "
    "under 2 s. Cheapest on-demand setup with US providers?"
)


@pytest.fixture(scope="module")
def r10() -> dict[str, Any]:
    return ask(R10)


def test_public_api_gets_a_spare_replica_priced_in(r10: dict[str, Any]) -> None:
    s = r10["recommendation"]["primary"]["serving"]
    assert s["spare_replicas"] == 1 and s["replicas"] >= 2
    # the cost counts every replica, the spare included
    o = r10["recommendation"]["primary"]
    assert o["total_gpus"] == s["replicas"] * s["tensor_parallel"] * s["engine_copies"] * s["pipeline_stages"]


def test_reply_names_the_assumption(r10: dict[str, Any]) -> None:
    reply = str(r10["reply"])
    assert "(N+1 redundancy)" in reply
    assert '("public API": 99.9% uptime assumed' in reply
    assert "say if one replica is fine" in reply


def test_internal_tool_keeps_one_replica_without_a_spare() -> None:
    out = ask(INTERNAL)
    s = out["recommendation"]["primary"]["serving"]
    assert s["spare_replicas"] == 0
    assert "N+1" not in str(out["reply"])
