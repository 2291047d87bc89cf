"""The conversation: one object the CLI chat, the web page and Slack drive turn by turn.

Each `send(text, brief_text=None)`:
1. reads the message (and an uploaded brief) into the profile kept across turns, through the injected
   extractor: corrections ("actually 8 epochs") replace earlier values, instruction-like lines in a brief
   are data, not facts;
2. runs the recommender (deterministic tools/), which applies defaults and marks them assumed;
3. asks at most `max_questions` questions, only about inputs the user has not given whose plausible range
   changes the primary pick (the recommender's sensitivity items with `changes_primary`), each at most
   once: after that the default stands and the reply says so. "Use your defaults" stops the questions;
4. replies: offline with templates (prompts/summary.md, prompts/questions.md); with a chat model, the
   agent explains the recommendation under the number check, the template being its fallback;
5. offers the report once the profile is good enough (a recommendation and no open question).

`state` is a JSON-serialisable dict; `Conversation.from_state(state, ...)` resumes it, so front ends can
persist conversations between requests.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

import prompts
from advisor.both_parts import with_both_parts
from advisor.capacity_answer import CAPACITY_FIELDS, CAPACITY_Q, capacity_for
from advisor.extract import get_extractor
from advisor.extract.accounting import account_for
from advisor.extract.base import Extractor, changed_fields
from advisor.extract.odd_values import blank_out, find_odd_values
from advisor.extract.question_answers import answered_by, answered_questions
from advisor.extract.rules_data import EACH_SIZE
from advisor.extract.units_text import is_token_estimate
from advisor.extract.workloads import Part, part_of, swap, switch_request
from advisor.llm import templates
from advisor.llm.agent import explain
from advisor.llm.chat import make_chat_model
from advisor.llm.extractor import drop_instructed
from advisor.llm.numbers import AllowedNumbers
from advisor.llm.tools import ToolBox, recommendation_brief
from advisor.one_box import with_one_box
from advisor.precision_change import precision_change_note
from advisor.service.recommending import Recommender, process_recommending
from reports.capacity_price import capacity_text
from reports.input_account import not_used_text
from tools.errors import InputError
from tools.input_account import InputAccount
from tools.profile import PROFILE_FIELDS, WorkloadProfile
from tools.recommend.models import recommendation_json

STATE_VERSION = 1
MAX_QUESTIONS = 3
HISTORY_LIMIT = 40  # messages kept in state (the profile, not the transcript, carries the facts)

_DEFAULTS_RE = re.compile(
    r"\b(use|go with|take|apply|stick with)\s+(your|the|sensible)?\s*defaults?\b"
    r"|\bjust (assume|go ahead|pick)\b|\bwhatever you (think|suggest|recommend)\b"
    r"|\bdefaults? (are|is) fine\b|\bassume the rest\b"
    # "don't ask" asks for no questions, but not as an aside: "(compliance, don't ask)", "don't ask why"
    r"|\bdon'?t ask\b(?!\s+why\b)(?![^()]*\))|\bno more questions\b",
    re.IGNORECASE,
)
_REPORT_RE = re.compile(
    r"^\s*(the\s+)?(report|pdf)\b|\b(write|make|generate|create|send|give me|get|want|need)\b[^.?!\n]{0,30}"
    r"\b(report|pdf)\b",
    re.IGNORECASE,
)
# fields a user cannot be asked about (internal assumptions of the engine)
_ASKABLE = set(PROFILE_FIELDS) - {"provenance", "claimed_gpu", "claimed_gpu_count", "claimed_gpu_bound",
                                   "claim_source", "claimed_hours", "claimed_speedup"}

# Inferred by a rough conversion (tokens from GB of text): still worth asking when it changes the pick.
_ESTIMATED = {"dataset_tokens"}


def _estimated(profile: WorkloadProfile, name: str) -> bool:
    """An inferred value worth confirming: a dataset size converted from words, pages or GB of text (not
    one multiplied out of the user's own token counts, e.g. '400k tickets of ~900 tokens')."""
    if name not in _ESTIMATED:
        return False
    prov = profile.provenance.get(name)
    return is_token_estimate(prov.evidence if prov else None)

ReplySource = Literal["template", "model", "regenerated"]


@dataclass
class Turn:
    """One exchange. `profile` holds what the user told us (stated/inferred); the recommendation's own
    `profile` adds the assumed defaults. `questions` are at most three, most decision-relevant first.
    `report_requested`: the user asked for the report ("send me the PDF"); front ends render it when
    `report_ready` (else the reply already says what is missing)."""

    reply: str
    profile: WorkloadProfile
    recommendation: Any | None
    questions: list[str] = field(default_factory=list)
    question_fields: list[str] = field(default_factory=list)
    assumptions: list[str] = field(default_factory=list)
    report_ready: bool = False
    error: str | None = None
    source: ReplySource = "template"
    llm_calls: int = 0
    llm_error: str | None = None
    llm_fallback: bool = False  # the model's extraction failed and the rules' reading stands alone
    llm_rejected: list[dict[str, Any]] = field(default_factory=list)  # model values the merge policy dropped
    report_requested: bool = False
    input_account: InputAccount | None = None
    capacity: Any | None = None  # tools.capacity_price.CapacityPrices: the rented fleet priced elsewhere

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: the design.md ask keys (profile, recommendation, questions) and the turn's extras."""
        return {
            "profile": self.profile.model_dump(mode="json"),
            "recommendation": self.recommendation_json(),
            "questions": list(self.questions),
            "question_fields": list(self.question_fields),
            "assumptions": list(self.assumptions),
            "report_ready": self.report_ready,
            "report_requested": self.report_requested,
            "error": self.error,
            "reply": self.reply,
            "source": self.source,
            "llm_calls": self.llm_calls,
            "llm_error": self.llm_error,
            "llm_fallback": self.llm_fallback,
            "llm_rejected": list(self.llm_rejected),
            "input_account": self.input_account.model_dump(mode="json") if self.input_account else None,
            "capacity_prices": self.capacity.model_dump(mode="json") if self.capacity is not None else None,
        }

    def recommendation_json(self) -> dict[str, Any] | None:
        """The design.md `recommendation` object, or None."""
        if self.recommendation is None:
            return None
        return recommendation_json(self.recommendation)


class Conversation:
    """A multi-turn conversation about one workload.

    extractor: text -> profile (default: `advisor.extract.get_extractor(backend)`).
    recommender: profile -> Recommendation (default: tools.recommend on the bundled catalog).
    chat_model: a LangChain chat model for explanations (default: none with the rules backend, ChatOpenAI
      from the environment with the openai backend). Without one, replies are templated.
    explain: False skips the model's explanation (templated replies; one model call per turn at most).
    stream: called with reply text as it becomes available (sentence by sentence with a model).
    """

    def __init__(
        self,
        extractor: Extractor | None = None,
        *,
        backend: str = "rules",
        recommender: Recommender | None = None,
        chat_model: Any | None = None,
        stream: Callable[[str], None] | None = None,
        max_questions: int = MAX_QUESTIONS,
        explain: bool = True,
    ) -> None:
        if extractor is None:
            extractor = get_extractor(backend)
        self.extractor = extractor
        self.backend = backend
        # the process's recommender (tools.recommend on the bundled catalog, cached) unless one is given
        self._recommender: Recommender = recommender if recommender is not None else process_recommending()
        if chat_model is None and backend == "openai" and explain:
            chat_model = getattr(extractor, "model", None) if hasattr(extractor, "extract_parts") else None
            if chat_model is None:
                chat_model = make_chat_model()
        self.chat_model = chat_model if explain else None
        self.stream = stream
        self.max_questions = max_questions
        self.profile = WorkloadProfile()
        self.asked: dict[str, int] = {}
        self.use_defaults = False
        self.history: list[dict[str, str]] = []
        self.turns = 0
        self.last: Turn | None = None
        self.account: InputAccount | None = None  # every turn's input, used or not (merged)

    # -- persistence -------------------------------------------------------------------------------------
    @property
    def state(self) -> dict[str, Any]:
        """Everything needed to resume: JSON-serialisable (json.dumps works on it)."""
        return {
            "version": STATE_VERSION,
            "backend": self.backend,
            "profile": self.profile.model_dump(mode="json"),
            "asked": dict(self.asked),
            "use_defaults": self.use_defaults,
            "history": list(self.history),
            "turns": self.turns,
            "input_account": self.account.model_dump(mode="json") if self.account is not None else None,
        }

    @classmethod
    def from_state(
        cls, state: dict[str, Any], extractor: Extractor | None = None, **kwargs: Any
    ) -> Conversation:
        """A conversation resumed from `state` (as produced by `.state`)."""
        if state.get("version") != STATE_VERSION:
            raise InputError(
                f"conversation state version {state.get('version')!r} is not {STATE_VERSION}: "
                "start a new conversation"
            )
        kwargs.setdefault("backend", state.get("backend", "rules"))
        conv = cls(extractor, **kwargs)
        conv.profile = WorkloadProfile.model_validate(state.get("profile") or {})
        conv.asked = {str(k): int(v) for k, v in (state.get("asked") or {}).items()}
        conv.use_defaults = bool(state.get("use_defaults"))
        conv.history = [dict(m) for m in state.get("history") or []]
        conv.turns = int(state.get("turns") or 0)
        if state.get("input_account"):
            conv.account = InputAccount.model_validate(state["input_account"])
        return conv

    # -- one turn -----------------------------------------------------------------------------------------
    def recommend(self, profile: WorkloadProfile) -> Any:
        return self._recommender(profile)

    def _already_on(self, before: WorkloadProfile, profile: WorkloadProfile) -> str | None:
        """A GPU asked about ("what if we went with B200s?") that the previous answer already picked: said
        so, rather than read as news (expert review 5, R19)."""
        last = self.last.recommendation if self.last is not None else None
        primary = getattr(last, "primary", None)
        if primary is None or primary.gpu in before.gpus_wanted or primary.gpu not in profile.gpus_wanted:
            return None
        name = primary.gpu_name or primary.gpu
        return f"The pick is already {primary.total_gpus}x {name}: the time and cost are those above."

    def send(self, text: str, brief_text: str | None = None) -> Turn:
        """Process one user message (and optionally an uploaded brief's text) and answer it."""
        text = text or ""
        defaults_now = bool(_DEFAULTS_RE.search(text))
        self.use_defaults = self.use_defaults or defaults_now
        before = self.profile
        followup = self.turns > 0 and before != WorkloadProfile()
        part, text = switch_request(text)  # "now the serving part": the other workload of a brief
        # impossible amounts ("-3 epochs", "0 GPUs", "1e30 tokens") are not read, and said back
        odd_text, odd_brief = find_odd_values(text), find_odd_values(brief_text or "")
        odd_values = [o.describe() for o in odd_text + odd_brief]
        text_read = blank_out(text, odd_text)
        brief_read = None if brief_text is None else blank_out(brief_text, odd_brief)
        profile, extract_calls, extract_error = self._extract(text_read, brief_read, before)
        full = text_read if not brief_read else f"{text_read}\n\n{brief_read}"
        profile = drop_instructed(profile, full, before)
        profile = self._items_said_earlier(text_read, profile, before)
        analysis_of = getattr(self.extractor, "analysis_of", None)  # the rules backend's own reading
        account = account_for(full, profile, before, analysis_of(full) if analysis_of is not None else None)
        merged = account if self.account is None else self.account.merged(account)
        switch_note = None
        if part is not None:
            switched = self._switch(part, text_read, profile, account, merged)
            if switched is not None:
                profile, account, merged, switch_note = switched
                before = WorkloadProfile()  # the switched-to workload's facts are all news
            elif part_of(profile) != part:
                switch_note = prompts.fill(prompts.sections("input_account")["no_other"], part=part)
        self.profile = profile
        changed = [f for f in changed_fields(before, profile) if f in PROFILE_FIELDS]
        already = self._already_on(before, profile)

        rec, error = None, None
        try:
            rec = self.recommend(profile)
        except InputError as exc:
            error = str(exc)
        # "Can one box do both?" of a message with two workloads: answered by sizing both (expert review 18)
        rec = with_one_box(rec, profile, account, self.recommend)
        rec = with_both_parts(rec, profile, account, self.recommend)  # "what would each cost?" (review 20)
        # 'buy or rent?' is answered by its section: not a question left open
        account = answered_questions(account, rec) or account
        # a precision what-if ("What if we run it in FP8 instead?"): the pick before -> after (review 12, R19)
        last_rec = self.last.recommendation if self.last is not None else None
        already = already or precision_change_note(before, profile, last_rec, rec)
        self.account = answered_questions(merged, rec) or merged

        # "what would the same capacity cost at Lambda?": priced with or without a model (review 19, R19)
        capacity = capacity_for(profile)
        # said when the fleet or the question about it is news, not again on every later turn
        lead = [capacity_text(capacity)] if capacity is not None and CAPACITY_FIELDS & set(changed) else []
        if capacity is not None:  # the question it answers is no question left open
            account = answered_by(account, CAPACITY_Q) or account
            self.account = answered_by(self.account, CAPACITY_Q) or self.account
        if capacity is not None and rec is None and profile.model_id is None and profile.params_b is None:
            error = None  # not 'I could not compute a recommendation yet': the question asked is answered
            lead.append(prompts.sections("summary")["capacity_no_model"])
        fields, questions = self._questions(profile, rec)
        for f in fields:
            self.asked[f] = self.asked.get(f, 0) + 1
        assumed = templates.assumptions(rec)
        report_ready = rec is not None and not questions
        report_requested = bool(_REPORT_RE.search(text))

        def template(note: str | None, include_body: bool = True) -> str:
            return templates.summary_reply(
                profile=profile,
                changed=changed,
                rec=rec,
                error=error,
                questions=questions,
                assumed=assumed,
                report_ready=report_ready,
                defaults_ack=defaults_now,
                note=note or switch_note or already,
                include_body=include_body,
                followup=followup,
                not_used=not_used_text(account),
                odd_values=odd_values,
                report_requested=report_requested,
                lead=lead,
            )

        source: ReplySource = "template"
        llm_calls, llm_error = extract_calls, extract_error
        if self.chat_model is not None and rec is not None:
            reply_text, source, calls, err = self._explain(
                text, brief_text, profile, rec, assumed, questions, template
            )
            llm_calls += calls
            llm_error = llm_error or err
        else:
            reply_text = template(None)
            if self.stream is not None:
                self.stream(reply_text)

        self.turns += 1
        said = text + (f"\n\n[brief]\n{brief_text}" if brief_text else "")
        self.history.append({"role": "user", "text": said})
        self.history.append({"role": "assistant", "text": reply_text})
        self.history = self.history[-HISTORY_LIMIT:]
        turn = Turn(
            reply=reply_text,
            profile=profile,
            recommendation=rec,
            questions=questions,
            question_fields=fields,
            assumptions=assumed,
            report_ready=report_ready,
            error=error,
            source=source,
            llm_calls=llm_calls,
            llm_error=llm_error,
            llm_fallback=bool(getattr(self.extractor, "fell_back", False)),
            llm_rejected=[r.as_dict() for r in getattr(self.extractor, "rejected", ())],
            report_requested=report_requested,
            input_account=account,
            capacity=capacity,
        )
        self.last = turn
        return turn

    # -- internals ----------------------------------------------------------------------------------------
    def _switch(
        self, part: Part, text: str, profile: WorkloadProfile, account: InputAccount, merged: InputAccount
    ) -> tuple[WorkloadProfile, InputAccount, InputAccount, str] | None:
        """The other workload of the input (this turn's brief, else an earlier one's) as the profile, with
        the message's own facts read onto it, and the first workload as the other one; a note says which
        part is sized now. None when the input holds no other workload of that part."""
        words = prompts.sections("input_account")
        source = account if account.other_workload is not None else merged
        swapped = swap(profile, source, part)
        if swapped is None:
            return None
        other, source = swapped
        if text.strip():
            other = self.extractor.extract(text, other)
        keep = {"other_workload": source.other_workload}
        note = prompts.fill(words["switched"], part=part)
        return other, account.model_copy(update=keep), merged.model_copy(update=keep), note

    def _items_said_earlier(
        self, text: str, profile: WorkloadProfile, prior: WorkloadProfile
    ) -> WorkloadProfile:
        """The data set's size when this message gives the items' size and an earlier one their count
        ("LoRA on our tickets, about 40k of them" ... "they're around 600 tokens each"): the two messages
        are read together for dataset_tokens only; every other field stays as this turn read it."""
        if profile.dataset_tokens is not None or not EACH_SIZE.search(text):
            return profile
        earlier = next((m["text"] for m in reversed(self.history) if m.get("role") == "user"), None)
        if not earlier:
            return profile
        both, _calls, _error = self._extract(f"{earlier}\n{text}", None, prior)
        if both.dataset_tokens is None:
            return profile
        prov = both.provenance.get("dataset_tokens")
        evidence = {"dataset_tokens": prov.evidence} if prov and prov.evidence else None
        return profile.with_values("inferred", evidence, dataset_tokens=both.dataset_tokens)

    def _extract(
        self, text: str, brief: str | None, prior: WorkloadProfile
    ) -> tuple[WorkloadProfile, int, str | None]:
        ex: Any = self.extractor
        if brief is not None and hasattr(ex, "extract_parts"):
            profile = ex.extract_parts(text, brief, prior)
        else:
            full = text if not brief else f"{text}\n\n{brief}"
            profile = ex.extract(full, prior)
        return profile, int(getattr(ex, "calls", 0) or 0), getattr(ex, "last_error", None)

    def _questions(self, profile: WorkloadProfile, rec: Any) -> tuple[list[str], list[str]]:
        """(fields, question texts): unknown inputs that change the pick, each asked at most once."""
        if rec is None:  # nothing to recommend yet: the essentials, whatever the defaults say
            fields = []
            if profile.model_id is None and profile.params_b is None:
                fields.append("model_id")
            if profile.workload is None and profile.method is None:
                fields.append("workload")
            fields = fields[: self.max_questions]
            return fields, [templates.question(f) for f in fields]
        if self.use_defaults:
            return [], []
        fields, texts = [], []
        for item in getattr(rec, "sensitivity", ()):
            name = getattr(item, "input", None)
            if not getattr(item, "changes_primary", False) or name not in _ASKABLE or name in fields:
                continue
            status = profile.status_of(name)
            known = status == "stated" or (status == "inferred" and not _estimated(profile, name))
            if known or self.asked.get(name, 0):
                continue
            fields.append(name)
            texts.append(templates.question(name, getattr(item, "base", "") or None))
            if len(fields) >= self.max_questions:
                break
        return fields, texts

    def _explain(
        self,
        text: str,
        brief: str | None,
        profile: WorkloadProfile,
        rec: Any,
        assumed: list[str],
        questions: list[str],
        template: Callable[..., str],
    ) -> tuple[str, ReplySource, int, str | None]:
        allowed = AllowedNumbers()
        for m in self.history:
            if m.get("role") == "user":
                allowed.add_user_text(m.get("text", ""))
        allowed.add_user_text(text)
        if brief:
            allowed.add_user_text(brief)
        allowed.add_tool_result(profile)
        allowed.add_tool_result(rec)
        if profile.params_b is not None:
            allowed.add_values([profile.params_b * 1e9])
        box = ToolBox(profile, allowed, recommender=self.recommend)
        tail = template(None, include_body=False)

        def fallback(note: str | None) -> str:
            return template(note)

        stream = self.stream
        reply = explain(
            self.chat_model,
            tools=box.langchain_tools(),
            allowed=allowed,
            user_text=text,
            recommendation=recommendation_brief(rec),
            assumptions=assumed,
            questions=questions,
            fallback=fallback,
            stream=stream,
        )
        body = reply.text
        if reply.source != "template" and tail:
            body = f"{body}\n\n{tail}"
            if stream is not None:
                stream("\n\n" + tail)
        return body, reply.source, reply.llm_calls, reply.error
