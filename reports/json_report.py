"""The report as JSON: the engine's values unrounded, for programs (no presentation formatting)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from tools.input_account import InputAccount
from tools.recommend.models import Recommendation, recommendation_json
from tools.trace import as_mapping


def report_json(
    rec: Recommendation,
    *,
    generated: dt.datetime | None = None,
    title: str | None = None,
    description: str | None = None,
    input_account: InputAccount | None = None,
) -> dict[str, Any]:
    """recommendation_json + the resolved profile + assumptions + the full trace (unrounded)."""
    generated = generated or dt.datetime.now(dt.UTC)
    return {
        "generated": generated.isoformat(timespec="seconds"),
        "title": title,
        "description": description,
        "input_account": input_account.model_dump(mode="json") if input_account is not None else None,
        "profile": rec.profile.model_dump(mode="json"),
        "recommendation": recommendation_json(rec),
        "assumptions": [a.model_dump(mode="json") for a in rec.assumptions],
        "trace": as_mapping(rec.trace),
    }
