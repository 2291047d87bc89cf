"""What the Slack app does, apart from Bolt: one conversation per thread, briefs from shared files,
Block Kit replies and the PDF report uploaded to the thread.

State lives in the repository (advisor.store), never in this process: each message loads the thread's
conversation state, runs one turn and saves it, so several processes (or a restart) serve one workspace.
The user's message is stored before the turn runs and the reply after it, as in the web app.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import secrets
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from slack_sdk.errors import SlackApiError
from sqlalchemy import select

from advisor.conversation import Conversation, Turn
from advisor.ingest import MAX_BYTES
from advisor.ingest_capped import read_upload
from advisor.llm import templates
from advisor.service import turns
from advisor.service.reports import reports_folder, write_report
from advisor.service.turns import ConversationFactory, resume_conversation
from advisor.slack import blocks as bk
from advisor.store import Repository
from advisor.store.models import SessionRow
from reports.input_account import not_used_items
from tools.errors import InputError
from tools.input_account import InputAccount
from tools.profile import PROFILE_FIELDS

log = logging.getLogger(__name__)

CHANNEL = "slack"
DEFAULT_API_URL = "https://slack.com/api/"
DOWNLOAD_TIMEOUT_S = 30
REPORT_FILENAME = "gpu-advisor-report.pdf"
DESCRIPTION_CHARS = 1500  # the user's words printed in the report
LOCK_STRIPES = 64
USER_MESSAGES_PER_MINUTE = 20  # per Slack user, counted in the store (so across processes)
MAX_FILES_PER_MESSAGE = 3  # briefs read from one message; each is also capped by advisor.ingest.MAX_BYTES

_MENTION_RE = re.compile(r"<@[A-Z0-9]+(?:\|[^>]*)?>")
# "report", "pdf", "send me the report", "generate the PDF please": a request for the document, not a
# sentence that merely contains the word ("the report says 8 GPUs" goes to the conversation).
_REPORT_RE = re.compile(
    r"^\s*(?:please\s+)?(?:(?:send|give|get|make|generate|create|write|render|upload)\s+(?:me\s+)?"
    r"(?:the\s+|a\s+|my\s+)?)?(?:pdf\s+)?(?:report|pdf)(?:\s+(?:please|now|pdf))?\s*[.!]*\s*$",
    re.IGNORECASE,
)


# "delete my data", "please erase all my conversations", "/gpu-advisor delete": the whole message asks it
_DELETE_RE = re.compile(
    r"^\s*(?:please\s+)?(?:delete|erase|remove|forget)(?:\s+(?:all\s+(?:of\s+)?)?my\s+"
    r"(?:data|conversations?|messages|briefs?|reports?))?(?:\s+please)?\s*[.!]*\s*$",
    re.IGNORECASE,
)


def default_conversation_factory(
    state: dict[str, Any] | None, stream: Callable[[str], None] | None = None
) -> Conversation:
    """A new conversation (backend GPU_ADVISOR_BACKEND, default rules) or one resumed from `state`."""
    return resume_conversation(state, stream, backend=os.environ.get("GPU_ADVISOR_BACKEND", "rules"))


def strip_mentions(text: str) -> str:
    """The message without `<@U123>` mention tokens; its line breaks kept (a pasted brief's "Training:" and
    "Serving:" lines are sections), spaces inside a line collapsed."""
    lines = (" ".join(line.split()) for line in _MENTION_RE.sub(" ", text or "").split("\n"))
    return "\n".join(line for line in lines if line)


def is_report_request(text: str) -> bool:
    return bool(_REPORT_RE.match(text or ""))


def is_delete_request(text: str) -> bool:
    return bool(_DELETE_RE.match(text or ""))


def delete_files_in(folder: Path, paths: Sequence[str]) -> int:
    """Delete the files at `paths` that lie inside `folder` (a stored path is still checked); how many."""
    root, removed = folder.resolve(), 0
    for raw in paths:
        path = Path(raw).resolve()
        if path.is_relative_to(root):
            with contextlib.suppress(FileNotFoundError):
                path.unlink()
                removed += 1
    return removed


def thread_key(channel: str, thread_ts: str) -> str:
    """The store's external key for a Slack thread: CHANNEL:THREAD_TS."""
    return f"{channel}:{thread_ts}"


