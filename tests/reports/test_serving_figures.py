"""Serving figures in the report, the JSON, the web card and Slack (issue 14): throughput per replica,
per-user tokens/s and ms per token at the stated load, time to first token, headroom before a limit
binds; a batch generation job reads "per job" wherever its cost is shown."""

from __future__ import annotations

from pathlib import Path

import pytest

from advisor.service.profiles import load_profile
from advisor.service.recommending import recommend_for
from advisor.slack.blocks import alternative_line, primary_blocks
from advisor.web.views import recommendation_view
from reports.json_report import report_json
from reports.markdown import render_markdown
from reports.view import build_context
from tools import present
from tools.profile import WorkloadProfile
from tools.recommend.models import Recommendation, option_json

EXAMPLES = Path(__file__).resolve().parents[2] / "advisor" / "examples"


@pytest.fixture(scope="module")
def serving() -> tuple[Recommendation, object]:
    profile, settings = load_profile(EXAMPLES / "eu-inference-70b.yaml")
    return recommend_for(profile, settings=settings)


@pytest.fixture(scope="module")
def batch_job() -> Recommendation:
    profile = WorkloadProfile(
        workload="inference", model_id="qwen2.5-72b", generation_tokens=2e9, deadline_hours=168
    )
    rec, _ = recommend_for(profile)
    return rec


def test_the_option_carries_per_replica_and_per_user_figures(serving: tuple[Recommendation, object]) -> None:
    rec, _ = serving
    s = rec.primary.serving if rec.primary else None
    assert s is not None
    assert s.concurrency == 16 and s.concurrency_per_replica == 16 and s.replicas == 1
    # one engine over the node: 8x at Nebius before review 19 (R12), 4x B200 at RunPod's EU data centres
    assert rec.primary is not None and s.tensor_parallel == rec.primary.total_gpus
    # a user's tokens/s is 1000 / ms per token; the replica's rate is its users' rates summed
    assert abs(s.per_user_tokens_per_s.low - 1000 / s.ms_per_output_token.high) < 1e-9
    assert abs(s.replica_tokens_per_s.low - 16 * s.per_user_tokens_per_s.low) < 1e-6
    assert 0 < s.time_to_first_token_s.low < s.time_to_first_token_s.high < 1.0
    assert s.headroom_requests_per_replica == s.concurrency_limit_per_replica - 16 > 0
    assert s.binds in ("kv_cache", "server_max_batch")


def test_view_model_and_markdown_show_them(serving: tuple[Recommendation, object]) -> None:
    rec, catalog = serving
    assert rec.primary is not None and rec.primary.serving is not None
    s = rec.primary.serving
    ctx = build_context(rec, catalog=catalog)
    rows = {r["label"]: r["value"] for r in ctx["primary"]["serving"]}
    assert set(rows) == {"Throughput per replica", "Load", "Per user", "Time to first token", "Headroom"}
    assert present.tokens_per_s_range(s.per_user_tokens_per_s) in rows["Per user"]
    assert present.ms_range(s.ms_per_output_token) in rows["Per user"]
    assert rows["Time to first token"] == present.seconds_range(s.time_to_first_token_s)
    assert f"{s.headroom_requests_per_replica:,} more requests per replica" in rows["Headroom"]
    assert ctx["serving_table"] is not None and len(ctx["serving_table"]["heads"]) == len(rec.options)
    md = render_markdown(rec, catalog=catalog)
    assert "**Serving figures**" in md
    assert f"| Per user | {rows['Per user']} |" in md
    assert f"| Time to first token | {rows['Time to first token']} |" in md


def test_json_keys(serving: tuple[Recommendation, object]) -> None:
    rec, _ = serving
    primary = report_json(rec)["recommendation"]["primary"]
    keys = {
        "replica_tokens_per_s",
        "per_user_tokens_per_s",
        "ms_per_output_token",
        "time_to_first_token_s",
        "max_concurrency_per_replica",
        "headroom_requests_per_replica",
        "binds",
    }
    assert keys <= set(primary["serving"])
    assert set(primary["serving"]["ms_per_output_token"]) == {"low", "high"}


def test_training_options_have_no_serving_block(example_profile: Path) -> None:
    profile, settings = load_profile(example_profile)
    rec, catalog = recommend_for(profile, settings=settings)
    assert rec.primary is not None and rec.primary.serving is None
    assert build_context(rec, catalog=catalog)["serving_table"] is None


def test_web_card_and_slack_show_serving_figures(serving: tuple[Recommendation, object]) -> None:
    rec, _ = serving
    view = recommendation_view(rec)
    assert view is not None and view["primary"] is not None
    labels = [r["label"] for r in view["primary"]["serving"]]
    assert "Per user" in labels and "Time to first token" in labels
    assert rec.primary is not None
    fields = primary_blocks(option_json(rec.primary))[0]["fields"]
    text = " ".join(f["text"] for f in fields)
    assert "per user" in text and "Wall time" not in text  # a month of serving has no wall time to show
    assert "per month" in alternative_line(option_json(rec.options[-1]))


def test_batch_job_reads_per_job_everywhere(batch_job: Recommendation) -> None:
    p = batch_job.primary
    assert p is not None and p.cost_basis == "per_job" and p.serving is not None
    assert p.summary.endswith(" per job") and "month" not in p.summary
    view = recommendation_view(batch_job)
    assert view is not None and view["primary"] is not None
    assert view["primary"]["cost"].endswith(" per job")
    fields = primary_blocks(option_json(p))[0]["fields"]
    assert fields[0]["text"].startswith("*Cost per job*")
    md = render_markdown(batch_job)
    assert "Cost (per job)" in md and "per month" not in md.split("## 1.")[0]
