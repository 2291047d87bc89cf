"""The report's tables and charts of the options: cost of ownership, memory fit, data egress, topology
and the sources of the prices and specs, as already-formatted cells (templates print them as they are)."""

from __future__ import annotations

from typing import Any

from reports import charts
from reports.labels import (
    DEPLOYMENT_TEXT,
    PRICING_TEXT,
    field_value,
    option_short,
    option_title,
    option_where,
    value_words,
)
from tools import present
from tools.ranges import Range
from tools.recommend.models import Option, Recommendation, TcoScenario


def tco_table(options: tuple[Option, ...]) -> dict[str, Any] | None:
    """Seed 001's table: one column per option, the four rows per data scenario, totals per scenario."""
    opts = [o for o in options if o.tco]
    if not opts:
        return None
    scenarios: list[str] = []
    for o in opts:
        for s in o.tco:
            if s.scenario not in scenarios:
                scenarios.append(s.scenario)

    def find(o: Option, name: str) -> TcoScenario | None:
        return next((s for s in o.tco if s.scenario == name), None)

    rows: list[dict[str, Any]] = []
    rows.append(
        {"label": "Compute", "cells": [present.usd_range(o.tco[0].compute_usd) for o in opts], "kind": ""}
    )
    rows.append(
        {
            "label": "Managed-service premium (estimate)",
            "cells": [
                present.usd_range(o.tco[0].managed_usd) if o.tco[0].managed_usd.high > 0 else "$0"
                for o in opts
            ],
            "kind": "",
        }
    )
    rows.append(
        {
            "label": "Storage (one month)",
            "cells": [present.usd(o.tco[0].storage_usd) for o in opts],
            "kind": "",
        }
    )
    for name in scenarios:
        cells = []
        for o in opts:
            sc = find(o, name)
            if sc is None:
                cells.append(present.UNKNOWN)
            else:
                note = " (same cloud)" if sc.same_cloud and sc.egress_usd == 0 else ""
                cells.append(present.usd(sc.egress_usd) + note)
        rows.append({"label": f"Egress — {name}", "cells": cells, "kind": "egress"})
    for name in scenarios:
        cells = []
        for o in opts:
            sc = find(o, name)
            cells.append(present.usd_range(sc.total_usd) if sc else present.UNKNOWN)
        rows.append({"label": f"Total — {name}", "cells": cells, "kind": "total"})
    heads = [
        {
            "title": option_short(o),
            "where": option_where(o),
            "label": o.label,
            "deployment": DEPLOYMENT_TEXT.get(o.deployment, o.deployment),
        }
        for o in opts
    ]
    # columns priced at a floating (spot, community, marketplace) quote: their high end adds the spread
    floating = [f"{option_short(o)} at {o.provider}" for o in opts if o.usd_per_gpu_hour_high is not None]
    return {"heads": heads, "rows": rows, "scenarios": scenarios, "floating": floating}


def _scenario_short(s: TcoScenario) -> str:
    if s.same_cloud:
        return f"{s.scenario} (same cloud)" if len(s.scenario) < 24 else "same cloud"
    pulls = present.number(s.data_pulls)
    return f"data pulled {pulls}× a month" if s.data_pulls != 1 else "data pulled once, cached"


def cost_chart(options: tuple[Option, ...], budget: float | None) -> str:
    bars: list[charts.RangeBar] = []
    for o in options:
        if o.tco:
            shown: set[tuple[float, float]] = set()
            for s in o.tco:
                if (s.total_usd.low, s.total_usd.high) in shown:
                    continue  # same totals (e.g. same cloud: no egress in any scenario)
                shown.add((s.total_usd.low, s.total_usd.high))
                bars.append(
                    charts.RangeBar(
                        label=option_short(o),
                        sublabel=f"{o.provider} · {_scenario_short(s)}",
                        low=s.total_usd.low,
                        high=s.total_usd.high,
                        highlight=o.label == "primary",
                    )
                )
        else:
            bars.append(
                charts.RangeBar(
                    label=option_short(o),
                    sublabel=option_where(o),
                    low=o.cost_usd.low,
                    high=o.cost_usd.high,
                    highlight=o.label == "primary",
                )
            )
    per_month = bool(options) and options[0].cost_basis == "per_month"
    axis = "Total cost, USD per month (low – high)" if per_month else "Total cost per job, USD (low – high)"
    return charts.range_chart_svg(
        bars,
        present.usd,
        axis,
        tick_fmt=present.usd,
        limit=budget,
        limit_label=f"budget {present.usd(budget)}" if budget else "",
        range_fmt=lambda lo, hi: present.usd_range(Range(low=lo, high=hi)),
    )


def time_chart(options: tuple[Option, ...], deadline: float | None) -> str:
    bars = [
        charts.RangeBar(
            label=option_short(o),
            sublabel=option_where(o),
            low=o.wall_hours.low,
            high=o.wall_hours.high,
            highlight=o.label == "primary",
        )
        for o in options
        if o.cost_basis == "per_job"
    ]
    return charts.range_chart_svg(
        bars,
        present.hours,
        "Wall-clock time per job, hours (low – high)",
        tick_fmt=lambda v: f"{v:,.0f}",
        limit=deadline,
        limit_label=f"deadline {present.hours(deadline)}" if deadline else "",
        range_fmt=lambda lo, hi: present.hours_range(Range(low=lo, high=hi), with_days=False),
    )


def memory_chart(options: tuple[Option, ...]) -> str:
    bars = []
    for o in options:
        if o.memory is None:
            continue
        bars.append(
            charts.MemoryBar(
                label=option_short(o),
                sublabel=f"{o.label} · {o.memory.sharding if o.memory.sharding != 'none' else 'no sharding'}",
                segments_gib=dict(o.memory.breakdown_gib),
                capacity_gib=o.memory.usable_gib_per_gpu,
                headroom_fraction=o.memory.required_headroom_fraction,
                highlight=o.label == "primary",
                judged_gib=o.memory.judged_gib,
            )
        )
    return charts.memory_fit_svg(bars, present.gib)


