"""A token rate whose sentence names the reader is each stream's speed (latency per token), not the
service's total (advisor/extract/rules_stream_speed.py); a rate of the whole stays the target."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tools.profile import WorkloadProfile

Extract = Callable[..., WorkloadProfile]

SERVE = "We serve Qwen2.5 14B with vLLM, 250 people chatting at the same time. "


@pytest.mark.parametrize(
    ("text", "ms_per_token"),
    [
        ("People complain when it types slower than ~15 tokens a second.", 1000 / 15),
        ("Each session shall receive output at no less than 20 tokens per second.", 50.0),
        ("It must stay ahead of speech: at least 12 words per second per call, call it 16 tokens/s.", 62.5),
        ("Targets: >= 60 tok/s per completion stream.", 1000 / 60),
    ],
)
def test_reader_speed_is_latency(extract: Extract, text: str, ms_per_token: float) -> None:
    p = extract(SERVE + text)
    assert p.latency_ms_per_token == pytest.approx(ms_per_token)
    assert p.target_tokens_per_s is None  # the aggregate reading is withdrawn


@pytest.mark.parametrize(
    ("text", "target"),
    [
        ("We need 2,000 tokens/s aggregate throughput.", 2000.0),
        ("The service must sustain 90 tokens/s across all users.", 90.0),
        ("Each user adds load; the cluster needs 400 tokens/s.", 400.0),  # a word of the whole
    ],
)
def test_rate_of_the_whole_stays_target(extract: Extract, text: str, target: float) -> None:
    p = extract(SERVE + text)
    assert p.target_tokens_per_s == target
    assert p.latency_ms_per_token is None
