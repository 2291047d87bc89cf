"""Block Kit summaries, the pieces of the service that need no server, the manifest and the settings."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from advisor.conversation import Conversation
from advisor.slack import blocks as bk
from advisor.slack.app import SlackSettings, build_slack_app
from advisor.slack.listeners import COMMAND
from advisor.slack.service import download_allowed, is_report_request, strip_mentions, understood_items
from reports.input_account import not_used_items
from tools import present
from tools.errors import InputError
from tools.input_account import InputAccount, UnusedClause
from tools.ranges import Range

QLORA_70B = "QLoRA fine-tune Llama 3 70B on 50M tokens for 3 epochs, data in AWS"


@pytest.fixture(scope="module")
def turn() -> Any:
    return Conversation().send(QLORA_70B)


def _all_text(blocks: list[dict[str, Any]]) -> str:
    return json.dumps(blocks, ensure_ascii=False)


def test_summary_has_pick_cost_range_and_time_from_the_recommendation(turn: Any) -> None:
    rec = turn.recommendation_json()
    primary = rec["primary"]
    blocks = bk.summary_blocks(rec, questions=turn.questions, assumptions=turn.assumptions, report_ready=True)
    text = _all_text(blocks)
    assert f"*Primary pick:* {primary['total_gpus']}× {primary['gpu_name']}" in text
    # the recommender's range, rounded for reading only, as the report words it
    low, high = primary["cost_usd"]["low"], primary["cost_usd"]["high"]
    assert present.usd_range(Range(low=low, high=high)) in text
    assert primary["provider"] in text
    assert bk.REPORT_ACTION_ID in text
    assert blocks[0]["type"] == "header"


def test_open_questions_are_numbered_and_the_button_waits_for_answers() -> None:
    rec = {
        "primary": {
            "gpu": "h100-sxm",
            "gpu_name": "H100",
            "total_gpus": 1,
            "cost_usd": {"low": 5, "high": 9},
            "wall_hours": {"low": 1, "high": 2},
        },
        "alternatives": [],
    }
    blocks = bk.summary_blocks(rec, questions=["How many epochs?", "What budget?"], report_ready=False)
    text = _all_text(blocks)
    assert "1. How many epochs?" in text and "2. What budget?" in text
    assert bk.REPORT_ACTION_ID not in text and "Say `report`" in text
    assert "$5.00 – $9.00" in text  # under $10: cents shown


def test_user_text_is_escaped_so_it_cannot_ping_or_link() -> None:
    hostile = "<!channel> & <https://evil.example|click> <@U123>"
    rec = {
        "primary": {
            "gpu": "x",
            "gpu_name": hostile,
            "total_gpus": 1,
            "provider": "<!here>",
            "why": [hostile],
            "risks": [hostile],
        },
        "alternatives": [{"gpu_name": hostile, "label": hostile, "total_gpus": 2}],
    }
    blocks = bk.summary_blocks(
        rec, questions=[hostile], understood=[hostile], assumptions=[hostile], note=hostile
    )
    text = _all_text(blocks) + bk.fallback_text(rec, [hostile])
    assert (
        "<!channel>" not in text
        and "<!here>" not in text
        and "<https://" not in text
        and "<@U123>" not in text
    )
    assert "&lt;!channel&gt; &amp; &lt;https://evil.example|click&gt;" in text
    err = bk.summary_blocks(None, error=hostile)
    assert "<!channel>" not in _all_text(err)


def test_slack_limits_are_respected() -> None:
    long = "word " * 2000
    rec = {"primary": {"gpu": "x", "gpu_name": "G", "total_gpus": 1, "why": [long]}, "alternatives": []}
    blocks = bk.summary_blocks(rec, questions=[long] * 3, assumptions=[long] * 30)
    assert len(blocks) <= bk.MAX_BLOCKS
    for b in blocks:
        for t in [b.get("text", {}).get("text", "")] + [e.get("text", "") for e in b.get("elements", [])]:
            assert len(t) <= bk.MAX_SECTION_CHARS
    assert len(bk.fallback_text(rec)) <= bk.MAX_SECTION_CHARS


def test_infeasible_and_no_recommendation_blocks() -> None:
    rec = {
        "primary": None,
        "alternatives": [],
        "infeasible_advice": ["Use QLoRA instead of full fine-tuning"],
    }
    text = _all_text(bk.summary_blocks(rec))
    assert "Nothing in the catalog fits" in text and "Use QLoRA" in text
    assert "Nothing in the catalog fits" in bk.fallback_text(rec)
    none = _all_text(bk.summary_blocks(None, error="Say which model to size", questions=["Which model?"]))
    assert "No recommendation yet" in none and "Which model?" in none


def test_hours_show_days_past_two_days() -> None:
    assert bk.hours_range({"low": 72.0, "high": 225.0}) == "72 – 225 h (3.0 – 9.4 days)"
    assert bk.hours_range({"low": 9.3, "high": 31.2}) == "9.3 – 31 h"
    assert bk.hours_range(None) == present.UNKNOWN
    assert bk.money_range({"low": 1234.4, "high": 1234.4}) == "$1,234"
    assert bk.money_range({"low": 1_262_345, "high": 2_010_000}) == "$1.26M – $2.01M"


def test_understood_lists_only_what_the_user_said(turn: Any) -> None:
    items = understood_items(turn.profile)
    assert any("QLoRA" in i for i in items) and any("50M" in i for i in items)
    assert not any(i.startswith("precision") for i in items)  # assumed, not stated


@pytest.mark.parametrize(
    ("text", "wanted"),
    [
        ("report", True),
        ("Report please", True),
        ("send me the PDF", True),
        ("generate the report", True),
        ("pdf", True),
        ("the report says 8 GPUs, is that right?", False),
        ("report on 70B serving costs", False),
        ("", False),
    ],
)
def test_report_requests(text: str, wanted: bool) -> None:
    assert is_report_request(text) is wanted


def test_mentions_are_stripped() -> None:
    assert strip_mentions("<@UBOT> size <@U2|bob> this") == "size this"
    two_lines = strip_mentions("<@UBOT> Training: LoRA  8B\n\nServing: 40 users")
    assert two_lines == "Training: LoRA 8B\nServing: 40 users"  # sections stay lines


@pytest.mark.parametrize(
    ("url", "ok"),
    [
        ("https://files.slack.com/files-pri/T1-F1/brief.pdf", True),
        ("http://files.slack.com/files-pri/x", False),  # the token never travels in clear text
        ("https://evil.example/files-pri/x", False),
        ("https://slack.com.evil.example/x", False),
        ("https://files.slack.com.evil.example/x", False),
        ("", False),
    ],
)
def test_downloads_only_from_slack_hosts(url: str, ok: bool) -> None:
    assert download_allowed(url, "https://slack.com/api/") is ok


def test_download_from_the_stub_origin_only() -> None:
    assert download_allowed("http://127.0.0.1:5000/files-pri/x", "http://127.0.0.1:5000/api/")
    assert not download_allowed("http://127.0.0.1:5001/files-pri/x", "http://127.0.0.1:5000/api/")


def test_manifest_declares_scopes_events_command_and_one_request_url() -> None:
    path = Path(__file__).resolve().parents[2] / "advisor" / "slack" / "manifest.yaml"
    manifest = yaml.safe_load(path.read_text())
    scopes = set(manifest["oauth_config"]["scopes"]["bot"])
    assert scopes == {
        "app_mentions:read",
        "chat:write",
        "files:read",
        "files:write",
        "im:history",
        "commands",
    }
    settings = manifest["settings"]
    assert set(settings["event_subscriptions"]["bot_events"]) == {"app_mention", "message.im", "file_shared"}
    assert "socket_mode_enabled" in settings
    commands = manifest["features"]["slash_commands"]
    assert [c["command"] for c in commands] == [COMMAND]
    urls = {
        settings["event_subscriptions"]["request_url"],
        settings["interactivity"]["request_url"],
        commands[0]["url"],
    }
    assert len(urls) == 1 and urls.pop().endswith("/slack/events")
    assert len(manifest["display_information"]["long_description"]) >= 175  # Slack's minimum


def test_settings_come_from_the_environment() -> None:
    env = {
        "SLACK_BOT_TOKEN": "xoxb-1",
        "SLACK_SIGNING_SECRET": "s",
        "SLACK_API_URL": "http://127.0.0.1:9/api",
    }
    s = SlackSettings.from_env(env)
    assert (s.bot_token, s.signing_secret, s.app_token, s.api_url) == (
        "xoxb-1",
        "s",
        None,
        "http://127.0.0.1:9/api/",
    )
    assert not s.socket_mode and SlackSettings.from_env({**env, "SLACK_APP_TOKEN": "xapp-1"}).socket_mode


def test_missing_secrets_are_one_line_user_errors(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="SLACK_BOT_TOKEN"):
        build_slack_app(settings=SlackSettings(signing_secret="s"), verify_token=False)
    # an empty signing secret would accept any request signed with the empty key: refused for HTTP
    with pytest.raises(InputError, match="SLACK_SIGNING_SECRET"):
        build_slack_app(settings=SlackSettings(bot_token="xoxb-1"), verify_token=False)


def test_router_from_env_only_when_http_is_configured(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from advisor.slack.http import router_from_env

    for var in ("SLACK_BOT_TOKEN", "SLACK_SIGNING_SECRET", "SLACK_APP_TOKEN"):
        monkeypatch.delenv(var, raising=False)
    assert router_from_env() is None
    monkeypatch.setenv("GPU_ADVISOR_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("SLACK_BOT_TOKEN", "xoxb-1")
    monkeypatch.setenv("SLACK_SIGNING_SECRET", "s")
    router = router_from_env()
    assert router is not None and [r.path for r in router.routes] == ["/slack/events"]  # type: ignore[attr-defined]


def test_a_models_explanation_leads_in_slack_bold_and_escaped() -> None:
    blocks = bk.summary_blocks(None, explanation="**8x H100** fits <!here> & more")
    assert blocks[1]["text"]["text"] == "*8x H100* fits &lt;!here&gt; &amp; more"
    assert "explanation" not in _all_text(bk.summary_blocks(None))


def test_summary_names_what_was_not_used() -> None:
    account = InputAccount(unused=(UnusedClause(text="only SOC 2 vendors", kind="constraint"),))
    blocks = bk.summary_blocks(None, error="x", not_used=not_used_items(account))
    text = json.dumps(blocks)
    assert "I did not use:" in text and "only SOC 2 vendors" in text and "looks like a constraint" in text
    assert "did not use" not in json.dumps(bk.summary_blocks(None, error="x"))
