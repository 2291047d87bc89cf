"""A rule's findings in each sentence, remembered while one text is read, so a sentence read again is answered
from memory (issue 12, speed8).

A text is often read more than once: a brief with a training and a serving section is read once per part,
and most of its sentences (background, constraints, budget) are in both; a split tried and not kept (a
part that states no fact of its own) is followed by a reading of the whole. 20,000 characters of mixed
briefs were ~300 sentences read twice. `read_once(rule)` keeps, per sentence, the findings the rule added
while going through it, keyed by the sentence (its text, offset, block, quote and section), the part's
workload and whether the sentence is a claim's; a later reading meets the same key and the findings are
appended again, in their place, without running the rule's body on that sentence.

The rule must read each sentence on its own: one pass over `ctx.sentences` (or `ctx.sentences_with`), no
variable carried from one sentence to the next (tests/extract/test_sentence_memo.py checks the source of
each rule wrapped), nothing read of the whole part before or after the loop but its workload, prior and
reference time. The rest is checked as it runs, on a stand-in context (`_Reading`):
- a sentence whose reading looked at the findings (`ctx.findings`, `ctx.has`) or at another sentence's
  claim mark is not remembered (its reading may depend on what was read before it): it runs every time;
- the findings list the rule sees is the part's own at every point (remembered sentences' findings are
  appended as the loop passes them), so such a sentence reads what it would have;
- anything else (an index or the length of the sentences, a second pass, a `return` or `break` inside the
  loop, a finding or a look at the context outside the loop, a change of the workload or of the claims)
  raises NotLocal: the part's state is restored and the rule runs as it is, and is not remembered again.
Outside `regex_memo.remembering` (one RulesExtractor.analyse) every call runs the rule as it is.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Concatenate, ParamSpec

from advisor.extract.base import Finding
from advisor.extract.regex_memo import reading_epoch
from advisor.extract.rules_ctx import Ctx, Entry
from advisor.extract.rules_text import Sentence

# the sentence, the part's workload, whether it is a claim's, the facts of the whole part the rule is given
Key = tuple[Sentence, str | None, bool, tuple[Hashable, ...]]
P = ParamSpec("P")
_RECORDING: ContextVar[bool] = ContextVar("sentence_memo_recording", default=False)
STRICT: ContextVar[bool] = ContextVar("sentence_memo_strict", default=False)  # tests: NotLocal is raised
WRAPPED: list[Callable[..., None]] = []  # every rule read_once wraps (tests/extract/test_sentence_memo.py)


class NotLocal(Exception):
    """The rule read more of the part than the sentence it was going through (see the module docstring)."""


@contextmanager
def recording() -> Iterator[None]:
    """Within the block, readings keep what they find for a later reading (rules.py: the readings of a split
    tried; the last reading of a text only uses what earlier ones kept)."""
    token = _RECORDING.set(True)
    try:
        yield
    finally:
        _RECORDING.reset(token)


class _Claims:
    """The part's claim marks as a sentence's reading may ask them: about its own sentence only."""

    def __init__(self, reading: _Reading) -> None:
        self._reading = reading

    def __contains__(self, start: object) -> bool:
        current = self._reading.current
        if current is None:
            raise NotLocal("claim asked outside the loop")
        if start != current.start:
            self._reading.depends()
        return start in self._reading.parent.claim_sentences

    def __getattr__(self, name: str) -> Any:
        raise NotLocal(f"claims: {name}")

    def __bool__(self) -> bool:
        raise NotLocal("claims tested as a whole")

    def __iter__(self) -> Iterator[int]:
        raise NotLocal("claims read as a whole")

    def __len__(self) -> int:
        raise NotLocal("claims counted")


class _Pass:
    """The sentences of one reading as the rule's loop goes through them: remembered ones are appended from
    memory as the loop passes their place, the others are given to the rule (those `allowed` when it asked
    for the sentences its patterns may match)."""

    def __init__(self, reading: _Reading, allowed: frozenset[int] | None) -> None:
        self._reading = reading
        self._allowed = allowed

    def __iter__(self) -> Iterator[Sentence]:
        reading = self._reading
        if reading.passes:
            raise NotLocal("a second pass over the sentences")
        reading.passes += 1
        return reading.walk(self._allowed)

    def __bool__(self) -> bool:
        return bool(self._reading.keys)

    def __len__(self) -> int:
        raise NotLocal("the sentences counted")

    def __getitem__(self, index: object) -> Sentence:
        raise NotLocal("a sentence by its index")


class _Reading(Ctx):
    """The context a remembered rule reads (module docstring): the part's, seen one sentence at a time."""

    def __init__(
        self, parent: Ctx, keys: list[Key], table: dict[Key, tuple[Finding, ...]], keep: bool
    ) -> None:
        # the fields a rule reads as they are; findings, workload, claims and sentences through the properties
        self.parent = parent
        self.reference_time = parent.reference_time
        self.prior = parent.prior
        self._corrections = parent._corrections
        self.keys = keys
        self.table = table
        self.keep = keep
        self.current: Sentence | None = None
        self.passes = 0
        self.done = False
        self._depends = False

    # --------------------------------------------------------------- what the rule reads
    @property
    def sentences(self) -> _Pass:  # type: ignore[override]
        return _Pass(self, None)

    @property
    def findings(self) -> list[Finding]:  # type: ignore[override]
        if self.current is None:
            raise NotLocal("findings read outside the loop")
        self._depends = True
        return self.parent.findings

    @property
    def workload(self) -> str | None:
        return self.parent.workload

    @workload.setter
    def workload(self, value: str | None) -> None:
        raise NotLocal("the workload set")

    @property
    def claim_sentences(self) -> _Claims:  # type: ignore[override]
        return _Claims(self)

    def sentences_with(self, *patterns: Entry) -> tuple[Sentence, ...]:
        kept = self.parent.sentences_with(*patterns)
        allowed = None if kept is self.parent.sentences else frozenset(map(id, kept))
        return _Pass(self, allowed)  # type: ignore[return-value]

    def add(self, s: Sentence, *args: Any, **kwargs: Any) -> None:
        if s is not self.current:
            raise NotLocal("a finding for another sentence")
        self.parent.add(s, *args, **kwargs)

    def depends(self) -> None:
        """The current sentence's reading looked beyond the sentence: it is not remembered."""
        self._depends = True

    # --------------------------------------------------------------- the pass
    def walk(self, allowed: frozenset[int] | None) -> Iterator[Sentence]:
        findings, table = self.parent.findings, self.table
        for s, key in zip(self.parent.sentences, self.keys, strict=True):
            kept = table.get(key)
            if kept is not None:
                findings.extend(kept)
                continue
            if allowed is not None and id(s) not in allowed:
                if self.keep:
                    table[key] = ()  # no step of the rule can match it
                continue
            at = len(findings)
            self.current, self._depends = s, False
            yield s
            if self.keep and not self._depends:
                table[key] = tuple(findings[at:])
            self.current = None
        self.done = True