def _headroom_text(headroom_gib: float, usable_gib: float) -> str:
    return f"{present.gib(headroom_gib)} ({present.pct(headroom_gib / usable_gib)})"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' if n != 1 else ''}"


def memory_table(options: tuple[Option, ...]) -> dict[str, Any] | None:
    opts = [o for o in options if o.memory is not None]
    if not opts:
        return None
    rows = []
    for key, name, _c, _p in charts.MEMORY_COMPONENTS:
        vals = [(o.memory.breakdown_gib.get(key) if o.memory else None) for o in opts]
        if all(v is None or v == 0 for v in vals):
            continue
        rows.append(
            {"label": name, "cells": [present.gib(v) if v is not None else present.UNKNOWN for v in vals]}
        )
    rows.append(
        {"label": "Peak per GPU", "cells": [present.gib(o.peak_gib_per_gpu) for o in opts], "kind": "total"}
    )
    notes = [present.memory_peak_note(o.memory.peak_phase, o.memory.memory_basis) for o in opts if o.memory]
    if any(notes):
        rows.append(
            {"label": "Peak phase, basis", "cells": [n or present.UNKNOWN for n in notes], "kind": ""}
        )
    rows.append(
        {"label": "Usable per GPU", "cells": [present.gib(o.vram_gib_per_gpu) for o in opts], "kind": ""}
    )
    rows.append(
        {
            "label": "Free (headroom)",
            "cells": [
                _headroom_text(o.memory.headroom_gib, o.memory.usable_gib_per_gpu)
                if o.memory and o.memory.usable_gib_per_gpu
                else present.UNKNOWN
                for o in opts
            ],
            "kind": "",
        }
    )
    return {"heads": [option_short(o) for o in opts], "rows": rows}


def egress_table(rec: Recommendation) -> dict[str, Any] | None:
    p = rec.primary
    prof = rec.profile
    if p is None or not p.tco or (prof.dataset_gb is None and all(t.egress_usd == 0 for t in p.tco)):
        return None
    scen = [
        {
            "name": s.scenario,
            "pulls": present.number(s.data_pulls),
            "egress": present.usd(s.egress_usd),
            "same_cloud": s.same_cloud,
            "total": present.usd_range(s.total_usd),
        }
        for s in p.tco
    ]
    egress_vals = [s.egress_usd for s in p.tco]
    spread = max(egress_vals) - min(egress_vals) if egress_vals else 0.0
    return {
        "location": field_value("data_location", prof.data_location),
        "region": prof.data_region or present.UNKNOWN,
        "dataset": present.gb(prof.dataset_gb),
        "runs": present.number(prof.runs_per_month) if prof.runs_per_month else present.UNKNOWN,
        "scenarios": scen,
        "spread": present.usd(spread) if spread > 0 else None,
        "provider": p.provider,
    }


def topology_rows(rec: Recommendation) -> list[dict[str, Any]]:
    out = []
    for o in rec.options:
        t = o.topology
        if t is None:
            continue
        if not (t.multi_node or t.tp > 1 or t.pp > 1 or o.label == "primary"):
            continue
        out.append(
            {
                "title": option_title(o),
                "where": option_where(o),
                "label": o.label,
                "multi_node": t.multi_node,
                "layout": f"{_plural(t.nodes, 'node')} × {_plural(t.gpus_per_node, 'GPU')}",
                "parallel": f"TP {t.tp} · PP {t.pp} · DP {t.dp} · sharding {t.sharding}",
                "intra": t.interconnect_intra or present.UNKNOWN,
                "inter": value_words(t.interconnect_inter),
                "inter_required": value_words(t.interconnect_inter_required),
                "notes": list(t.notes),
                "nccl": list(t.nccl_checklist),
            }
        )
    return out


def catalog_sources(rec: Recommendation, catalog: Any) -> list[dict[str, str]]:
    rows: list[dict[str, str]] = []
    seen: set[tuple[str, str]] = set()
    for o in rec.options:
        key = ("price", o.key.text())
        if key in seen:
            continue
        seen.add(key)
        rows.append(
            {
                "what": f"Price: {o.gpu_name or o.gpu} at {o.provider} "
                f"({PRICING_TEXT.get(o.pricing, o.pricing)})",
                "value": present.usd_rate(o.usd_per_gpu_hour),
                "as_of": o.price_as_of.isoformat() if o.price_as_of else present.UNKNOWN,
                "source": o.price_source or present.UNKNOWN,
            }
        )
    if catalog is not None:
        gpu_ids = {o.gpu for o in rec.options}
        for gid in sorted(gpu_ids):
            try:
                g = catalog.gpu(gid)
            except (ValueError, KeyError, AttributeError):
                continue
            rows.append(
                {
                    "what": f"GPU spec: {g.name}",
                    "value": f"{present.gib(g.usable_memory_gib)} usable, "
                    f"{present.number(g.bf16_dense_tflops)} BF16 dense TFLOPS",
                    "as_of": g.as_of.isoformat(),
                    "source": g.source,
                }
            )
        model_id = rec.profile.model_id
        if model_id:
            try:
                m = catalog.model(model_id)
                rows.append(
                    {
                        "what": f"Model architecture: {m.name}",
                        "value": f"{present.count(m.param_count())} params",
                        "as_of": m.as_of.isoformat(),
                        "source": m.source,
                    }
                )
            except (ValueError, KeyError, AttributeError):
                pass
    return rows
