"""Owned-hardware cost accuracy: tools.cost_owned and the catalog's purchase prices and owned-cost estimates
against published figures (bench/data/owned_cost_measurements.yaml).

The rows are split by source BEFORE anything is fitted (split_rows: the source's host name alone decides,
so a source's rows never sit on both sides and no value steers the split). The fit part gives the fitted
estimates (fit_params); every row, fit and held-out apart, is then scored against the model run with the
catalog's values (the shipped model) and with the fitted values: error = model / middle of the published
figure - 1, and whether the model lies inside the published range widened by INSIDE_TOLERANCE_FRACTION.

    python -m bench.owned_cost_accuracy [--file PATH] [--rows]

Readings of a row, each said in the data file: a 3-year TCO per 8-GPU server is divided by 8 x 36 x 730 h
(every calendar hour, utilisation 1.0); a server price that includes the InfiniBand share of a cluster is
modelled with tools.cost_owned's INFINIBAND_COST_FRACTION middle (seed 000: 10-20%); 'capex_only' rows (a
GPU price spread over its life, nothing else) are scored against the GPU price / (months x 730 x u).
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import statistics
import sys
import urllib.parse
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from tools.catalog.load import Catalog, load_catalog
from tools.cost_owned import INFINIBAND_COST_FRACTION, NODE_POWER_PER_GPU_TDP, owned_usd_per_gpu_hour
from tools.units import HOURS_PER_MONTH

DATA_PATH = Path(__file__).parent / "data" / "owned_cost_measurements.yaml"
GPUS_PER_SERVER = 8  # HGX / DGX 8-GPU baseboard (tools/catalog/gpus.yaml max_gpus_per_node of SXM parts)
# A single published value is 'inside' when the model is within 10% of it; a range is widened by the same
# share. Bench convention (no source): the catalog's prices are rounded estimates, not quotes.
INSIDE_TOLERANCE_FRACTION = 0.10
FABRIC_FRACTION_MID = (INFINIBAND_COST_FRACTION.low + INFINIBAND_COST_FRACTION.high) / 2
QUANTITIES = (
    "gpu_price_usd",
    "server_capex_usd",
    "owned_usd_per_gpu_hour",
    "colo_usd_per_kw_month",
    "server_power_kw",
    "depreciation_years",
    "pue",
)
PARTS = ("fit", "held_out")


@dataclass(frozen=True)
class Row:
    id: str
    quantity: str
    low_value: float
    high_value: float
    source: str
    url: str
    as_of: dt.date
    confidence: str
    gpu: str | None = None
    conditions: dict[str, Any] = field(default_factory=dict)
    notes: str = ""

    @property
    def mid_value(self) -> float:
        return (self.low_value + self.high_value) / 2

    @property
    def host(self) -> str:
        return urllib.parse.urlparse(self.url).netloc.lower().removeprefix("www.")

    @property
    def used_part(self) -> bool:
        """A second-hand price: reported, never fitted (the catalog prices a new part)."""
        return self.notes.startswith("used")


def load_rows(path: Path = DATA_PATH) -> list[Row]:
    data = yaml.safe_load(path.read_text())
    rows: list[Row] = []
    seen: set[str] = set()
    for raw in data["rows"]:
        keep = {k: v for k, v in raw.items() if k != "as_of_basis"}
        row = Row(**keep)
        if row.quantity not in QUANTITIES:
            raise ValueError(f"{row.id}: unknown quantity {row.quantity!r}")
        if row.id in seen:
            raise ValueError(f"duplicate row id {row.id}")
        if not 0 < row.low_value <= row.high_value:
            raise ValueError(f"{row.id}: need 0 < low_value <= high_value")
        seen.add(row.id)
        rows.append(row)
    return rows


def part_of_host(host: str) -> str:
    """Fit or held-out, from the host name alone: the last bit of its SHA-256 (fixed before fitting)."""
    return "fit" if int(hashlib.sha256(host.encode()).hexdigest(), 16) % 2 == 0 else "held_out"


def split_rows(rows: Sequence[Row]) -> dict[str, str]:
    """Row id -> 'fit' | 'held_out'; every row of one source (host) lands in the same part."""
    return {r.id: part_of_host(r.host) for r in rows}


@dataclass(frozen=True)
class Params:
    """The owned-cost inputs a row's prediction needs (catalog estimates or fitted values)."""

    gpu_price_usd: dict[str, float]
    gpu_tdp_w: dict[str, float]
    server_overhead_fraction: float
    colo_usd_per_kw_month: float
    node_power_factor: float
    amortization_months: float
    pue: float
    power_usd_per_kwh: float
    ops_usd_per_gpu_month: float