def read_once(rule: Callable[Concatenate[Ctx, P], None]) -> Callable[Concatenate[Ctx, P], None]:
    """`rule`, each sentence's findings remembered within one reading of a text (module docstring). Its
    other arguments are facts of the whole part its caller read (hashable: "no deadline anywhere"); they
    are part of each sentence's key."""
    table: dict[Key, tuple[Finding, ...]] = {}
    seen = [0]
    local = [True]
    WRAPPED.append(rule)

    def remembered(ctx: Ctx, /, *args: P.args, **kwargs: P.kwargs) -> None:
        epoch = reading_epoch()
        if not epoch or not local[0]:
            rule(ctx, *args, **kwargs)
            return
        if seen[0] != epoch:
            table.clear()
            seen[0] = epoch
        keep = _RECORDING.get()
        if not table and not keep:
            rule(ctx, *args, **kwargs)  # nothing remembered, nothing to keep: a text read once
            return
        claims = ctx.claim_sentences
        given = (*args, *sorted(kwargs.items()))
        keys = [(s, ctx.workload, s.start in claims, given) for s in ctx.sentences]
        findings, workload, claims_before = list(ctx.findings), ctx.workload, set(claims)
        reading = _Reading(ctx, keys, table, keep)
        try:
            rule(reading, *args, **kwargs)
            if reading.passes and not reading.done:
                raise NotLocal("the loop left early")  # a sentence decided the next ones' reading
        except NotLocal:
            if STRICT.get():
                raise
            ctx.findings[:] = findings
            ctx.workload = workload
            ctx.claim_sentences.clear()
            ctx.claim_sentences.update(claims_before)
            local[0] = False
            table.clear()
            rule(ctx, *args, **kwargs)

    functools.update_wrapper(remembered, rule)  # its name, docstring and __wrapped__ (the source test)
    return remembered
