"""regex_memo (issue 12, speed6): a pattern's answers remembered while a text is read are the compiled
pattern's own, inside and outside `remembering`, for every method and pos/endpos; a repeated question is
answered from memory; a new reading starts afresh; modules that share a compiled pattern share one
stand-in."""

from __future__ import annotations

import re
import sys

import advisor.extract.rules  # noqa: F401  (replaces the rule modules' patterns)
from advisor.extract.regex_keys import keyed
from advisor.extract.regex_memo import MemoPattern, memo_patterns, remembering

TEXTS = ("Fine-tune Llama 3 8B on 20M tokens. EU only.", "", "8x H100, 4x A100 80GB", "no gpu here")


def _spans(found: object) -> object:
    if found is None:
        return None
    if isinstance(found, re.Match):
        return (found.span(), found.groups())
    return [(m.span(), m.groups()) for m in found]  # type: ignore[attr-defined]


def _answers(p: object, rx: re.Pattern[str], text: str) -> None:
    for args in ((), (2,), (1, 9)):
        for how in ("search", "match", "fullmatch", "finditer"):
            got = getattr(p, how)(text, *args)
            want = getattr(rx, how)(text, *args)
            assert _spans(got) == _spans(want), (how, args, text)


def test_remembered_answers_are_the_compiled_patterns() -> None:
    rx = re.compile(r"(\d+)\s*x\s*(h100|a100)|(tokens)", re.I)
    for p in (MemoPattern(rx), keyed(rx.pattern, rx.flags)):
        for text in TEXTS:
            _answers(p, rx, text)  # outside a reading: the regex runs
        with remembering():
            for _ in range(2):  # the second round answers from memory
                for text in TEXTS:
                    _answers(p, rx, text)


def test_a_repeated_question_is_answered_from_memory_within_one_reading() -> None:
    p = MemoPattern(re.compile(r"h\d+", re.I))
    text = "8x H100 and 2x H200"
    with remembering():
        first = p.search(text)
        assert p.search(text) is first  # the same Match object
        assert [m.span() for m in p.finditer(text)] == [(3, 7), (15, 19)]
        assert [m.span() for m in p.finditer(text)] == [(3, 7), (15, 19)]  # an iterator each time
    with remembering():
        assert p.search(text) is not first  # a new reading asks the regex again
    assert p.search(text) is not first  # outside a reading nothing is kept


def test_memo_patterns_share_one_stand_in_per_compiled_pattern() -> None:
    rx = re.compile(r"\d+")
    a, b = type(sys)("a"), type(sys)("b")
    a.RX = b.RX = rx  # type: ignore[attr-defined]
    a.OTHER = re.compile(r"x")  # type: ignore[attr-defined]
    assert memo_patterns([a, b]) == 3
    assert isinstance(a.RX, MemoPattern) and a.RX is b.RX
    assert a.RX.original is rx and a.RX.sub("#", "a1b22") == "a#b#"


def test_rule_modules_keep_no_plain_compiled_pattern() -> None:
    left = [(n, k) for n, m in list(sys.modules.items()) if n.startswith("advisor.extract.rules_")
            for k, v in vars(m).items() if isinstance(v, re.Pattern)]  # fmt: skip
    assert left == []
