"""The Bolt app: `build_slack_app(...)` wires settings, the Web API client, the advisor service and the
middleware, then `register_listeners(app)` adds the plain listener functions (advisor/slack/listeners.py).

Secrets come only from the environment: SLACK_BOT_TOKEN (xoxb-...), SLACK_SIGNING_SECRET (HTTP mode) and
SLACK_APP_TOKEN (xapp-..., Socket Mode). SLACK_API_URL points the Web API elsewhere (tests use a local
stub); files are downloaded only from that API's host and its subdomains.

Requests: Bolt verifies every HTTP request's signature and refuses timestamps older than five minutes
(401); an HTTP app without a signing secret is refused outright, since an empty secret would sign
anything. Slack retries an event it thinks was not delivered (X-Slack-Retry-Num); the event id is recorded
in the store, so a retry or a replayed request is acknowledged and dropped, across processes.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from slack_sdk import WebClient

from advisor.service.turns import ConversationFactory
from advisor.slack import listeners
from advisor.slack.blocks import REPORT_ACTION_ID
from advisor.slack.service import DEFAULT_API_URL, SlackAdvisor
from advisor.store import Repository, open_repository
from tools.errors import InputError

if TYPE_CHECKING:
    from slack_bolt import App


@dataclass(frozen=True)
class SlackSettings:
    """Slack credentials and endpoints; `from_env()` is the only place they are read."""

    bot_token: str | None = None
    signing_secret: str | None = None
    app_token: str | None = None
    api_url: str = DEFAULT_API_URL

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> SlackSettings:
        env = os.environ if env is None else env
        api_url = env.get("SLACK_API_URL") or DEFAULT_API_URL
        return cls(
            bot_token=env.get("SLACK_BOT_TOKEN") or None,
            signing_secret=env.get("SLACK_SIGNING_SECRET") or None,
            app_token=env.get("SLACK_APP_TOKEN") or None,
            api_url=api_url if api_url.endswith("/") else api_url + "/",
        )

    @property
    def socket_mode(self) -> bool:
        return self.app_token is not None


def build_slack_app(
    *,
    settings: SlackSettings | None = None,
    repo: Repository | None = None,
    conversation_factory: ConversationFactory | None = None,
    reports_dir: Path | None = None,
    socket_mode: bool | None = None,
    verify_token: bool = True,
    process_before_response: bool = False,
) -> App:
    """The Bolt App with GPU Advisor's listeners.

    settings: default SlackSettings.from_env(). repo: default advisor.store.open_repository()
    (DATABASE_URL / SQLite in the data dir). conversation_factory: (state or None, stream or None) ->
    Conversation, the same signature as the web app's. socket_mode: default settings.socket_mode (then
    no signing secret is needed). verify_token: call auth.test now, so a wrong token fails at start.
    process_before_response: keep False on a server (Bolt acknowledges, then the listener runs in its
    thread pool); True only on FaaS platforms.
    Raises InputError naming the missing environment variable.
    """
    # lazy: Bolt costs ~25 ms of the web app's start, which imports this module (SlackSettings) to see
    # whether Slack is configured at all (tests/mcp/test_mcp_server.py checks this module stays light)
    from slack_bolt import App

    settings = settings or SlackSettings.from_env()
    socket = settings.socket_mode if socket_mode is None else socket_mode
    if not settings.bot_token:
        raise InputError(
            "set SLACK_BOT_TOKEN to the app's bot token (xoxb-...; see the README's Slack setup)"
        )
    if not socket and not settings.signing_secret:
        raise InputError(
            "set SLACK_SIGNING_SECRET (Basic Information > App Credentials) or SLACK_APP_TOKEN "
            "for Socket Mode"
        )
    if repo is None:
        repo = open_repository()
    service = SlackAdvisor(
        repo, conversation_factory=conversation_factory, reports_dir=reports_dir, api_url=settings.api_url
    )
    client = WebClient(token=settings.bot_token, base_url=settings.api_url)
    _quiet_client_token_warning()
    app = App(
        name="gpu-advisor",
        client=client,
        signing_secret=settings.signing_secret or "",
        token_verification_enabled=verify_token,
        process_before_response=process_before_response,
    )
    app.use(attach_service(service))
    app.use(drop_retries(service))
    register_listeners(app)
    return app


class _DropClientTokenWarning(logging.Filter):
    """Bolt reads SLACK_BOT_TOKEN itself and warns that the client's token wins: the same token here."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "`token` will be unused" not in record.getMessage()


def _quiet_client_token_warning() -> None:
    bolt_logger = logging.getLogger("slack_bolt.App")
    if not any(isinstance(f, _DropClientTokenWarning) for f in bolt_logger.filters):
        bolt_logger.addFilter(_DropClientTokenWarning())


def attach_service(service: SlackAdvisor) -> Callable[..., Any]:
    """Middleware putting the advisor service into every request's context."""

    def attach(context: Any, next: Callable[[], Any]) -> Any:  # noqa: A002 (Bolt's argument name)
        context[listeners.SERVICE_KEY] = service
        return next()

    return attach


def drop_retries(service: SlackAdvisor) -> Callable[..., Any]:
    """Middleware acknowledging (200) and dropping an event whose event_id was seen before: Slack's
    retries (X-Slack-Retry-Num) and replayed requests. The id is recorded in the store."""
    from slack_bolt import BoltResponse  # lazy: Bolt, see build_slack_app

    def dedup(body: dict[str, Any], next: Callable[[], Any], logger: Any) -> Any:  # noqa: A002
        event_id = body.get("event_id") if body.get("type") == "event_callback" else None
        if event_id and not service.repo.first_time_event(str(event_id)):
            logger.info("dropping event %s: already seen (a retry or a replay)", event_id)
            return BoltResponse(status=200, body="")
        return next()

    return dedup


def register_listeners(app: App) -> None:
    """Events (app_mention, message.im, file_shared), the /gpu-advisor command and the report button."""
    app.event("app_mention")(listeners.on_app_mention)
    app.event("message")(listeners.on_direct_message)
    app.event("file_shared")(listeners.on_file_shared)
    app.command(listeners.COMMAND)(listeners.on_command)
    app.action(REPORT_ACTION_ID)(listeners.on_report_action)


def start_socket_mode(app: App, app_token: str) -> None:
    """Connect over Socket Mode (no public URL needed) and serve until interrupted."""
    from slack_bolt.adapter.socket_mode import SocketModeHandler  # lazy: Bolt, see build_slack_app

    SocketModeHandler(app, app_token).start()  # type: ignore[no-untyped-call]
