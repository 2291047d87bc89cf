"""The report's view model: `build_context` turns a `tools.recommend.models.Recommendation` into a
context of already-formatted strings and SVG charts, so the templates never compute. Every number on the
page goes through `tools.present`; the tables and charts are built in reports.view_tables."""

from __future__ import annotations

import datetime as dt
import re
from functools import lru_cache
from typing import Any

from reports.buy_rent import buy_rent_section
from reports.input_account import not_used_heading, not_used_items
from reports.labels import (
    DEPLOYMENT_TEXT,
    FIELD_LABELS,
    STATUS_TEXT,
    field_value,
    option_key_text,
    option_title,
    option_where,
    value_words,
)
from reports.view_tables import (
    catalog_sources,
    cost_chart,
    egress_table,
    memory_chart,
    memory_table,
    tco_table,
    time_chart,
    topology_rows,
)
from tools import present
from tools.input_account import InputAccount
from tools.memory_calibration import calibration_summary
from tools.profile import PROFILE_FIELDS
from tools.recommend.models import YOURS_PROVIDER, YOURS_RESERVED_TIER, FitStatus, Option, Recommendation


def _cost_suffix(opt: Option) -> str:
    return " per month" if opt.cost_basis == "per_month" else " per job"


def _option_row(opt: Option) -> dict[str, Any]:
    per_job = opt.cost_basis == "per_job"
    decode = present.tokens_per_s_range(opt.decode_tokens_per_s) if opt.decode_tokens_per_s else "continuous"
    return {
        "label": opt.label,
        "title": option_title(opt),
        "where": option_where(opt),
        "deployment": "held cloud capacity"
        if opt.tier == YOURS_RESERVED_TIER
        else DEPLOYMENT_TEXT.get(opt.deployment, opt.deployment),
        "rate": present.usd_rate(opt.usd_per_gpu_hour),
        "gpu_hours": (present.gpu_hours_range(opt.gpu_hours) + ("" if per_job else " a month"))
        if opt.gpu_hours
        else present.UNKNOWN,
        # per-month options (serving) have no job duration: their "time" cell is the decode rate
        "time_label": "Time" if per_job else "Decode rate",
        "wall": present.hours_range(opt.wall_hours) if per_job else decode,
        "wall_short": present.hours_range(opt.wall_hours, with_days=False) if per_job else decode,
        "wall_days": present.days_range(opt.wall_hours) if per_job and opt.wall_hours.high >= 48 else "",
        "cost": present.usd_range(opt.cost_usd) + opt.campaign_text(),
        "cost_basis": _cost_suffix(opt).strip(),
        "peak": present.gib(opt.peak_gib_per_gpu),
        "peak_note": present.memory_peak_note(
            opt.memory.peak_phase if opt.memory else None, opt.memory.memory_basis if opt.memory else None
        ),
        "vram": present.gib(opt.vram_gib_per_gpu),
        "why": list(opt.why),
        "risks": list(opt.risks),
        "meets_deadline": _fit_word(opt.deadline_status, favourable_end="fast"),
        "meets_budget": _fit_word(opt.budget_status, favourable_end="low"),
        "tier": "" if opt.provider == YOURS_PROVIDER else opt.tier,  # "your hardware" says it already
        "eu": opt.eu,
        "decode": decode if opt.decode_tokens_per_s else None,
        "serving": serving_rows(opt),
        "price_as_of": opt.price_as_of.isoformat() if opt.price_as_of else present.UNKNOWN,
        "price_source": opt.price_source or present.UNKNOWN,
    }


BINDS_TEXT = {
    "kv_cache": "the KV cache",
    "server_max_batch": "the server's batch limit",
    "latency_target": "the latency target",
}


