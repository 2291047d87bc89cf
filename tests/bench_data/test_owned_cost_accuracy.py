"""bench/owned_cost_accuracy.py and bench/data/owned_cost_measurements.yaml: the rows load, the split is by
source and blind to values, the catalog holds the fit part's estimates, and the model reproduces a figure
worked by hand."""

from __future__ import annotations

import dataclasses

import pytest

from bench import owned_cost_accuracy as oca
from tools.catalog.load import load_catalog


@pytest.fixture(scope="module")
def rows() -> list[oca.Row]:
    return oca.load_rows()


def test_every_row_names_its_source_url_and_date(rows: list[oca.Row]) -> None:
    assert len(rows) >= 40
    for r in rows:
        assert r.source and r.url.startswith("http") and r.as_of.year >= 2018, r.id
        assert r.confidence in {"high", "medium", "low"}, r.id


def test_a_source_sits_on_one_side_and_both_sides_hold_each_quantity(rows: list[oca.Row]) -> None:
    parts = oca.split_rows(rows)
    by_host: dict[str, set[str]] = {}
    for r in rows:
        by_host.setdefault(r.host, set()).add(parts[r.id])
    assert all(len(sides) == 1 for sides in by_host.values())
    for q in oca.QUANTITIES:
        sides = {parts[r.id] for r in rows if r.quantity == q}
        assert sides == {"fit", "held_out"}, q


def test_the_split_ignores_the_values(rows: list[oca.Row]) -> None:
    parts = oca.split_rows(rows)
    doubled = [dataclasses.replace(r, low_value=r.low_value * 2, high_value=r.high_value * 2) for r in rows]
    assert oca.split_rows(doubled) == parts


def test_the_catalog_holds_the_fitted_overhead_and_colocation_rent(rows: list[oca.Row]) -> None:
    # costs.yaml cites the fit: server overhead 0.240 (rounded 0.24), colocation 168.75 (rounded 170)
    catalog = load_catalog()
    base = oca.catalog_params(catalog)
    fitted = oca.fit_params(rows, oca.split_rows(rows), base)
    assert base.server_overhead_fraction == pytest.approx(fitted.server_overhead_fraction, abs=0.005)
    assert base.colo_usd_per_kw_month == pytest.approx(fitted.colo_usd_per_kw_month, rel=0.02)
    assert base.gpu_price_usd["b200"] == fitted.gpu_price_usd["b200"] == 40000


def test_capex_only_hour_matches_the_published_worked_example(rows: list[oca.Row]) -> None:
    # computetape.com: $30,000 over 3 years at ~70% -> ~$1.64/h; by hand 30000 / (36 x 730 x 0.7) = 1.631
    row = next(r for r in rows if r.id == "hour-computetape-capex-only")
    model = oca.predict(row, oca.catalog_params(load_catalog()))
    assert model == pytest.approx(30000 / (36 * 730 * 0.7), rel=1e-9)
    assert model == pytest.approx(1.64, rel=0.01)


def test_server_capex_is_eight_gpus_times_the_overhead() -> None:
    row = oca.Row(
        id="x", quantity="server_capex_usd", low_value=1, high_value=1, source="s", url="https://x.test",
        as_of=load_catalog().gpus[0].as_of, confidence="low", gpu="h100-sxm",
    )  # fmt: skip
    p = oca.catalog_params(load_catalog())
    assert oca.predict(row, p) == pytest.approx(8 * 30000 * 1.24)
    with_fabric = dataclasses.replace(row, conditions={"includes_fabric": True})
    assert oca.predict(with_fabric, p) == pytest.approx(8 * 30000 * 1.24 * 1.15)


def test_report_prints_both_parts(rows: list[oca.Row]) -> None:
    text = oca.report(rows, load_catalog(), show_rows=True)
    assert "held_out all rows" in text and "fit      all rows" in text
    assert "hour-inference-anatomy-operators" in text
