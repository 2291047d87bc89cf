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

import gc
import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Literal

from advisor.extract.base import Extractor, changed_fields
from tools.errors import InputError
from tools.profile import PROFILE_FIELDS, WorkloadProfile

STATE_VERSION = 1
MAX_QUESTIONS = 3
HISTORY_LIMIT = 40  # messages kept in state (the profile, not the transcript, carries the facts)

_DEFAULTS_RE = re.compile(
    r"\b(use|go with|take|apply|stick with)\s+(your|the|sensible)?\s*defaults?\b"
    r"|\bjust (assume|go ahead|pick)\b|\bwhatever you (think|suggest|recommend)\b"
    r"|\bdefaults? (are|is) fine\b|\bassume the rest\b"
    r"|\bdon'?t ask\b|\bno more questions\b",
    re.IGNORECASE,
)
_REPORT_RE = re.compile(
    r"^\s*(the\s+)?(report|pdf)\b|\b(write|make|generate|create|send|give me|get|want|need)\b[^.?!\n]{0,30}"
    r"\b(report|pdf)\b",
    re.IGNORECASE,
)
# fields a user cannot be asked about (internal assumptions of the engine)
_ASKABLE = set(PROFILE_FIELDS) - {"provenance", "claimed_gpu", "claimed_gpu_count", "claimed_hours"}

# Inferred by a rough conversion (tokens from GB of text): still worth asking when it changes the pick.
_ESTIMATED = {"dataset_tokens"}

Recommender = Callable[[WorkloadProfile], Any]

RECOMMENDATION_CACHE_SIZE = 128
"""Recommendations kept per process (see _RecommendationCache): a turn that leaves the profile as it was
("send me the PDF", an answer the extractor finds nothing in) does not run the recommender again."""