def serving_rows(opt: Option) -> list[dict[str, str]]:
    """Serving figures of one option as (label, value) rows: throughput per replica, per-user tokens/s
    and ms per token at the load it carries, time to first token and the headroom before a limit binds;
    for a batch job, throughput, hours to finish and the deadline instead (_job_rows). Empty for
    training. Shared by the report and the web card (advisor.web.views)."""
    s = opt.serving
    if s is None:
        return []
    shape = f"TP{s.tensor_parallel}" + (f" × PP{s.pipeline_stages}" if s.pipeline_stages > 1 else "")
    if s.engine_copies > 1:  # a replica's GPUs run engine copies (tools.compute.serving_copies; srv14)
        shape = f"{s.engine_copies} engines of {shape} each"
    replicas = "1 replica" if s.replicas == 1 else f"{s.replicas} replicas"
    if s.spare_replicas:
        replicas += f", {s.spare_replicas} spare"
    rows = [
        {
            "label": "Throughput per replica",
            "value": f"{present.tokens_per_s_range(s.replica_tokens_per_s)} "
            f"({replicas}, {shape}, {s.framework})"
            # the headline's figure where the load carried runs below capacity (a rate target; srv14)
            + (
                f"; {present.tokens_per_s_range(s.capacity_tokens_per_s)} in all at the load it is sized for"
                if s.capacity_tokens_per_s is not None
                else ""
            ),
        }
    ]
    if s.batch_job or opt.cost_basis == "per_job":  # every request queued: no per-user latency to show
        return rows + _job_rows(opt, s.concurrency_per_replica, s.binds)
    load = f"{s.concurrency_per_replica:,} concurrent requests per replica"
    if s.engine_copies > 1:
        load += f" (up to {-(-s.concurrency_per_replica // s.engine_copies):,} per engine)"
    carrying = s.replicas - s.spare_replicas
    if s.spare_replicas:  # N+1: the figures are the survivors' with one replica down
        load += f" with {s.spare_replicas} replica down"
        if s.concurrency is not None:
            load += f" ({s.concurrency:,} over {carrying})"
    elif s.concurrency is not None and s.replicas > 1:
        load += f" ({s.concurrency:,} over {s.replicas})"
    limit = f"{s.concurrency_limit_per_replica:,} requests"
    binds = BINDS_TEXT[s.binds]
    if s.binds == "latency_target" and s.latency_target_ms is not None:
        binds = f"the {s.latency_target_ms:g} ms/token latency target"
        if s.latency_target_source:  # derived from their answer time (expert review 11, R08)
            binds = f"the {s.latency_target_ms:g} ms/token pace of {s.latency_target_source}"
    headroom = (
        f"{s.headroom_requests_per_replica:,} more requests per replica before {binds} binds (at {limit})"
        if s.headroom_requests_per_replica > 0
        else f"none: {binds} binds at {limit} per replica"
    )
    rows += [
        {"label": "Load", "value": load},
        {
            "label": "Per user",
            "value": f"{present.tokens_per_s_range(s.per_user_tokens_per_s)} "
            f"({present.ms_range(s.ms_per_output_token)} per token)",
        },
        {"label": "Time to first token", "value": _ttft_value(s)},
        {"label": "Headroom", "value": headroom},
    ]
    return rows


def _ttft_value(s: Any) -> str:
    """The TTFT band (arrivals spread over time to all at once); with a percentile target, first the figure
    at that percentile under steady arrivals, which the reply checks the target with (srv14)."""
    band = present.seconds_range(s.time_to_first_token_s)
    if s.ttft_at_percentile_s is None or s.ttft_percentile is None:
        return band
    pct = f"p{present.number(s.ttft_percentile)}"
    return (
        f"{present.seconds_range(s.ttft_at_percentile_s)} at the {pct} with arrivals spread over time; "
        f"{band} from spread arrivals to all at once"
    )


def _job_rows(opt: Option, per_replica: int, binds: str) -> list[dict[str, str]]:
    """A batch generation job's figures: the plan's requests per replica, the total throughput, the hours
    to finish and whether that meets the deadline (time to first token means nothing for a queued job)."""
    held = "what its KV cache holds" if binds == "kv_cache" else "the server's batch limit"
    rows = [{"label": "Requests per replica", "value": f"{per_replica:,} (the plan's: {held})"}]
    if opt.decode_tokens_per_s is not None:
        rows.append({"label": "Throughput", "value": present.tokens_per_s_range(opt.decode_tokens_per_s)})
    rows.append({"label": "Hours to finish", "value": present.hours_range(opt.wall_hours)})
    if opt.meets_deadline is not None:
        met = _fit_word(opt.deadline_status, favourable_end="fast")
        rows.append({"label": "Meets the deadline", "value": met})
    return rows


def _serving_table(options: Any) -> dict[str, Any] | None:
    """The options' serving figures side by side (rows: figure; columns: option), or None (training)."""
    per = [serving_rows(o) for o in options]
    if not any(per):
        return None
    labels = [r["label"] for r in max(per, key=len)]
    cells = [{r["label"]: r["value"] for r in rows} for rows in per]
    return {
        "heads": [option_title(o) for o in options],
        "rows": [{"label": k, "cells": [c.get(k, present.UNKNOWN) for c in cells]} for k in labels],
    }


