"""One figure, one wording: a value reads the same in the report (PDF, web, Markdown), in Slack and in
chat, because every front end words it through tools.present (issue 11)."""

from __future__ import annotations

import pytest

from advisor.llm import templates
from advisor.slack import blocks as bk
from advisor.slack.service import understood_items
from reports.labels import field_value
from reports.view import build_context
from tests.reports.conftest import make_handmade_rec
from tools.profile import WorkloadProfile
from tools.ranges import Range
from tools.recommend.models import recommendation_json

COST_USD = Range(low=1_262_345, high=2_010_000)
WALL_HOURS = Range(low=72, high=225)


def test_a_cost_and_a_duration_read_the_same_in_the_report_and_slack() -> None:
    rec = make_handmade_rec()
    assert rec.primary is not None
    primary = rec.primary.model_copy(update={"cost_usd": COST_USD, "wall_hours": WALL_HOURS})
    rec = rec.model_copy(update={"primary": primary})
    report = build_context(rec)["primary"]
    slack = recommendation_json(rec)["primary"]
    assert report["cost"] == bk.money_range(slack["cost_usd"]) == "$1.26M – $2.01M"
    assert report["wall"] == bk.hours_range(slack["wall_hours"]) == "72 – 225 h (3.0 – 9.4 days)"


@pytest.mark.parametrize(
    ("field", "value", "workload", "text"),
    [
        ("budget_usd", 1_262_345.0, "fine_tuning", "$1.26M"),
        ("method", "full", "fine_tuning", "full fine-tuning"),
        ("method", "full", "pretraining", "full training (all weights)"),
        ("method", "qlora", "fine_tuning", "QLoRA"),
        ("utilization", 0.8, "fine_tuning", "80%"),
        ("cannot_resume", True, "fine_tuning", "not possible (no spot or marketplace hosts)"),
        ("memory_asked", True, "inference", "how much GPU memory (per card and in all)"),
        ("no_latency_target", True, "inference", "none"),  # not "yes": the report once printed that
        ("serving_scheduled", True, "inference", "only those stated (stopped outside them)"),
    ],
)
def test_a_profile_value_reads_the_same_in_the_report_chat_and_slack(
    field: str, value: object, workload: str, text: str
) -> None:
    profile = WorkloadProfile().with_values("stated", workload=workload, **{field: value})
    report_row = next(
        r
        for r in build_context(make_handmade_rec().model_copy(update={"profile": profile}))["profile_rows"]
        if r["key"] == field
    )
    chat = templates.understood(profile, [field])
    slack = [i for i in understood_items(profile) if i.startswith(templates.label(field))]
    assert report_row["value"] == field_value(field, value, workload) == text
    assert f"{templates.label(field)} {text}" in chat
    assert slack == [f"{templates.label(field)} {text}"]


def test_a_deadline_reads_as_its_date_in_chat_and_slack_with_the_reports_hours() -> None:
    """Issue 17: chat and Slack answer now, so a deadline reads as its day and the hours left ('Sat 28 Nov,
    72 h from now'); the report, read later, keeps the duration ('72 h (3.0 days)'). Same hours figure."""
    profile = WorkloadProfile().with_values("stated", workload="fine_tuning", deadline_hours=72.0)
    chat = templates.understood(profile, ["deadline_hours"])
    slack = [i for i in understood_items(profile) if i.startswith(templates.label("deadline_hours"))]
    assert field_value("deadline_hours", 72.0, "fine_tuning") == "72 h (3.0 days)"
    assert chat.endswith(", 72 h from now.") and len(slack) == 1 and slack[0].endswith(", 72 h from now")
    assert chat.removeprefix("I understood: ").removesuffix(".") == slack[0]


def test_a_count_reads_the_same_in_the_report_and_chat() -> None:
    """Chat adds the unit word the report's label carries ('Training tokens per epoch')."""
    assert (
        templates.format_value("dataset_tokens", 1.5e10) == f"{field_value('dataset_tokens', 1.5e10)} tokens"
    )
    assert templates.format_value("params_b", 70.55) == f"{field_value('params_b', 70.55)} parameters"

