"""The web page's and the API's JSON views of a turn: the profile with each field's status, the
recommendation summary, the turn."""

from __future__ import annotations

from typing import Any

from advisor.conversation import Turn
from reports.input_account import not_used_items
from reports.labels import FIELD_LABELS, field_value, option_title, option_where
from reports.view import serving_rows
from tools import present as fmt
from tools.profile import PROFILE_FIELDS


def profile_view(profile: Any) -> list[dict[str, Any]]:
    """The profile as the page shows it: one row per known field, with its status and the user's words."""
    rows: list[dict[str, Any]] = []
    for name in PROFILE_FIELDS:
        value = getattr(profile, name, None)
        if value is None or value == []:
            continue
        prov = profile.provenance.get(name)
        rows.append(
            {
                "field": name,
                "label": FIELD_LABELS.get(name, name.replace("_", " ").capitalize()),
                "value": field_value(name, value),
                "status": prov.status if prov is not None else "stated",
                "evidence": prov.evidence if prov is not None else None,
            }
        )
    return rows


def _option_view(opt: Any) -> dict[str, Any]:
    per_month = opt.cost_basis == "per_month"
    batch_job = not per_month and getattr(opt, "serving", None) is not None
    return {
        "cost": fmt.usd_range(opt.cost_usd)
        + (" per month" if per_month else " per job" if batch_job else ""),
        "time": None if per_month else fmt.hours_range(opt.wall_hours),
        "rate": fmt.usd_rate(opt.usd_per_gpu_hour),
        "label": opt.label,
        "title": option_title(opt),
        "where": option_where(opt),
        "summary": opt.summary,
        "gpu": opt.gpu,
        "total_gpus": opt.total_gpus,
        "provider": opt.provider,
        "pricing": opt.pricing,
        "cost_basis": opt.cost_basis,
        "why": list(opt.why),
        "serving": serving_rows(opt),
    }


def recommendation_view(rec: Any) -> dict[str, Any] | None:
    """The recommendation summary for the page and the API: primary, alternatives, advice."""
    if rec is None:
        return None
    return {
        "primary": _option_view(rec.primary) if rec.primary is not None else None,
        "alternatives": [_option_view(o) for o in rec.alternatives],
        "infeasible_advice": list(rec.infeasible_advice),
        "workload_class": rec.workload_class,
        "deployment_advice": rec.deployment_advice,
    }


def turn_view(turn: Turn) -> dict[str, Any]:
    """A Turn as JSON: reply, questions, the profile (resolved, with assumed defaults) and the summary."""
    rec = turn.recommendation
    resolved = getattr(rec, "profile", None) if rec is not None else None
    return {
        "reply": turn.reply,
        "questions": list(turn.questions),
        "question_fields": list(turn.question_fields),
        "assumptions": list(turn.assumptions),
        "report_ready": turn.report_ready,
        "error": turn.error,
        "source": turn.source,
        "profile": profile_view(resolved if resolved is not None else turn.profile),
        "recommendation": recommendation_view(rec),
        "not_used": not_used_items(turn.input_account),
        "input_account": turn.input_account.model_dump(mode="json") if turn.input_account else None,
    }