def _fit_word(status: FitStatus | None, *, favourable_end: str) -> str:
    """A deadline or budget check as a buyer reads it: "yes" only when the whole range meets it; a range
    that straddles the limit says so ("only at the fast end") instead of a plain "yes" (expert review 9)."""
    if status is None:
        return present.UNKNOWN
    return {"meets": "yes", "maybe": f"only at the {favourable_end} end", "misses": "no"}[status]


def _profile_rows(rec: Recommendation) -> list[dict[str, Any]]:
    p = rec.profile
    rows = []
    bought = rec.primary is not None and rec.primary.pricing == "owned"
    for name in PROFILE_FIELDS:
        value = getattr(p, name)
        prov = p.provenance.get(name)
        if (value is None or value == []) and prov is None:
            continue
        if name == "deployment_preference" and bought and (prov is None or prov.status == "assumed"):
            # "cloud (assumed)" beside a pick to buy contradicts it; the chat reply leaves it out the same way
            # (advisor.llm.templates.assumptions): the pick's own lines say it is a purchase (fix34)
            continue
        status = prov.status if prov else ("stated" if value not in (None, []) else "assumed")
        rows.append(
            {
                "field": FIELD_LABELS.get(name, name.replace("_", " ")),
                "key": name,
                "value": field_value(name, value, p.workload),
                "status": STATUS_TEXT.get(status, status),
                "evidence": prov.evidence if prov and prov.evidence else "",
            }
        )
    return rows


TOP_RISKS_SHOWN = 5
"""Risks printed under "Top risks" beside "Why this pick"."""


def _said_once(risks: list[str], why: list[str]) -> list[str]:
    """The why lines less those printed under Top risks: a line the engine gives both as a reason and as a
    risk (the purchase price's age, tools.recommend.purchase_age: "said on the buy itself and among its
    risks") is printed once, under Top risks where a buyer looks for caveats; one cut from the top risks
    (past TOP_RISKS_SHOWN) stays a reason (expert review 20 follow-up, fix34: the price-date caveat twice)."""
    shown = set(risks[:TOP_RISKS_SHOWN])
    return [w for w in why if w not in shown]


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
    if rec.primary is not None and rec.primary.pricing == "owned":
        skip |= {"deployment_preference (default)"}  # 'rent unless a reason to own' beside a buy (fix34)
    for a in items:
        if a.name in seen or a.name in skip:
            continue
        val = present.number(a.value) if not isinstance(a.value, str) else a.value
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
                "inputs": [(k, present.number(v)) for k, v in s.inputs.items()],
                "output": f"{present.number(s.output)} {s.unit}".strip(),
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


def _sensitivity_rows(rec: Recommendation, catalog: Any = None) -> list[dict[str, Any]]:
    current = rec.primary.key if rec.primary else None
    rows: list[dict[str, Any]] = []
    for s in rec.sensitivity:
        rows.append(
            {
                "input": s.input.replace("_", " "),
                "base": value_words(s.base) or present.UNKNOWN,
                "low": value_words(s.low),
                "high": value_words(s.high),
                "changes": s.changes_primary,
                # only an end whose pick differs from the primary is worth naming
                "at_low": option_key_text(s.primary_at_low, rec.options, catalog)
                if s.primary_at_low != current
                else "",
                "at_high": option_key_text(s.primary_at_high, rec.options, catalog)
                if s.primary_at_high != current
                else "",
                "cost_low": present.usd_range(s.cost_usd_at_low) if s.cost_usd_at_low else present.UNKNOWN,
                "cost_high": present.usd_range(s.cost_usd_at_high) if s.cost_usd_at_high else present.UNKNOWN,
                "note": s.note,
            }
        )
    rows.sort(key=lambda r: not r["changes"])
    return rows


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
        text = f"{s.input.replace('_', ' ')} (now {value_words(s.base) or 'unknown'}): " + (
            "; ".join(ends) or "changes the pick"
        )
        if s.note:
            text += f". {s.note[:1].upper()}{s.note[1:]}"
        out.append(text)
    return out


def _model_name(prof: Any, catalog: Any) -> str:
    if prof.model_id and catalog is not None:
        try:
            return str(catalog.model(prof.model_id).name)
        except (ValueError, KeyError, AttributeError):
            pass
    if prof.model_id:
        return str(prof.model_id)
    return f"{present.count(prof.params_b * 1e9)}-parameter model" if prof.params_b else "unnamed model"


@lru_cache(maxsize=1)
def calibration_sentence() -> str:
    """The memory estimator's measured accuracy (tools.memory_calibration, computed from the published
    rows each process, never typed in), for the assumptions section."""
    return calibration_summary().sentence()


