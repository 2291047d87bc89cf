"""Render a Recommendation as the buyer's report: PDF (HTML + CSS through WeasyPrint), HTML, Markdown, JSON.

The templates never compute: this module turns a `tools.recommend_models.Recommendation` into a
context of already-formatted strings and SVG charts (`build_context`), and every number on the page
goes through `reports.format`. WeasyPrint is imported only when a PDF is asked for (its import costs
most of a second).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import re
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from reports import charts
from reports import format as f
from tools.ranges import Range

if TYPE_CHECKING:
    import jinja2

    from tools.recommend.models import Option, Recommendation, TcoScenario
    from tools.recommend.option_id import OptionId

Format = Literal["pdf", "html", "md", "json"]
FORMATS: tuple[str, ...] = ("pdf", "html", "md", "json")

_HERE = Path(__file__).parent
TEMPLATES = _HERE / "templates"
STYLES = _HERE / "styles"

PRICING_TEXT = {"on_demand": "on-demand", "spot": "spot", "reserved": "reserved", "owned": "owned"}
DEPLOYMENT_TEXT = {
    "cloud": "cloud, self-managed",
    "managed": "managed ML service",
    "bare_metal": "bare metal",
    "colocation": "colocation",
    "owned": "owned hardware",
}
STATUS_TEXT = {"stated": "stated", "inferred": "inferred", "assumed": "assumed"}

# Profile fields as the report shows them: label and how to format the value.
FIELD_LABELS: dict[str, str] = {
    "workload": "Workload",
    "model_id": "Model",
    "params_b": "Parameters",
    "method": "Method",
    "precision": "Weight precision",
    "dataset_tokens": "Training tokens per epoch",
    "dataset_gb": "Dataset size",
    "epochs": "Epochs",
    "seq_len": "Sequence length",
    "batch_size": "Micro-batch per GPU",
    "lora_rank": "LoRA rank",
    "data_location": "Data location",
    "data_region": "Data region",
    "data_cached": "Data cached at provider",
    "runs_per_month": "Runs per month",
    "budget_usd": "Budget",
    "deadline_hours": "Deadline",
    "concurrency": "Concurrent sequences",
    "context_len": "Context length",
    "target_tokens_per_s": "Target decode rate",
    "latency_ms_per_token": "Latency target",
    "utilization": "Sustained utilisation",
    "horizon_months": "Planning horizon",
    "eu_only": "EU-only data residency",
    "ops_capacity": "Operations capacity",
    "deployment_preference": "Deployment preference",
    "providers_preferred": "Preferred providers",
    "providers_excluded": "Excluded providers",
    "objective": "Objective",
    "claimed_gpu": "GPU in the user's claim",
    "claimed_gpu_count": "GPU count in the claim",
    "claimed_hours": "Hours the user expects",
}

MEMORY_LABELS = {key: name for key, name, _c, _p in charts.MEMORY_COMPONENTS}


def field_value(name: str, value: Any) -> str:
    """A profile value as the report prints it."""
    if value is None:
        return f.UNKNOWN
    if isinstance(value, list | tuple):
        return ", ".join(str(v) for v in value) if value else "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    formatters: dict[str, Callable[[Any], str]] = {
        "params_b": lambda v: f.count(v * 1e9),
        "dataset_tokens": f.count,
        "dataset_gb": f.gb,
        "budget_usd": f.usd,
        "deadline_hours": lambda v: f"{f.hours(v)} ({f.days(v)})" if v >= 48 else f.hours(v),
        "claimed_hours": f.hours,
        "utilization": f.pct,
        "horizon_months": lambda v: f"{f.number(v)} months",
        "target_tokens_per_s": lambda v: f"{f.number(v)} tokens/s",
        "latency_ms_per_token": lambda v: f"{f.number(v)} ms/token",
        "seq_len": lambda v: f"{f.number(v)} tokens",
        "context_len": lambda v: f"{f.number(v)} tokens",
        "method": lambda v: METHOD_TEXT.get(v, str(v)),
    }
    if name in formatters:
        return str(formatters[name](value))
    if isinstance(value, int | float):
        return f.number(value)
    return str(value).replace("_", " ") if name in ("workload", "objective", "data_location") else str(value)


def option_title(opt: Option) -> str:
    """'1× H100 SXM 80GB' or '16× H100 SXM 80GB (2 nodes × 8)'."""
    name = opt.gpu_name or opt.gpu
    text = f"{opt.total_gpus}× {name}"
    if opt.nodes > 1:
        text += f" ({opt.nodes} nodes × {opt.gpus_per_node})"
    return text


def option_where(opt: Option) -> str:
    """'lambda · on-demand · us-east-1'."""
    parts = [opt.provider, PRICING_TEXT.get(opt.pricing, opt.pricing)]
    if opt.region:
        parts.append(opt.region)
    return " · ".join(parts)


def _cost_suffix(opt: Option) -> str:
    return " per month" if opt.cost_basis == "per_month" else " per job"


def _option_row(opt: Option) -> dict[str, Any]:
    per_job = opt.cost_basis == "per_job"
    decode = f.tokens_per_s_range(opt.decode_tokens_per_s) if opt.decode_tokens_per_s else "continuous"
    return {
        "label": opt.label,
        "title": option_title(opt),
        "where": option_where(opt),
        "deployment": DEPLOYMENT_TEXT.get(opt.deployment, opt.deployment),
        "rate": f.usd_rate(opt.usd_per_gpu_hour),
        "gpu_hours": (f.gpu_hours_range(opt.gpu_hours) + ("" if per_job else " a month"))
        if opt.gpu_hours
        else f.UNKNOWN,
        # per-month options (serving) have no job duration: their "time" cell is the decode rate
        "time_label": "Time" if per_job else "Decode rate",
        "wall": f.hours_range(opt.wall_hours) if per_job else decode,
        "wall_short": f.hours_range(opt.wall_hours, with_days=False) if per_job else decode,
        "wall_days": f.days_range(opt.wall_hours) if per_job and opt.wall_hours.high >= 48 else "",
        "cost": f.usd_range(opt.cost_usd),
        "cost_basis": _cost_suffix(opt).strip(),
        "peak": f.gib(opt.peak_gib_per_gpu),
        "vram": f.gib(opt.vram_gib_per_gpu),
        "why": list(opt.why),
        "risks": list(opt.risks),
        "meets_deadline": _yes_no(opt.meets_deadline),
        "meets_budget": _yes_no(opt.meets_budget),
        "tier": opt.tier,
        "eu": opt.eu,
        "decode": decode if opt.decode_tokens_per_s else None,
        "price_as_of": opt.price_as_of.isoformat() if opt.price_as_of else f.UNKNOWN,
        "price_source": opt.price_source or f.UNKNOWN,
    }


def _yes_no(v: bool | None) -> str:
    return f.UNKNOWN if v is None else ("yes" if v else "no")


def _short(opt: Option) -> str:
    name = opt.gpu_name or opt.gpu
    return f"{opt.total_gpus}× {name}"


def _tco_table(options: tuple[Option, ...]) -> dict[str, Any] | None:
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
    rows.append({"label": "Compute", "cells": [f.usd_range(o.tco[0].compute_usd) for o in opts], "kind": ""})
    rows.append(
        {
            "label": "Managed-service premium (estimate)",
            "cells": [
                f.usd_range(o.tco[0].managed_usd) if o.tco[0].managed_usd.high > 0 else "$0" for o in opts
            ],
            "kind": "",
        }
    )
    rows.append(
        {"label": "Storage (one month)", "cells": [f.usd(o.tco[0].storage_usd) for o in opts], "kind": ""}
    )
    for name in scenarios:
        cells = []
        for o in opts:
            sc = find(o, name)
            if sc is None:
                cells.append(f.UNKNOWN)
            else:
                note = " (same cloud)" if sc.same_cloud and sc.egress_usd == 0 else ""
                cells.append(f.usd(sc.egress_usd) + note)
        rows.append({"label": f"Egress — {name}", "cells": cells, "kind": "egress"})
    for name in scenarios:
        cells = []
        for o in opts:
            sc = find(o, name)
            cells.append(f.usd_range(sc.total_usd) if sc else f.UNKNOWN)
        rows.append({"label": f"Total — {name}", "cells": cells, "kind": "total"})
    heads = [
        {
            "title": _short(o),
            "where": option_where(o),
            "label": o.label,
            "deployment": DEPLOYMENT_TEXT.get(o.deployment, o.deployment),
        }
        for o in opts
    ]
    # columns priced at a floating (spot, community, marketplace) quote: their high end adds the spread
    floating = [f"{_short(o)} at {o.provider}" for o in opts if o.usd_per_gpu_hour_high is not None]
    return {"heads": heads, "rows": rows, "scenarios": scenarios, "floating": floating}


def _scenario_short(s: TcoScenario) -> str:
    if s.same_cloud:
        return f"{s.scenario} (same cloud)" if len(s.scenario) < 24 else "same cloud"
    pulls = f.number(s.data_pulls)
    return f"data pulled {pulls}× a month" if s.data_pulls != 1 else "data pulled once, cached"


def _cost_chart(options: tuple[Option, ...], budget: float | None) -> str:
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
                        label=_short(o),
                        sublabel=f"{o.provider} · {_scenario_short(s)}",
                        low=s.total_usd.low,
                        high=s.total_usd.high,
                        highlight=o.label == "primary",
                    )
                )
        else:
            bars.append(
                charts.RangeBar(
                    label=_short(o),
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
        f.usd,
        axis,
        tick_fmt=f.usd,
        limit=budget,
        limit_label=f"budget {f.usd(budget)}" if budget else "",
        range_fmt=lambda lo, hi: f.usd_range(Range(low=lo, high=hi)),
    )


def _time_chart(options: tuple[Option, ...], deadline: float | None) -> str:
    bars = [
        charts.RangeBar(
            label=_short(o),
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
        f.hours,
        "Wall-clock time per job, hours (low – high)",
        tick_fmt=lambda v: f"{v:,.0f}",
        limit=deadline,
        limit_label=f"deadline {f.hours(deadline)}" if deadline else "",
        range_fmt=lambda lo, hi: f.hours_range(Range(low=lo, high=hi), with_days=False),
    )


def _memory_chart(options: tuple[Option, ...]) -> str:
    bars = []
    for o in options:
        if o.memory is None:
            continue
        bars.append(
            charts.MemoryBar(
                label=_short(o),
                sublabel=f"{o.label} · {o.memory.sharding if o.memory.sharding != 'none' else 'no sharding'}",
                segments_gib=dict(o.memory.breakdown_gib),
                capacity_gib=o.memory.usable_gib_per_gpu,
                headroom_fraction=o.memory.required_headroom_fraction,
                highlight=o.label == "primary",
            )
        )
    return charts.memory_fit_svg(bars, f.gib)


def _headroom_text(headroom_gib: float, usable_gib: float) -> str:
    return f"{f.gib(headroom_gib)} ({f.pct(headroom_gib / usable_gib)})"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' if n != 1 else ''}"


def _memory_table(options: tuple[Option, ...]) -> dict[str, Any] | None:
    opts = [o for o in options if o.memory is not None]
    if not opts:
        return None
    rows = []
    for key, name, _c, _p in charts.MEMORY_COMPONENTS:
        vals = [(o.memory.breakdown_gib.get(key) if o.memory else None) for o in opts]
        if all(v is None or v == 0 for v in vals):
            continue
        rows.append({"label": name, "cells": [f.gib(v) if v is not None else f.UNKNOWN for v in vals]})
    rows.append(
        {"label": "Peak per GPU", "cells": [f.gib(o.peak_gib_per_gpu) for o in opts], "kind": "total"}
    )
    rows.append({"label": "Usable per GPU", "cells": [f.gib(o.vram_gib_per_gpu) for o in opts], "kind": ""})
    rows.append(
        {
            "label": "Free (headroom)",
            "cells": [
                _headroom_text(o.memory.headroom_gib, o.memory.usable_gib_per_gpu)
                if o.memory and o.memory.usable_gib_per_gpu
                else f.UNKNOWN
                for o in opts
            ],
            "kind": "",
        }
    )
    return {"heads": [_short(o) for o in opts], "rows": rows}


def _profile_rows(rec: Recommendation) -> list[dict[str, Any]]:
    from tools.profile import PROFILE_FIELDS

    p = rec.profile
    rows = []
    for name in PROFILE_FIELDS:
        value = getattr(p, name)
        prov = p.provenance.get(name)
        if (value is None or value == []) and prov is None:
            continue
        status = prov.status if prov else ("stated" if value not in (None, []) else "assumed")
        rows.append(
            {
                "field": FIELD_LABELS.get(name, name.replace("_", " ")),
                "key": name,
                "value": field_value(name, value),
                "status": STATUS_TEXT.get(status, status),
                "evidence": prov.evidence if prov and prov.evidence else "",
            }
        )
    return rows


TRAINING_CLASS_ASSUMPTIONS = frozenset({"fine_tuning_max_tokens", "fine_tuning_max_duration_hours"})
"""Seed 000's training-class thresholds: the recommender records them for every workload, but a serving
report has no training class, so listing them there reads as if the job were sized as fine-tuning."""


def _is_serving(rec: Recommendation) -> bool:
    return rec.profile.workload == "inference" or (rec.workload_class or "").startswith("inference")


def _assumptions(rec: Recommendation) -> list[dict[str, str]]:
    seen: dict[str, dict[str, str]] = {}
    items = list(rec.assumptions)
    for o in rec.options:  # options carry none, but keep the door open for per-option traces
        items.extend(getattr(o, "assumptions", ()) or ())
    skip = TRAINING_CLASS_ASSUMPTIONS if _is_serving(rec) else frozenset()
    for a in items:
        if a.name in seen or a.name in skip:
            continue
        val = f.number(a.value) if not isinstance(a.value, str) else a.value
        seen[a.name] = {
            "name": a.name.replace("_", " "),
            "value": f"{val} {a.unit}".strip(),
            "source": a.source,
        }
    return list(seen.values())


_GPU_STEP = re.compile(r"^[a-z_ ]+ ([a-z0-9][a-z0-9._-]*): ")
"""Trace steps the recommender prefixes with a GPU id ('owned h100-sxm: ...', 'colocation l4: ...')."""


def _trace_rows(rec: Recommendation, catalog: Any = None) -> tuple[list[dict[str, Any]], int]:
    """Trace steps for the appendix, numbered as in the JSON trace. Steps of GPUs that are not among
    the options shown (the recommender prices owned hardware for every GPU it checks) are left out;
    the JSON output keeps all of them. Returns (rows, number left out)."""
    shown = {o.gpu for o in rec.options}
    others = {r.gpu for r in rec.rejected}
    if catalog is not None:
        others |= {g.id for g in getattr(catalog, "gpus", ())}
    others -= shown
    rows = []
    left_out = 0
    seen: set[tuple[str, str, str]] = set()
    for i, s in enumerate(rec.trace, start=1):
        m = _GPU_STEP.match(s.step)
        if m and m.group(1) in others:
            left_out += 1
            continue
        key = (s.step, s.formula, repr(sorted(s.inputs.items(), key=lambda kv: kv[0])) + repr(s.output))
        if key in seen:
            continue
        seen.add(key)
        rows.append(
            {
                "n": i,
                "step": s.step,
                "formula": s.formula,
                "inputs": [(k, f.number(v)) for k, v in s.inputs.items()],
                "output": f"{f.number(s.output)} {s.unit}".strip(),
                "source": s.source,
            }
        )
    return rows, left_out


REJECTION_ORDER = ("memory", "interconnect", "budget", "deadline", "throughput", "constraint", "no_price")


def _sorted_rejections(rec: Recommendation) -> list[Any]:
    """Rejections a buyer can act on first (memory, interconnect, budget...), 'no price' last."""
    order = {k: i for i, k in enumerate(REJECTION_ORDER)}
    return sorted(rec.rejected, key=lambda r: order.get(r.kind, len(order)))


def _closest_misses(rec: Recommendation, n: int = 8) -> list[dict[str, str]]:
    ranked = _sorted_rejections(rec)
    return [
        {"gpu": r.gpu_name or r.gpu, "kind": r.kind.replace("_", " "), "reason": r.reason} for r in ranked[:n]
    ]


def _pretty(text: str) -> str:
    """Engine value strings as words: True/False -> yes/no, snake_case -> spaces."""
    mapped = {"True": "yes", "False": "no", "None": f.UNKNOWN}.get(text.strip(), text)
    return mapped.replace("_", " ") if " " not in mapped else mapped


def _sensitivity_rows(rec: Recommendation, catalog: Any = None) -> list[dict[str, Any]]:
    current = rec.primary.key if rec.primary else None
    rows: list[dict[str, Any]] = []
    for s in rec.sensitivity:
        rows.append(
            {
                "input": s.input.replace("_", " "),
                "base": _pretty(s.base) or f.UNKNOWN,
                "low": _pretty(s.low),
                "high": _pretty(s.high),
                "changes": s.changes_primary,
                # only an end whose pick differs from the primary is worth naming
                "at_low": option_key_text(s.primary_at_low, rec.options, catalog)
                if s.primary_at_low != current
                else "",
                "at_high": option_key_text(s.primary_at_high, rec.options, catalog)
                if s.primary_at_high != current
                else "",
                "cost_low": f.usd_range(s.cost_usd_at_low) if s.cost_usd_at_low else f.UNKNOWN,
                "cost_high": f.usd_range(s.cost_usd_at_high) if s.cost_usd_at_high else f.UNKNOWN,
                "note": s.note,
            }
        )
    rows.sort(key=lambda r: not r["changes"])
    return rows


def option_key_text(key: OptionId | None, options: tuple[Option, ...] = (), catalog: Any = None) -> str:
    """An Option.key (gpu, count, provider, pricing) as words; the option's own title when it is listed."""
    if key is None:
        return ""
    for o in options:
        if o.key == key:
            return f"{_short(o)} at {o.provider} ({PRICING_TEXT.get(o.pricing, o.pricing)})"
    gpu = key.gpu
    if catalog is not None:
        with contextlib.suppress(ValueError, KeyError, AttributeError):
            gpu = str(catalog.gpu(gpu).name)
    return f"{key.total_gpus}× {gpu} at {key.provider} ({PRICING_TEXT.get(key.pricing, key.pricing)})"


