"""Electricity prices in other currencies and per 'unit' (evals v14, development data; issue 12): variants
of our own and near misses. USD values come from the catalog's FX rates, so the tests compare with the
same conversion (advisor.extract.units_text.usd_per_kwh_from), not with figures typed here."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from advisor.extract.units_text import usd_per_kwh_from
from tools.profile import WorkloadProfile

Extract = Callable[..., WorkloadProfile]
_OWNED = "We own 8 L40S. Serve Qwen2.5 32B. "


@pytest.mark.parametrize(
    ("said", "amount", "currency", "cents"),
    [
        ("Power here is 31c/kWh (AUD).", 31.0, "AUD", True),
        ("Power here is AUD 0.31/kWh.", 0.31, "AUD", False),  # was read as 0.31 USD
        ("Electricity tariff is ₹9 per unit.", 9.0, "INR", False),
        ("Our power contract: SEK 1.2 per kWh.", 1.2, "SEK", False),
    ],
)
def test_power_price_in_other_currency(extract: Extract, said: str, amount: float, currency: str,
                                       cents: bool) -> None:  # fmt: skip
    p = extract(_OWNED + said)
    assert p.power_price_usd_per_kwh == pytest.approx(usd_per_kwh_from(amount, currency, cents).value)


@pytest.mark.parametrize(
    ("said", "expected"),
    [
        ("Each GPU costs ₹9 per unit of throughput.", None),  # a 'unit' not of electricity
        ("Power costs 31 cents per kWh.", 0.31),  # plain US cents: the first reading stands
    ],
)
def test_power_price_near_misses(extract: Extract, said: str, expected: float | None) -> None:
    assert extract(_OWNED + said).power_price_usd_per_kwh == expected
