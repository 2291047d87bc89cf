"""The chat's templated lines write each profile value as the report does (tools.present), units included."""

from __future__ import annotations

import pytest

from advisor.llm.templates import format_value
from reports.labels import field_value


@pytest.mark.parametrize(
    ("name", "value", "text"),
    [
        ("target_tokens_per_s", 4000, "4,000 tokens/s"),  # before: 'target output rate 4,000' in chat
        ("latency_ms_per_token", 50, "50 ms/token"),
        ("power_price_usd_per_kwh", 0.12, "$0.12/kWh"),  # before: '0.12' in the report's table
    ],
)
def test_rates_and_prices_carry_their_units_in_chat_and_report(name: str, value: float, text: str) -> None:
    assert format_value(name, value) == text
    assert field_value(name, value) == text
