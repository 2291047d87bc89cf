"""Time-to-first-token targets in general forms (advisor/extract/rules_ttft.py): a bound in words, the
answer seen starting, the target said after today's measurement; and a measurement alone is no target."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tools.profile import WorkloadProfile

Extract = Callable[..., WorkloadProfile]

SERVE = "We serve Llama 3.1 8B to 100 concurrent users. "


@pytest.mark.parametrize(
    ("text", "seconds"),
    [
        ("First token within half a second.", 0.5),
        ("Users should see the answer start within 2 seconds.", 2.0),
        ("TTFT was 3 s, needs to be under 1 s.", 1.0),
        ("p95 TTFT: 800 ms", 0.8),
    ],
)
def test_ttft_targets(extract: Extract, text: str, seconds: float) -> None:
    assert extract(SERVE + text).ttft_target_s == pytest.approx(seconds)


@pytest.mark.parametrize(
    "text",
    [
        "Our current TTFT is 3 s, which is too slow.",
        "Today we measured a TTFT of 4 s on the old box.",
    ],
)
def test_measured_ttft_is_no_target(extract: Extract, text: str) -> None:
    assert extract(SERVE + text).ttft_target_s is None