def _what_changes(rec: Recommendation, catalog: Any = None) -> list[str]:
    out = []
    for s in rec.sensitivity:
        if not s.changes_primary:
            continue
        ends = []
        current = rec.primary.key if rec.primary else None
        if s.primary_at_low and s.primary_at_low != current:
            ends.append(
                f"at {s.low} the pick becomes {option_key_text(s.primary_at_low, rec.options, catalog)}"
            )
        if s.primary_at_high and s.primary_at_high != current:
            ends.append(
                f"at {s.high} the pick becomes {option_key_text(s.primary_at_high, rec.options, catalog)}"
            )
        text = f"{s.input.replace('_', ' ')} (now {_pretty(s.base) or 'unknown'}): " + (
            "; ".join(ends) or "changes the pick"
        )
        if s.note:
            text += f". {s.note[:1].upper()}{s.note[1:]}"
        out.append(text)
    return out


def _egress(rec: Recommendation) -> dict[str, Any] | None:
    p = rec.primary
    prof = rec.profile
    if p is None or not p.tco or (prof.dataset_gb is None and all(t.egress_usd == 0 for t in p.tco)):
        return None
    scen = [
        {
            "name": s.scenario,
            "pulls": f.number(s.data_pulls),
            "egress": f.usd(s.egress_usd),
            "same_cloud": s.same_cloud,
            "total": f.usd_range(s.total_usd),
        }
        for s in p.tco
    ]
    egress_vals = [s.egress_usd for s in p.tco]
    spread = max(egress_vals) - min(egress_vals) if egress_vals else 0.0
    return {
        "location": field_value("data_location", prof.data_location),
        "region": prof.data_region or f.UNKNOWN,
        "dataset": f.gb(prof.dataset_gb),
        "runs": f.number(prof.runs_per_month) if prof.runs_per_month else f.UNKNOWN,
        "scenarios": scen,
        "spread": f.usd(spread) if spread > 0 else None,
        "provider": p.provider,
    }


