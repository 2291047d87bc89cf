"""A buy priced from an old catalog figure is flagged (expert review 15, R02: 8x A100 40GB "to buy" at
$10,000 per GPU from 2023-24 press reports, with no word on the price's age)."""

from __future__ import annotations

import datetime as dt

import pytest

from advisor.api import ask
from tools.catalog.load import load_catalog
from tools.recommend.purchase_age import PURCHASE_PRICE_STALE_MONTHS, catalog_date, price_age_months

R02 = (
    "We need to serve Llama 3.1 70B Instruct internally for about 200 employees, peak 40 concurrent "
    "users, target 25 tokens/s per user. Capex budget is $250k. Which servers and how many do you "
    "recommend?"
)


def test_every_catalog_purchase_price_is_dated() -> None:
    for g in load_catalog().gpus:
        if g.purchase_price_usd is not None:
            assert g.purchase_price_as_of is not None, g.id
            # the date is the latest year its source names (tools/catalog/gpus.yaml header)
            assert str(g.purchase_price_as_of.year) in (g.purchase_price_source or ""), g.id


def test_price_age_in_months() -> None:
    assert price_age_months(dt.date(2024, 1, 1), dt.date(2026, 11, 1)) == pytest.approx(34.0, abs=0.1)
    assert price_age_months(dt.date(2026, 12, 1), dt.date(2026, 11, 1)) == 0.0
    assert catalog_date(load_catalog()) is not None


def test_r02_a100_buy_says_its_price_is_old() -> None:
    reply = str(ask(R02)["reply"])
    head = next(line for line in reply.splitlines() if line.startswith("Recommended:"))
    assert "(to buy)" in head
    why = next(line for line in reply.splitlines() if line.startswith("Why:"))
    # gpus.yaml: A100 40GB SXM priced from "press reports 2023-2024" -> 2024-01-01, > 12 months before
    # the catalog's newest rental price (2026-11)
    assert "purchase price of the NVIDIA A100 40GB SXM4 dates from Jan 2024" in why
    assert "may be end of life" in why
    assert PURCHASE_PRICE_STALE_MONTHS == 12


def test_a_price_the_user_states_is_not_flagged() -> None:
    reply = str(ask(
        "We want to buy an 8x H100 server for about $250k to serve Llama 3.1 70B to 40 concurrent users at "
        "25 tokens/s each. Is it enough?"
    )["reply"])  # fmt: skip
    assert "dates from" not in reply