def _workload_class(rec: Recommendation) -> str | None:
    """The recommender's class, worded for the summary; serving never gets a training class."""
    text = rec.workload_class.replace("_", " ") if rec.workload_class else None
    if _is_serving(rec) and (text is None or "fine-tuning" in text or "pretraining" in text):
        return "inference (serving)"
    return text


def _workload_and_method(workload: str, method: str | None) -> str:
    """'fine tuning (QLoRA)'; the method alone when its name already says the workload ('full
    fine-tuning'); 'pretraining, full training (all weights)' rather than nested brackets."""
    if not method:
        return workload
    if workload in method.replace("-", " "):
        return method
    return f"{workload}, {method}" if "(" in method else f"{workload} ({method})"


def build_context(
    rec: Recommendation,
    *,
    catalog: Any = None,
    generated: dt.datetime | None = None,
    title: str | None = None,
    description: str | None = None,
    appendix: bool = True,
    input_account: InputAccount | None = None,
) -> dict[str, Any]:
    """Everything the templates print, formatted. `catalog` (tools.catalog.load.Catalog) adds the GPU and
    model spec sources to the sources table and names the models and GPUs; the caller loads it (None: the
    report goes without those)."""
    generated = generated or dt.datetime.now(dt.UTC)
    prof = rec.profile
    options = rec.options
    dates = sorted(rec.catalog_as_of.items())
    # the header dates the prices; estimates (discounts, power, PUE) are named assumptions, dated apart
    priced = [d for k, d in dates if k.startswith("prices")] or [d for _, d in dates]
    oldest = min(priced, default=None)
    newest = max(priced, default=None)
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
            "factor": (f"{present.sig2(c.factor)}×" if c.factor is not None else present.UNKNOWN),
            "explanation": c.explanation,
        }
        for c in rec.expectation_checks
    ]
    risks = list(p.risks) if p else []
    risks += [f"{c['claim']}: {c['explanation']}" for c in checks if c["raw"] in ("cannot_hold", "tight")]
    primary_row = _option_row(p) if p else None
    if primary_row is not None:
        primary_row["why"] = _said_once(risks, primary_row["why"])
    model_name = _model_name(prof, catalog)
    trace_rows, trace_left_out = _trace_rows(rec, catalog)
    workload = field_value("workload", prof.workload) if prof.workload else "workload"
    method = present.method_text(prof.method, prof.workload) if prof.method else None
    return {
        "title": f"GPU recommendation: {model_name}, {_workload_and_method(workload, method)}",
        "subtitle": title or "",
        "description": " ".join(description.split()) if description else "",
        "not_used_heading": not_used_heading(),
        "not_used": not_used_items(input_account, limit=None),
        "generated": generated.strftime("%Y-%m-%d %H:%M UTC"),
        "generated_date": generated.date().isoformat(),
        "catalog_date": catalog_date,
        "catalog_dates": [{"name": k.replace("_", " "), "date": d.isoformat()} for k, d in dates],
        "feasible": p is not None,
        "primary": primary_row,
        "time_basis": rec.time_basis or "",
        "alternatives": [_option_row(o) for o in rec.alternatives],
        "options": [_option_row(o) for o in options],
        "rejected": [
            {"gpu": r.gpu_name or r.gpu, "kind": r.kind.replace("_", " "), "reason": r.reason}
            for r in _sorted_rejections(rec)
        ],
        "closest_misses": _closest_misses(rec),
        "infeasible_advice": list(rec.infeasible_advice),
        "notes": list(rec.notes),
        "risks": risks[:TOP_RISKS_SHOWN],
        "what_changes": _what_changes(rec, catalog),
        "sensitivity_count": len(rec.sensitivity),
        "sensitivity": _sensitivity_rows(rec, catalog),
        "checks": checks,
        "workload_class": _workload_class(rec),
        "deployment_advice": rec.deployment_advice,
        "candidates_considered": rec.candidates_considered,
        "profile_rows": _profile_rows(rec),
        "memory_chart": memory_chart(options),
        "memory_table": memory_table(options),
        "serving_table": _serving_table(options),
        "cost_chart": cost_chart(options, prof.budget_usd),
        # the time chart earns its place (and its render cost) when there is a deadline to compare with
        "time_chart": time_chart(options, prof.deadline_hours) if prof.deadline_hours else "",
        "tco": tco_table(options),
        "buy_rent": buy_rent_section(rec),
        "egress": egress_table(rec),
        "topology": topology_rows(rec),
        "assumptions": _assumptions(rec),
        "calibration": calibration_sentence(),
        "appendix": appendix,
        "trace": trace_rows,
        "trace_left_out": trace_left_out,
        "sources": catalog_sources(rec, catalog),
    }
