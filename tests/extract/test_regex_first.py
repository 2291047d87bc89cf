"""regex_first (issue 12, speed6): a pattern behind a lookahead of the characters its matches open with
finds what the pattern finds: every pattern of the extraction modules that got one, over the sentences of an
8,000-character message of eval briefs and texts with characters `re` folds to ASCII letters; and the
patterns it must leave alone are left alone."""

from __future__ import annotations

import gc
import re

import advisor.extract.accounting  # noqa: F401  (imports every rule module and the accounting's patterns)
from advisor.extract import regex_first
from advisor.extract.regex_first import first_chars, with_first_char
from advisor.extract.regex_memo import MemoPattern, Remembered, remembering
from advisor.extract.rules_ctx import Gated
from advisor.extract.rules_text import split_sentences
from bench.extraction_speed import mixed_message

ODD = ("Ünïcode Straße İSTANBUL \u212aELVIN \u017fpot ok: 8x H100, EU only", "", "k", "\u212a", "1,000 tok/s")


def _same(a: re.Pattern[str], b: re.Pattern[str], text: str, positions: tuple[int, ...]) -> None:
    found = [(m.span(), m.groups()) for m in b.finditer(text)]
    assert found == [(m.span(), m.groups()) for m in a.finditer(text)]
    for pos in positions:
        x, y = a.search(text, pos), b.search(text, pos)
        assert (x and (x.span(), x.groups())) == (y and (y.span(), y.groups()))
        x, y = a.match(text, pos), b.match(text, pos)
        assert (x and x.span()) == (y and y.span())


def test_every_faster_rule_pattern_finds_what_the_pattern_finds() -> None:
    originals = [g.original for g in gc.get_objects() if isinstance(g, (Remembered, Gated))]
    pairs = [(rx, with_first_char(rx)) for rx in originals]  # what each becomes once first run in a reading
    pairs += list(regex_first._MADE.values())  # the other modules' patterns (first_char_patterns)
    changed = [(a, b) for a, b in pairs if a is not b]
    assert len(changed) > 300  # most of the rules' patterns get a first-character test
    texts = [s.text for s in split_sentences(mixed_message(8_000)).sentences] + list(ODD)
    for original, faster in changed:
        assert faster.groupindex == original.groupindex and faster.flags == original.flags
        for i, text in enumerate(texts):  # every text searched whole; a sample also from inside
            _same(original, faster, text, (1, len(text) // 2) if i % 8 == 0 else ())


def test_a_stand_in_speeds_up_when_first_run_in_a_reading() -> None:
    p = MemoPattern(re.compile(r"\b(?:h100|a100)\b", re.I))
    assert p.regex is p.original  # nothing compiled at import
    with remembering():
        assert p.search("8x H100") is not None
    assert p.regex is not p.original and p.pattern == p.original.pattern  # the source as written


def test_first_chars() -> None:
    assert first_chars(re.compile(r"\b(?:eu only|gdpr)\b", re.I)) == "[eg]"
    assert first_chars(re.compile(r"(?<![\w-])(?:\d+|a few)\s*k", re.I)) == r"[\da]"
    assert first_chars(re.compile(r"x?y*")) is None  # can match empty
    assert first_chars(re.compile(r"^budget", re.I)) is None  # anchored
    assert first_chars(re.compile(r"budget")) is None  # `re` searches its literal prefix itself
    assert first_chars(re.compile(r"\w+ tokens")) is None  # too wide to cut
    assert first_chars(re.compile(r"(?-i:US) only", re.I)) is None  # its own flags


def test_case_folds_still_match() -> None:
    rx = re.compile(r"\b(?:kelvin|spot)\b", re.I)
    fast = with_first_char(rx)
    assert fast is not rx
    for text in ("\u212aelvin", "\u017fpot", "KELVIN", "Spot"):
        assert fast.search(text) is not None and rx.search(text) is not None