def _topology(rec: Recommendation) -> list[dict[str, Any]]:
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
                "intra": t.interconnect_intra or f.UNKNOWN,
                "inter": _pretty(t.interconnect_inter),
                "inter_required": _pretty(t.interconnect_inter_required),
                "notes": list(t.notes),
                "nccl": list(t.nccl_checklist),
            }
        )
    return out


def _catalog_sources(rec: Recommendation, catalog: Any) -> list[dict[str, str]]:
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
                "value": f.usd_rate(o.usd_per_gpu_hour),
                "as_of": o.price_as_of.isoformat() if o.price_as_of else f.UNKNOWN,
                "source": o.price_source or f.UNKNOWN,
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
                    "value": f"{f.gib(g.usable_memory_gib)} usable, "
                    f"{f.number(g.bf16_dense_tflops)} BF16 dense TFLOPS",
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
                        "value": f"{f.count(m.param_count())} params",
                        "as_of": m.as_of.isoformat(),
                        "source": m.source,
                    }
                )
            except (ValueError, KeyError, AttributeError):
                pass
    return rows


METHOD_TEXT = {"qlora": "QLoRA", "lora": "LoRA", "full": "full"}


def _model_name(prof: Any, catalog: Any) -> str:
    if prof.model_id and catalog is not None:
        try:
            return str(catalog.model(prof.model_id).name)
        except (ValueError, KeyError, AttributeError):
            pass
    if prof.model_id:
        return str(prof.model_id)
    return f"{f.count(prof.params_b * 1e9)}-parameter model" if prof.params_b else "unnamed model"


