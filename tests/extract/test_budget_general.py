"""Budgets in general forms: an amount without a currency a few words from its cue, European cents, a
hedge glued to the figure; and near misses: money already spent, company figures, a head-count in k."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from advisor.extract.units_text import usd_per_unit
from tools.profile import WorkloadProfile

Extract = Callable[..., WorkloadProfile]

TRAIN = "LoRA fine-tune Llama 3.1 8B on 20M tokens. "
_RATE = usd_per_unit("EUR")
assert _RATE is not None
EUR_TO_USD = _RATE.value  # the catalog's dated ECB reference rate (tools/catalog/costs.yaml usd_per_eur)


@pytest.mark.parametrize(
    ("text", "budget_usd"),
    [
        ("Our budget is around 10k.", 10_000),
        ("Spend cap: 20k.", 20_000),
        ("budget five-ish k", 5_000),  # a hedge glued to the figure (rules_typos)
        ("Budget is 5k-ish.", 5_000),
        ("~7k budget, no more.", 7_000),
        ("The budget is 10.000,00 EUR.", 10_000 * EUR_TO_USD),  # European thousands and cents
        ("Budget: 85.000 €.", 85_000 * EUR_TO_USD),
        ("We have spent $5k of the $20k budget so far.", 20_000),  # the budget, not what is spent
        ("Budget is 30.000 USD, last year's project cost 45.000 USD.", 30_000),
    ],
)
def test_budget_forms(extract: Extract, text: str, budget_usd: float) -> None:
    assert extract(TRAIN + text).budget_usd == pytest.approx(budget_usd)


@pytest.mark.parametrize(
    "text",
    [
        "Last year we spent $40k on the vendor API.",  # spend to date
        "We've paid $12k so far for the vendor.",
        "Last year's fine-tuning project cost 45.000 USD.",  # an earlier project's figure
        "We're a 3k-person company, budget not set yet.",  # a head-count in k
        "Our budget review is in 2 weeks.",
    ],
)
def test_not_a_budget(extract: Extract, text: str) -> None:
    assert extract(TRAIN + text).budget_usd is None


def test_hedged_figures_of_other_fields(extract: Extract) -> None:
    p = extract("Serve Llama 3.1 8B to 50ish users, prompts 2k-ish tokens, answers ~300 tokens.")
    assert (p.concurrency, p.prompt_tokens) == (50, 2000)