def download_allowed(url: str, api_url: str) -> bool:
    """Only send the bot token to Slack's own hosts: the Web API's origin or its subdomains over HTTPS
    (files.slack.com for slack.com). A file object pointing anywhere else is refused."""
    u, base = urlsplit(url), urlsplit(api_url)
    if not u.hostname or not base.hostname:
        return False
    if (u.scheme, u.hostname, u.port) == (base.scheme, base.hostname, base.port):
        return True
    return u.scheme == "https" and (u.hostname == base.hostname or u.hostname.endswith("." + base.hostname))


@dataclass
class BriefFile:
    name: str
    data: bytes


class SlackAdvisor:
    """The advisor behind the listeners. `client` arguments are slack_sdk WebClients (Bolt's `client`)."""

    def __init__(
        self,
        repo: Repository,
        *,
        conversation_factory: ConversationFactory | None = None,
        reports_dir: Path | None = None,
        api_url: str = DEFAULT_API_URL,
        user_messages_per_minute: int = USER_MESSAGES_PER_MINUTE,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.repo = repo
        self.factory: ConversationFactory = conversation_factory or default_conversation_factory
        self.reports_dir = reports_dir
        self.api_url = api_url
        self.user_messages_per_minute = user_messages_per_minute
        self.clock = clock  # injectable so a test's messages never straddle a rate window
        self._locks = [threading.Lock() for _ in range(LOCK_STRIPES)]

    # --- sessions --------------------------------------------------------------------------------
    @contextlib.contextmanager
    def _serialized(self, session_id: str) -> Iterator[None]:
        """One turn at a time per thread in this process, so two quick messages do not both resume the
        same saved state and lose one update. (Across processes the later save wins.)"""
        with self._locks[hash(session_id) % len(self._locks)]:  # striped: bounded memory, no eviction
            yield

    def session(self, channel: str, thread_ts: str) -> str:
        return self.repo.session_for_key(CHANNEL, thread_key(channel, thread_ts))

    def existing_session(self, channel: str, thread_ts: str) -> str | None:
        """The thread's session if a conversation already runs there (never creates one)."""
        finder = getattr(self.repo, "find_session", None)
        if finder is not None:
            found_by: str | None = finder(CHANNEL, thread_key(channel, thread_ts))
            return found_by
        key = f"{CHANNEL}:{thread_key(channel, thread_ts)}"
        with self.repo._db() as db:  # read-only lookup; the repository has no finder for this yet
            found: str | None = db.scalar(select(SessionRow.id).where(SessionRow.external_key == key))
        return found

    # --- one message -----------------------------------------------------------------------------
    def handle_message(
        self,
        client: Any,
        *,
        channel: str,
        thread_ts: str,
        text: str,
        files: Sequence[Mapping[str, Any]] = (),
        user: str | None = None,
    ) -> None:
        """A user's message in a thread (an @mention, a DM, a slash command's text): run one turn and
        reply in the thread; 'report' uploads the PDF instead."""
        text = strip_mentions(text)
        key = f"slack-user:{user}"
        if user and self.repo.hit_rate_limit(key, self.user_messages_per_minute, 60, now=self.clock()):
            msg = "You are sending messages faster than I can size workloads: wait a minute and try again."
            self._post(client, channel, thread_ts, bk.text_blocks(msg), msg)
            return
        if user and not files and is_delete_request(text):
            msg = self.delete_user_data(user)
            self._post(client, channel, thread_ts, bk.text_blocks(msg), msg)
            return
        session_id = self.session(channel, thread_ts)
        with self._serialized(session_id):
            self._handle(
                client, session_id, channel=channel, thread_ts=thread_ts, text=text, files=files, user=user
            )

    def _handle(
        self,
        client: Any,
        session_id: str,
        *,
        channel: str,
        thread_ts: str,
        text: str,
        files: Sequence[Mapping[str, Any]],
        user: str | None,
    ) -> None:
        brief_text, names, notes = self._briefs(client, files)
        if brief_text is None and is_report_request(text):
            self.repo.add_message(session_id, "user", text, {"slack_user": user} if user else None)
            self.send_report(client, channel=channel, thread_ts=thread_ts, session_id=session_id)
            return
        if not text and brief_text is None:
            if notes:
                self._post(client, channel, thread_ts, bk.text_blocks(" ".join(notes)), " ".join(notes))
                return
            text = ""
        turn = self.run_turn(session_id, text, brief_text, user=user, filename=", ".join(names) or None)
        self.post_turn(client, channel=channel, thread_ts=thread_ts, turn=turn, note=" ".join(notes) or None)
        if getattr(turn, "report_requested", False) and turn.recommendation is not None:
            # "... and send me the PDF": the summary first, then the report of this very recommendation
            self.send_report(
                client, channel=channel, thread_ts=thread_ts, session_id=session_id, rec=turn.recommendation
            )

    def handle_file_shared(self, client: Any, *, file_id: str, channel: str, user: str | None = None) -> None:
        """A file shared in a channel: ingest it when it was shared into a thread where a conversation runs;
        other threads' files are none of our business. In a DM the message event carries the file with the
        user's words, so it is handled there (one reply, not two)."""
        if channel.startswith("D"):
            return
        info = client.files_info(file=file_id)
        file = info.get("file") or {}
        thread_ts = _share_thread(file, channel)
        if thread_ts is None or self.existing_session(channel, thread_ts) is None:
            return
        if not self.repo.first_time_event(f"file:{file_id}"):
            return  # the message event carrying this file handled it already
        brief_text, notes = self._read_file(client, file)
        if brief_text is None:
            self._post(client, channel, thread_ts, bk.text_blocks(" ".join(notes)), " ".join(notes))
            return
        session_id = self.session(channel, thread_ts)
        with self._serialized(session_id):
            turn = self.run_turn(session_id, "", brief_text, user=user, filename=str(file.get("name") or ""))
        self.post_turn(client, channel=channel, thread_ts=thread_ts, turn=turn)

    def start_from_command(
        self, client: Any, respond: Callable[..., Any], *, channel: str, user: str, text: str
    ) -> None:
        """`/gpu-advisor [description]`: open a thread with a parent message and reply in it;
        `/gpu-advisor delete` deletes the user's data and says so to them alone."""
        if is_delete_request(text):
            respond(text=self.delete_user_data(user), response_type="ephemeral")
            return
        opening = f"<@{user}> asked GPU Advisor"
        opening += f": {bk.escape(text.strip())}" if text.strip() else "."
        try:
            parent = client.chat_postMessage(channel=channel, text=opening)
        except SlackApiError as exc:
            reason = exc.response.get("error", "error")
            respond(
                text=f"I cannot post in this channel ({reason}): invite me with `/invite @GPU Advisor`, "
                "or send me a direct message.",
                response_type="ephemeral",
            )
            return
        thread_ts = str(parent["ts"])
        if not text.strip():
            intro = (
                "Describe the workload in this thread (mention me), or share a brief (PDF, DOCX, "
                "Markdown): model, fine-tuning or serving, data size, budget and deadline."
            )
            self.session(channel, thread_ts)
            self._post(client, channel, thread_ts, bk.text_blocks(intro), intro)
            return
        self.handle_message(client, channel=channel, thread_ts=thread_ts, text=text, user=user)

    def delete_user_data(self, user: str) -> str:
        """Delete every conversation `user` wrote in (its messages, briefs and report PDFs; a thread
        shared with others goes whole); returns the one-line answer."""
        sessions = [
            sid
            for sid in self.repo.sessions_with_payload(CHANNEL, "slack_user", user)
            if any(m.payload.get("slack_user") == user for m in self.repo.messages(sid))
        ]
        briefs = reports = 0
        for sid in sessions:
            briefs += len(self.repo.briefs(sid))
            messages = self.repo.messages(sid)
            paths = [str(m.payload["report_path"]) for m in messages if m.payload.get("report_path")]
            self.repo.delete_session(sid)
            reports += delete_files_in(self.reports_dir or reports_folder(), paths)
        if not sessions:
            return "I hold no conversation of yours: there is nothing to delete."
        return (
            f"Deleted {len(sessions)} conversation{'s' if len(sessions) != 1 else ''} you wrote in, with "
            f"{briefs} brief{'s' if briefs != 1 else ''} and {reports} report{'s' if reports != 1 else ''}. "
            "Messages posted in Slack stay there: delete them in Slack."
        )

    # --- the turn --------------------------------------------------------------------------------
    def run_turn(
        self,
        session_id: str,
        text: str,
        brief_text: str | None,
        *,
        user: str | None = None,
        filename: str | None = None,
    ) -> Turn:
        """One stored turn (advisor.service.turns.run_turn: the user's message stored first, the reply
        saved over the state it was computed from, computed again when another message of the thread was
        answered meanwhile, TurnConflict after TURN_ATTEMPTS races)."""
        payload: dict[str, Any] = {}
        if user:
            payload["slack_user"] = user
        if brief_text is not None:
            payload["brief_chars"] = len(brief_text)
            self.repo.add_brief(session_id, filename or "slack-file", brief_text)

        def compute(state: dict[str, Any] | None, _attempt: int, _user_id: int) -> turns.Answer[Turn]:
            conv = self.factory(state, None)
            turn = conv.send(text, brief_text=brief_text)
            saved = {"questions": turn.questions, "report_ready": turn.report_ready, "error": turn.error}
            return turns.Answer(conv.state, turn.reply, saved, turn)

        return turns.run_turn(self.repo, session_id, text, compute, user_payload=payload).result

    def post_turn(
        self, client: Any, *, channel: str, thread_ts: str, turn: Turn, note: str | None = None
    ) -> None:
        rec_json = turn.recommendation_json()
        blocks = bk.summary_blocks(
            rec_json,
            questions=turn.questions,
            understood=understood_items(turn.profile),
            not_used=not_used_items(turn.input_account),
            assumptions=turn.assumptions,
            error=turn.error,
            report_ready=turn.report_ready,
            note=note,
            explanation=turn.reply if turn.source != "template" else None,
        )
        self._post(client, channel, thread_ts, blocks, bk.fallback_text(rec_json, turn.questions, turn.error))

    # --- the report ------------------------------------------------------------------------------
    def send_report(
        self, client: Any, *, channel: str, thread_ts: str, session_id: str | None = None, rec: Any = None
    ) -> Path | None:
        """Render the thread's recommendation (`rec`, or recomputed from the saved profile) to PDF and
        upload it to the thread (files_upload_v2: files.getUploadURLExternal -> upload ->
        files.completeUploadExternal)."""
        session_id = session_id or self.session(channel, thread_ts)
        if rec is None:
            state = self.repo.load_state(session_id)
            if not state:
                msg = "Nothing to report yet: describe the workload in this thread first."
                self._post(client, channel, thread_ts, bk.text_blocks(msg), msg)
                return None
            conv = self.factory(state, None)
            try:
                rec = conv.recommend(conv.profile)
            except InputError as exc:
                msg = f"I cannot write the report yet: {exc}"
                self._post(client, channel, thread_ts, bk.text_blocks(msg), msg)
                return None
        path = self._render(rec, description=self._users_words(session_id), account=self._account(session_id))
        primary = rec.primary
        title = "GPU Advisor report" + (f": {primary.summary}" if primary is not None else "")
        client.files_upload_v2(
            channel=channel,
            thread_ts=thread_ts,
            file=str(path),
            filename=REPORT_FILENAME,
            title=title[:250],
            initial_comment="Here is the report, with every number's formula, inputs and sources.",
        )
        self.repo.add_message(session_id, "assistant", "report uploaded", {"report_path": str(path)})
        return path

    def _users_words(self, session_id: str) -> str | None:
        """What the user wrote in the thread (not briefs, not report requests), for the report's workload
        section, so the buyer sees the request in its author's words."""
        said = [
            m.text.strip()
            for m in self.repo.messages(session_id)
            if m.role == "user" and m.text.strip() and not is_report_request(m.text)
        ]
        text = " / ".join(said)
        return text[: DESCRIPTION_CHARS - 1] + "…" if len(text) > DESCRIPTION_CHARS else (text or None)

    def _account(self, session_id: str) -> InputAccount | None:
        """What the thread's messages held that gave no fact (kept in the conversation state)."""
        raw = (self.repo.load_state(session_id) or {}).get("input_account")
        return InputAccount.model_validate(raw) if raw else None

    def _render(
        self, rec: Any, *, description: str | None = None, account: InputAccount | None = None
    ) -> Path:
        folder = self.reports_dir or reports_folder()
        folder.mkdir(parents=True, exist_ok=True)
        out = folder / f"slack-{secrets.token_urlsafe(12)}.pdf"
        return write_report(
            None, out, fmt="pdf", description=description, recommendation=rec, input_account=account
        )

    # --- files -----------------------------------------------------------------------------------
    def _briefs(
        self, client: Any, files: Sequence[Mapping[str, Any]]
    ) -> tuple[str | None, list[str], list[str]]:
        """Text of the files attached to a message (each file handled once across events), their names,
        and notes about files that could not be read."""
        texts: list[str] = []
        names: list[str] = []
        notes: list[str] = []
        if len(files) > MAX_FILES_PER_MESSAGE:
            notes.append(f"I read the first {MAX_FILES_PER_MESSAGE} files of this message only.")
        for f in list(files)[:MAX_FILES_PER_MESSAGE]:
            file_id = str(f.get("id") or "")
            if not file_id or not self.repo.first_time_event(f"file:{file_id}"):
                continue
            text, file_notes = self._read_file(client, f)
            notes.extend(file_notes)
            if text is not None:
                texts.append(text)
                names.append(str(f.get("name") or "slack-file"))
        return ("\n\n".join(texts) if texts else None), names, notes

    def _read_file(self, client: Any, file: Mapping[str, Any]) -> tuple[str | None, list[str]]:
        name = str(file.get("name") or file.get("title") or "brief")
        try:
            fetched = self.download(client, file)
            return read_upload(fetched.data, fetched.name), []  # parsed in a capped child process
        except InputError as exc:
            return None, [f"I could not read {name}: {exc}"]

    def download(self, client: Any, file: Mapping[str, Any]) -> BriefFile:
        """Fetch a Slack file's bytes with the bot token (url_private_download), refusing files over the
        brief size limit, URLs off Slack's hosts, and Slack's HTML login page (missing files:read)."""
        if not (file.get("url_private_download") or file.get("url_private")):
            file = client.files_info(file=file["id"]).get("file") or {}
        name = str(file.get("name") or "brief")
        size = file.get("size")
        if isinstance(size, int) and size > MAX_BYTES:
            raise InputError(
                f"{name} is {size / 1024 / 1024:.1f} MB, over the {MAX_BYTES // 1024 // 1024} MB limit; "
                "share a shorter brief"
            )
        url = str(file.get("url_private_download") or file.get("url_private") or "")
        if not download_allowed(url, self.api_url):
            raise InputError(f"{name} is not hosted on Slack; upload the file to the thread instead")
        req = urllib.request.Request(url, headers={"Authorization": f"Bearer {client.token}"})
        with urllib.request.urlopen(req, timeout=DOWNLOAD_TIMEOUT_S) as resp:  # noqa: S310 (host checked)
            data = resp.read(MAX_BYTES + 1)
            content_type = str(resp.headers.get("Content-Type") or "")
        if len(data) > MAX_BYTES:
            raise InputError(
                f"{name} is over the {MAX_BYTES // 1024 // 1024} MB limit; share a shorter brief"
            )
        if content_type.startswith("text/html") and "html" not in str(file.get("mimetype") or ""):
            raise InputError(
                "Slack answered with a login page instead of the file: the app needs the "
                "files:read scope (reinstall it from the manifest)"
            )
        return BriefFile(name=name, data=data)

    # --- posting ---------------------------------------------------------------------------------
    @staticmethod
    def _post(client: Any, channel: str, thread_ts: str, blocks: list[dict[str, Any]], text: str) -> None:
        client.chat_postMessage(channel=channel, thread_ts=thread_ts, blocks=blocks, text=text)


def understood_items(profile: Any) -> list[str]:
    """'label value' strings of the fields the user stated or we inferred from their words."""
    items = []
    for f in PROFILE_FIELDS:
        if f == "provenance" or profile.status_of(f) not in ("stated", "inferred"):
            continue
        value = getattr(profile, f, None)
        if value in (None, [], ()):
            continue
        items.append(f"{templates.label(f)} {templates.format_value(f, value, profile.workload)}")
    return items


def _share_thread(file: Mapping[str, Any], channel: str) -> str | None:
    """The thread (its parent ts) where `file` was shared in `channel`, from files.info's `shares`."""
    shares = file.get("shares") or {}
    for scope in ("public", "private"):
        for share in (shares.get(scope) or {}).get(channel) or []:
            ts = share.get("thread_ts") or share.get("ts")
            if ts:
                return str(ts)
    return None
