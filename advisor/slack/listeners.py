"""Bolt listeners: plain functions (the Slack Bolt starter template's style), each a thin shim that reads
the event and hands it to the `SlackAdvisor` service found in `context["gpu_advisor"]`.

Events are acknowledged by Bolt before these run (process_before_response=False), so a slow turn or a PDF
render never makes Slack retry; the slash command and the button call `ack()` first for the same reason.
A failure is reported in the thread in one line instead of leaving the user waiting.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from advisor.slack import blocks as bk
from advisor.slack.service import SlackAdvisor
from advisor.store.repository import TurnConflict
from tools.errors import InputError

SERVICE_KEY = "gpu_advisor"
COMMAND = "/gpu-advisor"
# message subtypes that carry a user's words; edits, deletions, joins and bot posts are ignored
_USER_SUBTYPES = (None, "file_share", "thread_broadcast")


def _service(context: Any) -> SlackAdvisor:
    service = context.get(SERVICE_KEY)
    if not isinstance(service, SlackAdvisor):
        raise RuntimeError("the GPU Advisor Slack service is not attached to the Bolt context")
    return service


BUSY_TEXT = (
    "Other messages in this thread were being answered at the same time as yours, so I could not fold "
    "it in: it is saved; send it again."
)


def _guarded(
    client: Any, channel: str, thread_ts: str, logger: logging.Logger, work: Callable[[], Any]
) -> None:
    """Run `work`; a user error is answered with its message, anything else with a short apology."""
    try:
        work()
    except InputError as exc:
        _notice(client, channel, thread_ts, str(exc), logger)
    except TurnConflict:
        logger.warning("turn in %s/%s kept losing to other messages of the thread", channel, thread_ts)
        _notice(client, channel, thread_ts, BUSY_TEXT, logger)
    except Exception as exc:
        logger.exception("GPU Advisor failed in %s/%s", channel, thread_ts)
        _notice(
            client,
            channel,
            thread_ts,
            f"Something went wrong on my side ({type(exc).__name__}). Try again, or start a new thread.",
            logger,
        )


def _notice(client: Any, channel: str, thread_ts: str, text: str, logger: logging.Logger) -> None:
    try:
        client.chat_postMessage(channel=channel, thread_ts=thread_ts, text=text, blocks=bk.text_blocks(text))
    except Exception:  # the notice itself failed (revoked token, deleted channel): only log
        logger.exception("could not post a notice to %s", channel)


def _answer_message(event: dict[str, Any], client: Any, context: Any, logger: logging.Logger) -> None:
    """A user's message event: the conversation of its thread (a top-level message starts one)."""
    service = _service(context)
    channel = str(event["channel"])
    thread_ts = str(event.get("thread_ts") or event["ts"])
    _guarded(
        client,
        channel,
        thread_ts,
        logger,
        lambda: service.handle_message(
            client,
            channel=channel,
            thread_ts=thread_ts,
            text=str(event.get("text") or ""),
            files=event.get("files") or [],
            user=event.get("user"),
        ),
    )


def on_app_mention(event: dict[str, Any], client: Any, context: Any, logger: logging.Logger) -> None:
    """@GPU Advisor in a channel: the conversation of the thread (the mention starts one when top-level)."""
    _answer_message(event, client, context, logger)


def on_direct_message(event: dict[str, Any], client: Any, context: Any, logger: logging.Logger) -> None:
    """A direct message to the app: the conversation of its thread (a top-level DM starts one)."""
    if event.get("channel_type") != "im" or event.get("bot_id") or event.get("subtype") not in _USER_SUBTYPES:
        return
    _answer_message(event, client, context, logger)


def on_file_shared(event: dict[str, Any], client: Any, context: Any, logger: logging.Logger) -> None:
    """A file shared where the app is: ingested as a brief when it lands in a conversation's thread."""
    file_id = str(event.get("file_id") or (event.get("file") or {}).get("id") or "")
    channel = str(event.get("channel_id") or "")
    if not file_id or not channel:
        return
    service = _service(context)
    try:
        service.handle_file_shared(client, file_id=file_id, channel=channel, user=event.get("user_id"))
    except Exception:
        logger.exception("could not ingest file %s shared in %s", file_id, channel)


def on_command(
    ack: Callable[..., Any],
    command: dict[str, Any],
    client: Any,
    respond: Callable[..., Any],
    context: Any,
    logger: logging.Logger,
) -> None:
    """/gpu-advisor [description]: acknowledge at once, then open a thread and reply in it."""
    ack()
    service = _service(context)
    try:
        service.start_from_command(
            client,
            respond,
            channel=str(command["channel_id"]),
            user=str(command["user_id"]),
            text=str(command.get("text") or ""),
        )
    except Exception as exc:
        logger.exception("slash command failed")
        respond(
            text=f"Something went wrong on my side ({type(exc).__name__}). Try again.",
            response_type="ephemeral",
        )


def on_report_action(
    ack: Callable[..., Any], body: dict[str, Any], client: Any, context: Any, logger: logging.Logger
) -> None:
    """The 'Get the PDF report' button: render and upload the thread's report."""
    ack()
    service = _service(context)
    channel = str((body.get("channel") or {}).get("id") or (body.get("container") or {}).get("channel_id"))
    message = body.get("message") or {}
    thread_ts = str(
        message.get("thread_ts") or (body.get("container") or {}).get("thread_ts") or message.get("ts")
    )
    _guarded(
        client,
        channel,
        thread_ts,
        logger,
        lambda: service.send_report(client, channel=channel, thread_ts=thread_ts),
    )
