"""Issue 16: the report's first page (the summary section) shows the buy option with its purchase price
per GPU and per server and the month buying breaks even, for sustained fine-tuning (the owned example)
and for a 3-year pre-training with a stated power price."""

from __future__ import annotations

import re
from pathlib import Path

from advisor.service.profiles import load_profile, profile_from_mapping
from advisor.service.recommending import recommend_for
from reports.buy_rent import buy_rent_section
from reports.html import render_html
from tools import present
from tools.catalog.load import Catalog
from tools.recommend.models import Recommendation

EXAMPLES = Path(__file__).resolve().parents[2] / "advisor" / "examples"


def _first_page(html: str) -> str:
    start = html.index('<section class="summary">')
    return html[start : html.index("</section>", start)]


def _check(rec_and_cat: tuple[Recommendation, Catalog]) -> str:
    rec, catalog = rec_and_cat
    t = rec.buy_vs_rent
    assert t is not None and not t.owned and t.quote is not None and t.gpu_name
    section = buy_rent_section(rec)
    assert section is not None
    page1 = " ".join(_first_page(render_html(rec, catalog=catalog)).split())
    summary: str = section["summary"]
    assert summary in page1
    q = t.quote
    assert f"purchase {present.usd(t.purchase_usd)} ({present.usd(q.usd_per_gpu)} per GPU" in summary
    assert f"at {present.usd(q.usd_per_server)}; lead time" in summary
    assert f"{t.n_gpus}x {t.gpu_name}" in summary
    on_demand = next(ln for ln in t.rents if ln.basis.name.startswith("on-demand"))
    assert on_demand.break_even_month is not None
    assert f"on-demand at month {on_demand.break_even_month:,.0f}" in summary
    return summary


def test_owned_example_first_page_shows_purchase_and_break_even() -> None:
    profile, settings = load_profile(EXAMPLES / "owned-lora-8b.yaml")
    _check(recommend_for(profile, settings=settings))


def test_three_year_pretraining_first_page_shows_the_buy_option() -> None:
    # "We'll keep running 13B pre-training for 3 years; buy or rent? power $0.10/kWh" (no utilisation)
    profile, settings = profile_from_mapping(
        {
            "workload": "pretraining",
            "model_id": "llama-2-13b",
            "dataset_tokens": 2e11,
            "horizon_months": 36,
            "power_price_usd_per_kwh": 0.10,
        }
    )
    rec, catalog = recommend_for(profile, settings=settings)
    summary = _check((rec, catalog))
    assert rec.primary is not None and rec.primary.deployment == "owned"  # 3 years flat out: buying wins
    assert re.search(r"Cheapest over the horizon: buying\.", summary)
