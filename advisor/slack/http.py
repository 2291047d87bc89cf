"""The hook the web app calls (advisor.web.app.integration_routers): Slack's /slack/events router when the
environment configures Slack for HTTP (SLACK_BOT_TOKEN and SLACK_SIGNING_SECRET), else None.

So `gpu-advisor serve` and `gpu-advisor slack` (HTTP mode) serve Slack from the same app, in every
uvicorn worker, against the same database.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from advisor.slack.app import SlackSettings, build_slack_app

if TYPE_CHECKING:
    from fastapi import APIRouter

    from advisor.store import Repository


def router_from_env(repo: Repository | None = None) -> APIRouter | None:
    """The events router, or None when SLACK_BOT_TOKEN or SLACK_SIGNING_SECRET is unset. The token is
    checked on the first request (auth.test), so the web app starts even while Slack is unreachable."""
    # lazy: the router module loads Bolt (~25 ms of every web app start); needed only when Slack is configured
    from advisor.slack.routes import slack_router

    settings = SlackSettings.from_env()
    if not settings.bot_token or not settings.signing_secret:
        return None
    bolt_app = build_slack_app(settings=settings, repo=repo, socket_mode=False, verify_token=False)
    return slack_router(bolt_app)