@lru_cache(maxsize=1)
def calibration_sentence() -> str:
    """The memory estimator's measured accuracy (tools.memory_calibration, computed from the published
    rows each process, never typed in), for the assumptions section; "" when the module is absent."""
    try:
        from tools.memory_calibration import calibration_summary
    except ImportError:
        return ""
    return calibration_summary().sentence()


def _workload_class(rec: Recommendation) -> str | None:
    """The recommender's class, worded for the summary; serving never gets a training class."""
    text = rec.workload_class.replace("_", " ") if rec.workload_class else None
    if _is_serving(rec) and (text is None or "fine-tuning" in text or "pretraining" in text):
        return "inference (serving)"
    return text


def _load_catalog_quietly() -> Any:
    try:
        from tools.catalog.load import load_catalog  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        return None
    try:
        return load_catalog()
    except Exception:  # noqa: BLE001 - the sources table is optional; the report must still render
        return None


def build_context(
    rec: Recommendation,
    *,
    catalog: Any = None,
    generated: dt.datetime | None = None,
    title: str | None = None,
    description: str | None = None,
    appendix: bool = True,
) -> dict[str, Any]:
    """Everything the templates print, formatted. `catalog` (tools.catalog.load.Catalog) adds the GPU and
    model spec sources to the sources table; when None the bundled catalog is loaded if available."""
    generated = generated or dt.datetime.now(dt.UTC)
    if catalog is None:
        catalog = _load_catalog_quietly()
    prof = rec.profile
    options = rec.options
    dates = sorted(rec.catalog_as_of.items())
    oldest = min((d for _, d in dates), default=None)
    newest = max((d for _, d in dates), default=None)
    if oldest and newest and oldest != newest:
        catalog_date = f"{oldest.isoformat()} to {newest.isoformat()}"
    else:
        catalog_date = oldest.isoformat() if oldest else "unknown"
    p = rec.primary
    checks = [
        {
            "claim": c.claim,
            "verdict": c.verdict.replace("_", " "),
            "raw": c.verdict,
            "factor": (f"{c.factor:.2g}×" if c.factor is not None else f.UNKNOWN),
            "explanation": c.explanation,
        }
        for c in rec.expectation_checks
    ]
    risks = list(p.risks) if p else []
    risks += [f"{c['claim']}: {c['explanation']}" for c in checks if c["raw"] in ("cannot_hold", "tight")]
    model_name = _model_name(prof, catalog)
    trace_rows, trace_left_out = _trace_rows(rec, catalog)
    workload = field_value("workload", prof.workload) if prof.workload else "workload"
    method = f" ({METHOD_TEXT.get(prof.method, prof.method)})" if prof.method else ""
    return {
        "title": f"GPU recommendation: {model_name}, {workload}{method}",
        "subtitle": title or "",
        "description": " ".join(description.split()) if description else "",
        "generated": generated.strftime("%Y-%m-%d %H:%M UTC"),
        "generated_date": generated.date().isoformat(),
        "catalog_date": catalog_date,
        "catalog_dates": [{"name": k.replace("_", " "), "date": d.isoformat()} for k, d in dates],
        "feasible": p is not None,
        "primary": _option_row(p) if p else None,
        "alternatives": [_option_row(o) for o in rec.alternatives],
        "options": [_option_row(o) for o in options],
        "rejected": [
            {"gpu": r.gpu_name or r.gpu, "kind": r.kind.replace("_", " "), "reason": r.reason}
            for r in _sorted_rejections(rec)
        ],
        "closest_misses": _closest_misses(rec),
        "infeasible_advice": list(rec.infeasible_advice),
        "notes": list(rec.notes),
        "risks": risks[:5],
        "what_changes": _what_changes(rec, catalog),
        "sensitivity_count": len(rec.sensitivity),
        "sensitivity": _sensitivity_rows(rec, catalog),
        "checks": checks,
        "workload_class": _workload_class(rec),
        "deployment_advice": rec.deployment_advice,
        "candidates_considered": rec.candidates_considered,
        "profile_rows": _profile_rows(rec),
        "memory_chart": _memory_chart(options),
        "memory_table": _memory_table(options),
        "cost_chart": _cost_chart(options, prof.budget_usd),
        # the time chart earns its place (and its render cost) when there is a deadline to compare with
        "time_chart": _time_chart(options, prof.deadline_hours) if prof.deadline_hours else "",
        "tco": _tco_table(options),
        "egress": _egress(rec),
        "topology": _topology(rec),
        "assumptions": _assumptions(rec),
        "calibration": calibration_sentence(),
        "appendix": appendix,
        "trace": trace_rows,
        "trace_left_out": trace_left_out,
        "sources": _catalog_sources(rec, catalog),
    }