class _RecommendationCache:
    """A bounded LRU of the default recommender's results keyed by the catalog object and the canonical
    profile JSON (values and provenance: the recommender reads both). A cache, not state: the
    recommender is a pure function of these, and its result is a frozen model shared read-only.
    Thread-safe (the web server runs turns in worker threads); a miss computes outside the lock."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[tuple[int, str], tuple[Any, Any]] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def get(self, profile: WorkloadProfile, catalog: Any, compute: Callable[[], Any]) -> Any:
        key = (id(catalog), profile.model_dump_json())
        with self._lock:
            got = self._items.get(key)
            if got is not None and got[0] is catalog:  # the catalog is held, so its id is not reused
                self._items.move_to_end(key)
                self.hits += 1
                return got[1]
            self.misses += 1
        rec = compute()
        with self._lock:
            self._items[key] = (catalog, rec)
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)
        return rec

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self.hits = self.misses = 0


_RECOMMENDATIONS = _RecommendationCache(RECOMMENDATION_CACHE_SIZE)


def clear_recommendation_cache(*, calculators: bool = True) -> None:
    """Empty the per-process recommendation cache and (unless calculators=False) the calculator caches
    (benchmarks measuring the recommender's cost)."""
    global _engine_caches
    _RECOMMENDATIONS.clear()
    if calculators:
        _engine_caches = None


ENGINE_CACHE_MAX_ENTRIES = 100_000
"""Calculator results (tools.recommend.caches) kept per process for the bundled catalog: memory, topology
and time estimates recur across turns and sessions (same model, method and sequence length), and each
run's enumeration lets a later turn that changes only cost inputs (a budget) re-price it. A turn adds
about 1,000 entries (about 2 KB each: some 200 MB at the bound); past this many the store is trimmed
(Caches.trimmed: the shape stores and the newest half of the others stay: the latest conversations'
results, which their next turns re-use), and started afresh when what stays is over three quarters."""

_engine_caches: tuple[Any, Any] | None = None  # (catalog, Caches): replaced, never mutated in place


def _engine_caches_for(catalog: Any) -> Any:
    global _engine_caches
    from tools.recommend.caches import Caches

    held = _engine_caches
    if held is None or held[0] is not catalog:
        held = _engine_caches = (catalog, Caches())
    elif held[1].size() > ENGINE_CACHE_MAX_ENTRIES:
        kept = held[1].trimmed(0.5)
        if kept.size() > ENGINE_CACHE_MAX_ENTRIES * 3 // 4:
            kept = Caches()
        held = _engine_caches = (catalog, kept)
    return held[1]


def _default_recommendation(profile: WorkloadProfile) -> Any:
    """advisor.llm.tools.default_recommender (tools.recommend on the bundled catalog) through the caches:
    the recommendation by profile, the calculators' results by their inputs; the result is the same.
    A replaced default_recommender (a test's stand-in) is called as it is, uncached."""
    from advisor.llm import tools as adapters
    from tools.recommend import recommend

    fn = adapters.default_recommender
    if getattr(fn, "__module__", None) != adapters.__name__ or fn.__name__ != "default_recommender":
        return fn(profile)
    catalog = adapters.default_catalog()

    def compute() -> Any:
        with _collector_paused():
            return recommend(profile=profile, catalog=catalog, caches=_engine_caches_for(catalog))

    return _RECOMMENDATIONS.get(profile, catalog, compute)


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector off while the recommender runs, back on after (if it was on).

    Why: a recommendation allocates tens of thousands of short-lived objects, which trigger collections
    that each scan every live object (the catalog, the calculator caches): measured on web_load's
    script, 30% of the CPU went to the collector and a reply's p95 was 160 ms instead of 50 ms. The
    recommender leaves little cyclic garbage; the first collection after it frees that. With threads,
    whichever call paused the collector switches it back on when it ends, so it is never left off."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()
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
    report_requested: bool = False

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
        }

    def recommendation_json(self) -> dict[str, Any] | None:
        """The design.md `recommendation` object, or None."""
        if self.recommendation is None:
            return None
        from tools.recommend.models import recommendation_json

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
            from advisor.extract import get_extractor

            extractor = get_extractor(backend)
        self.extractor = extractor
        self.backend = backend
        self._recommender = recommender
        if chat_model is None and backend == "openai" and explain:
            chat_model = getattr(extractor, "model", None) if hasattr(extractor, "extract_parts") else None
            if chat_model is None:
                from advisor.llm.chat import make_chat_model

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
        }

    @classmethod
    def from_state(
        cls, state: dict[str, Any], extractor: Extractor | None = None, **kwargs: Any
    ) -> Conversation:
        """A conversation resumed from `state` (as produced by `.state`)."""
        if state.get("version") != STATE_VERSION:
            raise InputError(f"conversation state version {state.get('version')!r} is not {STATE_VERSION}: "
                             "start a new conversation")
        kwargs.setdefault("backend", state.get("backend", "rules"))
        conv = cls(extractor, **kwargs)
        conv.profile = WorkloadProfile.model_validate(state.get("profile") or {})
        conv.asked = {str(k): int(v) for k, v in (state.get("asked") or {}).items()}
        conv.use_defaults = bool(state.get("use_defaults"))
        conv.history = [dict(m) for m in state.get("history") or []]
        conv.turns = int(state.get("turns") or 0)
        return conv

    # -- one turn -----------------------------------------------------------------------------------------
    def recommend(self, profile: WorkloadProfile) -> Any:
        if self._recommender is None:  # the default recommender, through the per-process cache
            self._recommender = _default_recommendation
        return self._recommender(profile)

    def send(self, text: str, brief_text: str | None = None) -> Turn:
        """Process one user message (and optionally an uploaded brief's text) and answer it."""
        from advisor.llm import templates
        from advisor.llm.extractor import drop_instructed

        text = text or ""
        defaults_now = bool(_DEFAULTS_RE.search(text))
        self.use_defaults = self.use_defaults or defaults_now
        before = self.profile
        followup = self.turns > 0 and before != WorkloadProfile()
        profile, extract_calls, extract_error = self._extract(text, brief_text, before)
        full = text if not brief_text else f"{text}\n\n{brief_text}"
        profile = drop_instructed(profile, full, before)
        self.profile = profile
        changed = [f for f in changed_fields(before, profile) if f in PROFILE_FIELDS]

        rec, error = None, None
        try:
            rec = self.recommend(profile)
        except InputError as exc:
            error = str(exc)

        fields, questions = self._questions(profile, rec)
        for f in fields:
            self.asked[f] = self.asked.get(f, 0) + 1
        assumed = templates.assumptions(rec)
        report_ready = rec is not None and not questions

        def template(note: str | None, include_body: bool = True) -> str:
            return templates.summary_reply(
                profile=profile, changed=changed, rec=rec, error=error, questions=questions, assumed=assumed,
                report_ready=report_ready, defaults_ack=defaults_now, note=note, include_body=include_body,
                followup=followup,
            )

        source: ReplySource = "template"
        llm_calls, llm_error = extract_calls, extract_error
        if self.chat_model is not None and rec is not None:
            reply_text, source, calls, err = self._explain(text, brief_text, profile, rec, assumed, questions,
                                                           template)
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
        turn = Turn(reply=reply_text, profile=profile, recommendation=rec, questions=questions,
                    question_fields=fields, assumptions=assumed, report_ready=report_ready, error=error,
                    source=source, llm_calls=llm_calls, llm_error=llm_error,
                    report_requested=bool(_REPORT_RE.search(text)))
        self.last = turn
        return turn

    # -- internals ----------------------------------------------------------------------------------------
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
        from advisor.llm import templates

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
            known = status == "stated" or (status == "inferred" and name not in _ESTIMATED)
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
        from advisor.llm.agent import explain
        from advisor.llm.numbers import AllowedNumbers
        from advisor.llm.tools import ToolBox, recommendation_brief

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
            self.chat_model, tools=box.langchain_tools(), allowed=allowed, user_text=text,
            recommendation=recommendation_brief(rec), assumptions=assumed, questions=questions,
            fallback=fallback, stream=stream,
        )
        body = reply.text
        if reply.source != "template" and tail:
            body = f"{body}\n\n{tail}"
            if stream is not None:
                stream("\n\n" + tail)
        return body, reply.source, reply.llm_calls, reply.error
