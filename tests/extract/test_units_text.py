"""Unit conversions used by extraction: each value and the arithmetic recorded as evidence."""

from __future__ import annotations

import datetime as dt
import math

import pytest

from advisor.extract import units_text as U


def test_gb_of_text_to_tokens_at_four_bytes_per_token() -> None:
    # OpenAI tokenizer guidance: ~4 characters (bytes, for ASCII English) per token.
    c = U.tokens_from_gb(500)
    assert c.value == pytest.approx(1.25e11)
    assert "4 B/token" in c.how and "500 GB" in c.how


def test_words_pages_and_items() -> None:
    assert U.tokens_from_words(3e6).value == pytest.approx(4e6)  # 4/3 tokens per word
    assert U.tokens_from_pages(60_000).value == pytest.approx(60_000 * 500 * 4 / 3)
    assert U.tokens_from_items(50_000, 800).value == 4e7
    assert U.tokens_from_items_words(1000, 300).value == pytest.approx(4e5)


def test_currency_conversion_names_its_rate() -> None:
    eur = U.usd_from(20_000, "EUR")
    rate = U.usd_per_unit("EUR")
    assert rate is not None and rate.as_of.year >= 2025 and "ECB" in rate.source
    assert eur.value == pytest.approx(20_000 * rate.value)
    assert "USD/EUR" in eur.how and "ECB" in eur.how
    assert U.usd_from(5000, "USD").value == 5000


@pytest.mark.parametrize(
    ("amount", "unit", "hours"),
    [(48, "hour", 48), (5, "day", 120), (2, "week", 336), (3, "month", 2190), (1, "year", 8760)],
)
def test_durations_in_hours(amount: float, unit: str, hours: float) -> None:
    assert U.hours_from(amount, unit).value == pytest.approx(hours)


def test_cadence_to_runs_per_month() -> None:
    assert U.runs_per_month_from(1, "week").value == pytest.approx(730 / 168)
    assert U.runs_per_month_from(20, "month").value == 20
    assert U.runs_per_month_from(1, "quarter").value == pytest.approx(1 / 3)
    assert U.runs_per_month_from(1, "day").value == pytest.approx(730 / 24)


def test_schedule_utilisation_and_hours_until() -> None:
    assert U.utilization_from_schedule(8, 5).value == pytest.approx(40 / 168)
    ref = dt.datetime(2026, 11, 18, 9, tzinfo=dt.UTC)
    c = U.hours_until(ref, dt.datetime(2026, 11, 21, tzinfo=dt.UTC), "by Friday")
    assert math.isclose(c.value, 63.0)
    assert "by Friday" in c.how