def catalog_params(catalog: Catalog) -> Params:
    est = catalog.estimate
    return Params(
        gpu_price_usd={g.id: float(g.purchase_price_usd) for g in catalog.gpus if g.purchase_price_usd},
        gpu_tdp_w={g.id: float(g.tdp_w) for g in catalog.gpus if g.tdp_w},
        server_overhead_fraction=est("server_overhead_fraction").value,
        colo_usd_per_kw_month=est("colo_usd_per_kw_month").value,
        node_power_factor=NODE_POWER_PER_GPU_TDP,
        amortization_months=est("hardware_amortization_months").value,
        pue=est("pue").value,
        power_usd_per_kwh=est("power_usd_per_kwh").value,
        ops_usd_per_gpu_month=est("ops_usd_per_gpu_month").value,
    )


def _median_mid(rows: Sequence[Row]) -> float | None:
    return statistics.median(r.mid_value for r in rows) if rows else None


def fit_params(rows: Sequence[Row], parts: dict[str, str], base: Params) -> Params:
    """Each estimate = the median over the fit part's rows of that quantity (the base value where the fit
    part has none). GPU prices first (new parts only); the server overhead is then each fit server price
    over 8 x that fitted GPU price, less 1, the InfiniBand-inclusive servers left out."""
    fit = [r for r in rows if parts[r.id] == "fit"]

    def of(q: str) -> list[Row]:
        return [r for r in fit if r.quantity == q]

    prices = dict(base.gpu_price_usd)
    for gpu in {r.gpu for r in of("gpu_price_usd") if r.gpu}:
        m = _median_mid([r for r in of("gpu_price_usd") if r.gpu == gpu and not r.used_part])
        if m is not None:
            prices[gpu] = m
    overheads = [
        r.mid_value / (GPUS_PER_SERVER * prices[r.gpu]) - 1
        for r in of("server_capex_usd")
        if r.gpu in prices and not r.conditions.get("includes_fabric")
    ]
    factors = [
        r.mid_value * 1000 / (GPUS_PER_SERVER * base.gpu_tdp_w[r.gpu])
        for r in of("server_power_kw")
        if r.gpu in base.gpu_tdp_w and r.conditions.get("kind") == "max"
    ]
    colo, pue, years = (
        _median_mid(of("colo_usd_per_kw_month")),
        _median_mid(of("pue")),
        _median_mid(of("depreciation_years")),
    )
    return Params(
        gpu_price_usd=prices,
        gpu_tdp_w=base.gpu_tdp_w,
        server_overhead_fraction=statistics.median(overheads) if overheads else base.server_overhead_fraction,
        colo_usd_per_kw_month=colo if colo is not None else base.colo_usd_per_kw_month,
        node_power_factor=statistics.median(factors) if factors else base.node_power_factor,
        amortization_months=years * 12 if years is not None else base.amortization_months,
        pue=pue if pue is not None else base.pue,
        power_usd_per_kwh=base.power_usd_per_kwh,
        ops_usd_per_gpu_month=base.ops_usd_per_gpu_month,
    )


def predict(row: Row, p: Params) -> float | None:
    """The model's figure for a row (None when the row's GPU has no price or TDP)."""
    q, c = row.quantity, row.conditions
    if q == "colo_usd_per_kw_month":
        return p.colo_usd_per_kw_month
    if q == "pue":
        return p.pue
    if q == "depreciation_years":
        return p.amortization_months / 12
    if row.gpu is None:
        return None
    price, tdp = p.gpu_price_usd.get(row.gpu), p.gpu_tdp_w.get(row.gpu)
    if q == "server_power_kw":
        return None if tdp is None else GPUS_PER_SERVER * tdp * p.node_power_factor / 1000
    if price is None:
        return None
    if q == "gpu_price_usd":
        return price
    fabric = FABRIC_FRACTION_MID if c.get("includes_fabric") else 0.0
    if q == "server_capex_usd":
        return GPUS_PER_SERVER * price * (1 + p.server_overhead_fraction) * (1 + fabric)
    months = float(c.get("amortization_months", p.amortization_months))
    u = float(c.get("utilization", 1.0))
    if c.get("facility") == "capex_only":
        return price / (months * HOURS_PER_MONTH * u)
    if tdp is None:
        return None
    cost = owned_usd_per_gpu_hour(
        purchase_price_usd=price,
        utilization=u,
        tdp_w=tdp,
        amortization_months=months,
        server_overhead_fraction=p.server_overhead_fraction,
        pue=p.pue,
        power_usd_per_kwh=p.power_usd_per_kwh,
        ops_usd_per_gpu_month=p.ops_usd_per_gpu_month,
        colo_usd_per_kw_month=p.colo_usd_per_kw_month,
        node_power_factor=p.node_power_factor,
        fabric_cost_fraction=fabric,
    )
    return cost.usd_per_gpu_hour


@dataclass(frozen=True)
class Scored:
    row: Row
    part: str
    model: float
    error_fraction: float
    inside: bool


