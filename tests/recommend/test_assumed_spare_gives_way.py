"""An uptime ASSUMED from production wording (no figure stated) plans a spare replica, but a GPU cap the
user stated wins over it: evals v14-serve-notebook-deepseek-one-node ("must fit on ONE node, max 8 GPUs ...
NO spot: this is the production endpoint") became "Nothing in the catalog fits" once srv14's N+1 was merged
(the spare needed 16 GPUs). Now the pick stays within the cap and the reply says the spare was left out; a
STATED uptime figure with the same cap is still a conflict the reply reports."""

from __future__ import annotations

from typing import Any

import pytest

from advisor.api import ask

CAPPED = (
    "Serve DeepSeek-V3 (FP8 weights) on one node, max 8 GPUs, no spot: this is the production endpoint. "
    "48 concurrent requests, 6000 prompt tokens, 1000 output tokens, 20 tokens/s per request."
)


@pytest.fixture(scope="module")
def capped() -> dict[str, Any]:
    return ask(CAPPED)


def test_a_gpu_cap_wins_over_an_assumed_spare(capped: dict[str, Any]) -> None:
    primary = capped["recommendation"]["primary"]
    assert primary is not None and primary["total_gpus"] <= 8
    assert primary["serving"]["spare_replicas"] == 0
    assert "no spare replica" in str(capped["reply"]) and "GPU limit" in str(capped["reply"])


def test_without_a_cap_the_spare_stays() -> None:
    # near miss: same production wording, room for a second node: N+1 as before (review 16, R10)
    reply = ask(CAPPED.replace(" on one node, max 8 GPUs,", ""))
    primary = reply["recommendation"]["primary"]
    assert primary is not None and primary["serving"]["spare_replicas"] == 1
    assert "(N+1 redundancy)" in str(reply["reply"])


def test_a_stated_uptime_with_the_same_cap_is_not_silently_dropped() -> None:
    stated = ask(CAPPED.replace("this is the production endpoint", "99.9% uptime required"))
    primary = stated["recommendation"]["primary"]
    # a stated figure is never traded away quietly: either no pick within 8 GPUs meets it, or the pick has it
    assert primary is None or primary["serving"]["spare_replicas"] == 1
