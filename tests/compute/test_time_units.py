"""The time and speed conversions of tools.units (the one module that converts units)."""

from __future__ import annotations

import pytest

from tools.units import (
    ms_per_token_to_tokens_per_s,
    ms_to_seconds,
    seconds_to_ms,
    tokens_per_s_to_ms_per_token,
)


def test_milliseconds_and_seconds_round_trip() -> None:
    assert ms_to_seconds(1500.0) == pytest.approx(1.5)
    assert seconds_to_ms(0.2) == pytest.approx(200.0)
    assert ms_to_seconds(seconds_to_ms(3.7)) == pytest.approx(3.7)


def test_a_streams_ms_per_token_and_tokens_per_s_are_reciprocal() -> None:
    # 20 ms per output token is 50 tokens/s for that stream; 10 tokens/s is 100 ms per token
    assert ms_per_token_to_tokens_per_s(20.0) == pytest.approx(50.0)
    assert tokens_per_s_to_ms_per_token(10.0) == pytest.approx(100.0)
    assert tokens_per_s_to_ms_per_token(ms_per_token_to_tokens_per_s(33.0)) == pytest.approx(33.0)
