"""regex_keys.key_patterns (issue 12, speed4): the rule modules' plain compiled patterns that need a word
run only on texts that hold one. A replaced pattern answers as the compiled one did: gated methods give
the regex's own matches on the rule modules' sentences (tests/extract/test_scope_index.py checks every
closed gate over eval briefs), ungated ones are the compiled pattern's."""

from __future__ import annotations

import re
import sys

import advisor.extract.rules as rules_module
from advisor.extract.regex_keys import KeyedPattern, key_patterns, required_words
from advisor.extract.rules_text import split_sentences
from bench.extraction_speed import mixed_message


def _replaced() -> list[KeyedPattern]:
    return [v for n, m in list(sys.modules.items()) if n.startswith("advisor.extract.rules_")
            for v in vars(m).values() if isinstance(v, KeyedPattern)]  # fmt: skip


def test_rule_modules_patterns_with_words_are_keyed() -> None:
    assert rules_module.KEYED_PATTERNS > 300
    left = [(n, k) for n, m in list(sys.modules.items()) if n.startswith("advisor.extract.rules_")
            for k, v in vars(m).items() if isinstance(v, re.Pattern) and required_words(v)]  # fmt: skip
    assert left == []  # none left plain


def test_a_keyed_pattern_answers_as_the_compiled_one() -> None:
    texts = [s.text for s in split_sentences(mixed_message(20_000)).sentences]
    texts += ["Fine-tune Llama 3 8B. EU only. No spot.", "", "Ünïcode İSTANBUL \u212a spot ok"]
    for kp in _replaced():
        rx = kp.regex
        for t in texts:
            spans = [m.span() for m in kp.finditer(t)]
            assert spans == [m.span() for m in rx.finditer(t)], (rx.pattern[:60], t)
            got, want = kp.search(t, 3), rx.search(t, 3)
            assert (got and got.span()) == (want and want.span())
            got, want = kp.match(t), rx.match(t)
            assert (got and got.span()) == (want and want.span())
        assert kp.pattern == kp.original.pattern and kp.groupindex == rx.groupindex and kp.flags == rx.flags
        assert kp.sub("", "x y") == rx.sub("", "x y")  # ungated, the compiled pattern's own


def test_key_patterns_leaves_patterns_without_words() -> None:
    module = type(sys)("m")
    module.DIGITS = re.compile(r"\d+")  # type: ignore[attr-defined]
    module.WORD = re.compile(r"\bbudget\b", re.I)  # type: ignore[attr-defined]
    assert key_patterns([module]) == 1
    assert isinstance(module.WORD, KeyedPattern) and isinstance(module.DIGITS, re.Pattern)
    assert module.WORD.search("The BUDGET is") is not None