def score(rows: Sequence[Row], parts: dict[str, str], p: Params) -> list[Scored]:
    out: list[Scored] = []
    for r in rows:
        m = predict(r, p)
        if m is None:
            continue
        lo = r.low_value * (1 - INSIDE_TOLERANCE_FRACTION)
        hi = r.high_value * (1 + INSIDE_TOLERANCE_FRACTION)
        out.append(Scored(r, parts[r.id], m, m / r.mid_value - 1, lo <= m <= hi))
    return out


@dataclass(frozen=True)
class Summary:
    n: int
    median_abs_error_fraction: float
    inside_share: float


def summarize(scored: Sequence[Scored]) -> Summary | None:
    if not scored:
        return None
    return Summary(
        n=len(scored),
        median_abs_error_fraction=statistics.median(abs(s.error_fraction) for s in scored),
        inside_share=sum(s.inside for s in scored) / len(scored),
    )


def _fmt(v: float) -> str:
    return f"{v:,.0f}" if v >= 1000 else f"{v:.3g}"


def _summary_lines(label: str, scored: Sequence[Scored]) -> list[str]:
    lines = [f"{label}:"]
    for part in PARTS:
        mine = [s for s in scored if s.part == part and not s.row.used_part]
        total = summarize(mine)
        if total is None:
            continue
        lines.append(
            f"  {part:<8} all rows  n={total.n:>2}  median |error| {total.median_abs_error_fraction:6.1%}"
            f"  inside {total.inside_share:5.0%}"
        )
        for q in QUANTITIES:
            s = summarize([x for x in mine if x.row.quantity == q])
            if s is not None:
                lines.append(
                    f"    {q:<24} n={s.n:>2}  median |error| {s.median_abs_error_fraction:6.1%}"
                    f"  inside {s.inside_share:5.0%}"
                )
    return lines


def _row_lines(scored: Sequence[Scored]) -> list[str]:
    lines = [f"  {'part':<8} {'row':<34} {'published':>19} {'model':>9} {'error':>7} inside"]
    for s in sorted(scored, key=lambda x: (x.part, x.row.quantity, x.row.id)):
        r = s.row
        pub = (
            _fmt(r.low_value) if r.low_value == r.high_value else f"{_fmt(r.low_value)}-{_fmt(r.high_value)}"
        )
        used = " (used; not scored)" if r.used_part else ""
        lines.append(
            f"  {s.part:<8} {r.id:<34} {pub:>19} {_fmt(s.model):>9} {s.error_fraction:+7.1%}"
            f" {'yes' if s.inside else 'no'}{used}"
        )
    return lines


def _params_lines(catalog_p: Params, fitted: Params) -> list[str]:
    pairs = [
        ("server_overhead_fraction", catalog_p.server_overhead_fraction, fitted.server_overhead_fraction),
        ("colo_usd_per_kw_month", catalog_p.colo_usd_per_kw_month, fitted.colo_usd_per_kw_month),
        ("node_power_per_gpu_tdp", catalog_p.node_power_factor, fitted.node_power_factor),
        ("hardware_amortization_months", catalog_p.amortization_months, fitted.amortization_months),
        ("pue", catalog_p.pue, fitted.pue),
    ]
    gpus = sorted(
        g for g in fitted.gpu_price_usd if fitted.gpu_price_usd[g] != catalog_p.gpu_price_usd.get(g)
    )
    pairs += [
        (f"purchase_price_usd[{g}]", catalog_p.gpu_price_usd.get(g, 0.0), fitted.gpu_price_usd[g])
        for g in gpus
    ]
    lines = ["Estimates: catalog (shipped) vs fitted on the fit part"]
    lines += [f"  {name:<34} {a:>10.4g} {b:>10.4g}" for name, a, b in pairs]
    return lines


def report(rows: Sequence[Row], catalog: Catalog, *, show_rows: bool = False) -> str:
    parts = split_rows(rows)
    cat_p = catalog_params(catalog)
    fitted = fit_params(rows, parts, cat_p)
    hosts = {part: sorted({r.host for r in rows if parts[r.id] == part}) for part in PARTS}
    lines = [
        f"Owned-cost accuracy: {len(rows)} published figures from"
        f" {len(hosts['fit']) + len(hosts['held_out'])} sources ({DATA_PATH.name});"
        f" split by source host: fit {len(hosts['fit'])}, "
        f"held-out {len(hosts['held_out'])}",
        f"  held-out sources: {', '.join(hosts['held_out'])}",
        "",
        *_params_lines(cat_p, fitted),
        "",
    ]
    for label, p in (("Catalog (shipped) model", cat_p), ("Fitted model", fitted)):
        scored = score(rows, parts, p)
        lines += _summary_lines(label, scored)
        if show_rows:
            lines += _row_lines(scored)
        lines.append("")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--file", type=Path, default=DATA_PATH)
    ap.add_argument("--rows", action="store_true", help="print every row")
    args = ap.parse_args(argv)
    print(report(load_rows(args.file), load_catalog(), show_rows=args.rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