@lru_cache(maxsize=1)
def _env() -> jinja2.Environment:
    import jinja2

    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATES)),
        autoescape=jinja2.select_autoescape(enabled_extensions=("html", "html.j2"), default_for_string=False),
        trim_blocks=True,
        lstrip_blocks=True,
        undefined=jinja2.StrictUndefined,
    )
    env.filters["md"] = md_cell
    return env


def md_cell(value: object) -> str:
    """Text safe inside a Markdown table cell: pipes escaped, newlines flattened, HTML-significant
    characters escaped so a renderer that allows inline HTML shows user text literally."""
    s = " ".join(str(value).split())
    return s.replace("\\", "\\\\").replace("|", "\\|").replace("<", "&lt;").replace(">", "&gt;")


def _css_string(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ") + '"'


def _footer_css(footer: str) -> str:
    return "@page { @bottom-left { content: " + _css_string(footer) + "; } }\n"


def footer_text(ctx: dict[str, Any]) -> str:
    """The running footer: generation time and catalog price dates (page numbers come from CSS)."""
    return f"Generated {ctx['generated']} · catalog prices as of {ctx['catalog_date']}"


def _html(ctx: dict[str, Any], inline_css: bool) -> str:
    css = ""
    if inline_css:
        css = (STYLES / "report.css").read_text(encoding="utf-8") + "\n" + _footer_css(footer_text(ctx))
    return _env().get_template("report.html.j2").render(css=css, **ctx)


def render_html(
    rec: Recommendation,
    *,
    catalog: Any = None,
    generated: dt.datetime | None = None,
    title: str | None = None,
    description: str | None = None,
    appendix: bool = True,
) -> str:
    """The report as one self-contained HTML document (CSS and SVG inline)."""
    return _html(
        build_context(
            rec, catalog=catalog, generated=generated, title=title, description=description, appendix=appendix
        ),
        inline_css=True,
    )


def render_pdf(
    rec: Recommendation,
    out_path: str | Path,
    *,
    catalog: Any = None,
    generated: dt.datetime | None = None,
    title: str | None = None,
    description: str | None = None,
    appendix: bool = True,
) -> Path:
    """The report as PDF (the stylesheet is parsed once per process and reused)."""
    ctx = build_context(
        rec, catalog=catalog, generated=generated, title=title, description=description, appendix=appendix
    )
    return html_to_pdf(_html(ctx, inline_css=False), Path(out_path), footer=footer_text(ctx))


def render_markdown(
    rec: Recommendation,
    *,
    catalog: Any = None,
    generated: dt.datetime | None = None,
    title: str | None = None,
    description: str | None = None,
    appendix: bool = True,
) -> str:
    """The report as Markdown: same sections and the same formatted numbers, no charts."""
    ctx = build_context(
        rec, catalog=catalog, generated=generated, title=title, description=description, appendix=appendix
    )
    return _env().get_template("report.md.j2").render(**ctx)


def report_json(
    rec: Recommendation,
    *,
    generated: dt.datetime | None = None,
    title: str | None = None,
    description: str | None = None,
) -> dict[str, Any]:
    """recommendation_json + the resolved profile + assumptions + the full trace (unrounded)."""
    from tools.recommend.models import recommendation_json
    from tools.trace import as_mapping

    generated = generated or dt.datetime.now(dt.UTC)
    return {
        "generated": generated.isoformat(timespec="seconds"),
        "title": title,
        "description": description,
        "profile": rec.profile.model_dump(mode="json"),
        "recommendation": recommendation_json(rec),
        "assumptions": [a.model_dump(mode="json") for a in rec.assumptions],
        "trace": as_mapping(rec.trace),
    }


# WeasyPrint's default (user-agent) stylesheet gives every element five footnote and note
# pseudo-elements and a ::marker, so each element's style is computed seven times: 8,268 style
# computations for the 1,310 elements of seed 001's report. The report has no footnotes and markers
# only on <li>: the same stylesheet with those rules dropped, and ::marker scoped to li, renders the
# same pages 11-14% faster (1,166 -> 1,001 ms and 1,209 -> 1,072 ms; bench/report_speed.py prints both).
UA_PSEUDO_ELEMENTS_UNUSED = ("footnote-call", "footnote-marker", "note-call", "note-marker", "note-callback")


def lean_ua_stylesheet_text(ua_css: str) -> str | None:
    """WeasyPrint's default stylesheet text without the rules the report never uses, or None when the
    text no longer has the rules this expects (another WeasyPrint: keep its default stylesheet)."""
    out = ua_css
    for name in UA_PSEUDO_ELEMENTS_UNUSED:
        out, n = re.subn(rf"^::{name} \{{[^}}]*\}}\n", "", out, flags=re.M)
        if n != 1:
            return None
    out, n = re.subn(r"^::marker \{", "li::marker {", out, flags=re.M)
    return out if n == 1 else None


@lru_cache(maxsize=1)
def _weasy() -> tuple[Any, Any, Any]:
    """WeasyPrint's font configuration, the parsed report stylesheet and the HTML class to render
    with (the lean default stylesheet when this WeasyPrint's matches what it expects), built once per
    process (imported here: WeasyPrint's import alone takes most of a second)."""
    import logging

    import weasyprint
    from weasyprint.text.fonts import FontConfiguration

    logging.getLogger("weasyprint").setLevel(logging.ERROR)
    logging.getLogger("fontTools").setLevel(logging.ERROR)
    fonts = FontConfiguration()
    css = weasyprint.CSS(string=(STYLES / "report.css").read_text(encoding="utf-8"), font_config=fonts)
    return fonts, css, _report_html_class(weasyprint)


def _report_html_class(weasyprint: Any) -> Any:
    """weasyprint.HTML with the lean default stylesheet, through the `_ua_stylesheets` hook WeasyPrint's
    own tests override; plain weasyprint.HTML when the hook or the stylesheet is not as expected."""
    try:
        from weasyprint import html as wp_html

        lean = lean_ua_stylesheet_text(wp_html.UA)
        counter_style = wp_html.UA_COUNTER_STYLE
    except (ImportError, AttributeError):
        return weasyprint.HTML
    if lean is None or not callable(getattr(weasyprint.HTML, "_ua_stylesheets", None)):
        return weasyprint.HTML
    lean_sheet = weasyprint.CSS(string=lean, counter_style=counter_style)

    class ReportHTML(weasyprint.HTML):  # type: ignore[misc]
        def _ua_stylesheets(self, forms: bool = False) -> list[Any]:
            return [lean_sheet, wp_html.UA_FORM_STYLESHEET] if forms else [lean_sheet]

    return ReportHTML


def html_to_pdf(
    html: str, out_path: Path, *, footer: str | None = None, lean_ua: bool = True
) -> Path:
    """HTML -> PDF with WeasyPrint; fonts are embedded (subset). `html` from render_html carries its CSS
    inline; pass `footer` with html from render_html(..., inline_css=False) to use the cached stylesheet.
    `lean_ua=False` renders with WeasyPrint's own default stylesheet (for comparison)."""
    import weasyprint

    fonts, css, report_html = _weasy()
    sheets = [css]
    if footer is not None:
        sheets.append(weasyprint.CSS(string=_footer_css(footer), font_config=fonts))
    html_class = report_html if lean_ua else weasyprint.HTML
    doc = html_class(string=html, base_url=str(_HERE))
    doc.write_pdf(str(out_path), stylesheets=sheets if footer is not None else None, font_config=fonts)
    return out_path


def render_report(
    rec: Recommendation,
    fmt: str = "pdf",
    out_path: str | Path = "report.pdf",
    *,
    catalog: Any = None,
    generated: dt.datetime | None = None,
    title: str | None = None,
    description: str | None = None,
    appendix: bool = True,
) -> Path:
    """Write the report for `rec` in `fmt` (pdf, html, md, json) to `out_path`; returns the path.
    `appendix=False` leaves the calculation appendix out of pdf/html/md (a shorter, faster document;
    the JSON always carries the full trace)."""
    from tools.errors import InputError

    if fmt not in FORMATS:
        raise InputError(f"unknown report format {fmt!r}: use one of {', '.join(FORMATS)}")
    out = Path(out_path)
    if out.parent and not out.parent.exists():
        raise InputError(f"output folder {out.parent} does not exist: create it or choose another -o path")
    if fmt == "json":
        out.write_text(
            json.dumps(
                report_json(rec, generated=generated, title=title, description=description),
                indent=2,
            )
            + "\n",
            encoding="utf-8",
        )
    elif fmt == "md":
        out.write_text(
            render_markdown(
                rec,
                catalog=catalog,
                generated=generated,
                title=title,
                description=description,
                appendix=appendix,
            ),
            encoding="utf-8",
        )
    elif fmt == "html":
        out.write_text(
            render_html(
                rec,
                catalog=catalog,
                generated=generated,
                title=title,
                description=description,
                appendix=appendix,
            ),
            encoding="utf-8",
        )
    else:
        render_pdf(
            rec,
            out,
            catalog=catalog,
            generated=generated,
            title=title,
            description=description,
            appendix=appendix,
        )
    return out
