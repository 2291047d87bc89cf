"""scan.LastBefore (the cue nearest before each provider name, one pass per clause) and clip_evidence's
head shortcut give exactly what the direct computations give (issue 12: linear reading)."""

from __future__ import annotations

import random
import re

from advisor.extract.base import clip_evidence
from advisor.extract.rules_provider_cues import _EXCLUDE, _PREFER, _REQUIRE
from advisor.extract.scan import HeadCues, LastBefore
from bench.extraction_speed import mixed_message


def _naive(rx: re.Pattern[str], head: str) -> tuple[int, int, str] | None:
    found = list(rx.finditer(head))
    return (found[-1].start(), found[-1].end(), found[-1].group(0)) if found else None


def _span(m: re.Match[str] | None) -> tuple[int, int, str] | None:
    return None if m is None else (m.start(), m.end(), m.group(0))


TEXTS = (
    "not AWS or " * 120,
    "we prefer not to use AWS, GCP is out and Azure only, but Lambda must be on the approved list " * 12,
    "must be on AWS" + " and also GCP" * 100 + " not Azure",
    "notAWS not" * 50 + "x" * 300 + " rather than Azure",  # a cue glued to a name; a long word
)


def test_last_before_equals_the_last_match_of_every_prefix() -> None:
    texts = (*TEXTS, mixed_message(4000))
    for text in texts:
        for pattern in (_EXCLUDE, _PREFER, _REQUIRE):
            finder = LastBefore(pattern, text)
            for end in range(0, len(text) + 1, 3):  # increasing ends, as the rule asks them
                assert _span(finder.last(end)) == _naive(pattern.regex, text[:end]), (pattern, end)


def test_head_cues_takes_heads_of_its_stretch() -> None:
    text = TEXTS[1]
    cues = HeadCues(text, len(text))
    for start in (0, 40):  # heads from the clause's start, or from after a withdrawn choice in it
        last = cues.at(start)
        for end in range(start, len(text), 7):
            for pattern in (_EXCLUDE, _PREFER):
                assert _span(last(pattern, text[start:end])) == _naive(pattern.regex, text[start:end])


def test_clip_evidence_head_shortcut_is_exact() -> None:
    rng = random.Random(12)
    pieces = ("a", "bc", " ", "  ", "\n", "\t ", "word", "x" * 50, " " * 200)
    for _ in range(400):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 120)))
        for limit in (1, 5, 40, 160):
            one = " ".join(text.split())
            want = one if len(one) <= limit else one[: limit - 1].rstrip() + "…"
            assert clip_evidence(text, limit) == want
