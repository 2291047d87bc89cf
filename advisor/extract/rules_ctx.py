"""The state the rules share while reading one text, and small text helpers (negation, corrections)."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import compress
from typing import Any, TypeAlias

from advisor.extract.base import Finding, clip_evidence
from advisor.extract.regex_first import with_first_char
from advisor.extract.regex_keys import SCOPE, Keyed, Scope, keyed
from advisor.extract.rules_text import Sentence
from tools.profile import WorkloadProfile

I = re.I  # noqa: E741
# a sentence about a past try-out on other hardware, not this job: "I prototyped this on my own 3090 at
# home, which did ~35 tok/s, irrelevant for prod"
PROTOTYPE = keyed(
    r"\b(?:prototyp\w*|tried\s+(?:it\s+|this\s+)?(?:out\s+)?on|tested\s+(?:it\s+|this\s+)?on|toy\s+run|"
    r"irrelevant\s+for\s+(?:prod\w*|this)|just\s+to\s+(?:say|see|show)\s+(?:that\s+)?it\s+runs)\b",
    I,
)
CORRECTION = keyed(
    r"\b(?:actually|instead|sorry|scratch|correction|i meant|make it|change (?:it|that) to|switch to|"
    r"update:|rather|now|miscount\w*|mis(?:spoke|typed|read)|typo|my bad|oops|i was wrong|turns out)\b",
    I,
)
NEGATION = keyed(r"(?:\bnot|\bno|\bwithout|\binstead of|\brather than|n't|\bnever)\s+(?:\w+\s+){0,2}$", I)


QUOTED_PENALTY = 10**9  # quoted text ranks below every unquoted statement, keeping its own order


@dataclass
class Ctx:
    """Sentences of one text, the reference time, and the findings the rules add as they read."""

    sentences: tuple[Sentence, ...]
    reference_time: dt.datetime
    findings: list[Finding] = field(default_factory=list)
    workload: str | None = None
    claim_sentences: set[int] = field(default_factory=set)
    prior: WorkloadProfile | None = None  # the earlier turns' profile: a correction may name its values
    _corrections: dict[int, bool] = field(default_factory=dict)  # sentence start -> says "actually"...
    # sentences_with's: the scope asked last, the sentences' text ids, whether that scope holds them all
    _text_ids: tuple[Scope | None, tuple[int, ...], bool] = field(
        default=(None, (), False), init=False, repr=False, compare=False
    )

    def is_correction(self, s: Sentence) -> bool:
        """Whether sentence `s` corrects an earlier statement; read once per sentence, so a long
        sentence with many findings is scanned once, not once per finding."""
        if s.start not in self._corrections:
            self._corrections[s.start] = bool(CORRECTION.search(s.text))
        return self._corrections[s.start]

    def add(
        self,
        s: Sentence,
        name: str,
        value: Any,
        evidence: str,
        status: str = "stated",
        offset: int = 0,
        rank: int | None = None,
        estimate: bool = False,
    ) -> None:
        """Record a finding. Inferred values are conversions of what the sentence states unless
        `estimate` (a value guessed from another quantity, e.g. tokens from GB on disk)."""
        pos = s.start + offset - (QUOTED_PENALTY if s.quoted else 0) if rank is None else rank
        self.findings.append(
            Finding(
                field=name,
                value=value,
                status="inferred" if status == "inferred" else "stated",
                evidence=clip_evidence(evidence),
                position=pos,
                correction=self.is_correction(s),
                converted=status == "inferred" and not estimate,
            )
        )

    def has(self, name: str) -> bool:
        """Whether any finding for `name` was recorded."""
        return any(f.field == name for f in self.findings)

    def sentences_with(self, *patterns: Entry) -> tuple[Sentence, ...]:
        """The sentences, in order, in whose text one of `patterns` may match (the scope's word index,
        regex_keys.Scope): what a rule reads when each step of its body in a sentence needs one of them to
        match that sentence's text or a slice of it (a slice lacks the words its sentence lacks). Every
        sentence when a pattern needs no word or the index does not know (the gates then ask each text).
        A rule asks each of its patterns of every sentence (~130 rules x ~300 sentences x 2 parts for
        20,000 characters of briefs), and most of them open for few sentences (issue 12, speed8)."""
        scope = SCOPE.get()
        if scope is None:
            return self.sentences
        where = scope.base or scope
        union: set[int] = set()
        for rx in patterns:
            # a module's plain pattern is a KeyedPattern (regex_keys.key_patterns) once rules.py has loaded
            held = rx.held_in(where) if isinstance(rx, Keyed | Gated) else None
            if held is None:
                return self.sentences
            union |= held
        ids = scope.ids
        seen, own, inside = self._text_ids
        if seen is not scope:  # once per scope: each sentence's text id, and whether the scope holds them all
            own = tuple(id(s.text) for s in self.sentences)
            self._text_ids = (scope, own, ids.issuperset(own))
            inside = self._text_ids[2]
        if inside:  # the usual case (rules.py reads a part in a scope of its own sentences): picked in C
            return tuple(compress(self.sentences, map(union.__contains__, own)))
        return tuple(s for s in self.sentences if id(s.text) in union or id(s.text) not in ids)


def negated(text: str, start: int) -> bool:
    """Whether a negation ("not", "no", "without", "rather than" ...) closely precedes `start`."""
    return bool(NEGATION.search(text[max(0, start - 30) : start]))


def q(m: re.Match[str]) -> str:
    """The matched words, trimmed (evidence)."""
    return m.group(0).strip()


class Gated:
    """A compiled pattern that runs only when the text contains one of `keys` (lower-case substrings).

    Most sentences mention none of a rule's words; a substring test is far cheaper than a regex scan
    with look-behinds and alternations, which keeps long briefs fast.
    """

    def __init__(self, pattern: re.Pattern[str], *keys: str) -> None:
        self.original = pattern
        self.pattern = pattern  # its first-character form (regex_first.py) once a sentence opens the gate
        self._pending = True  # the first-character form not yet asked for (it may be the pattern itself)
        self.keys = keys
        self._held: tuple[Scope | None, frozenset[int] | None] = (None, None)  # `_index`, per scope

    def _index(self, scope: Scope) -> frozenset[int] | None:
        """The ids of `scope`'s sentences whose lower-casing holds a key (none when the whole's lacks
        them); None when not known (each sentence is asked on its own)."""
        if scope.low is not None:
            held = scope.holding(self.keys, True)
        else:
            held = None if any(k in scope.lowered() for k in self.keys) else frozenset()
        self._held = (scope, held)
        if held != frozenset() and self._pending:  # the same matches, found sooner
            self.pattern = with_first_char(self.original)
            self._pending = False
        return held

    def held_in(self, where: Scope) -> frozenset[int] | None:
        """`_index(where)`, kept from the last call for the same scope."""
        seen, held = self._held
        return held if seen is where else self._index(where)

    def _open(self, text: str) -> bool:
        scope = SCOPE.get()
        if scope is not None:  # a whole sentence: the scope's index answers
            where = scope.base or scope
            seen, held = self._held
            if seen is not where:
                held = self._index(where)
            if held is not None:
                key = id(text)
                if key in held:
                    return True
                if key in scope.ids:
                    return False
        return any(map(text.lower().__contains__, self.keys))

    def finditer(self, text: str) -> Iterator[re.Match[str]]:
        """Matches of the pattern, or none without running it when no key word occurs."""
        return self.pattern.finditer(text) if self._open(text) else iter(())

    def search(self, text: str) -> re.Match[str] | None:
        """First match of the pattern, or None without running it when no key word occurs."""
        return self.pattern.search(text) if self._open(text) else None


Entry: TypeAlias = Keyed | Gated | re.Pattern[str]  # what Ctx.sentences_with reads the word index of
