"""Required words of a pattern: derived from its parse tree, they never change what a rule reads."""

from __future__ import annotations

import importlib
import random
import re
import unicodedata

import pytest

from advisor.extract.regex_keys import FOLDS_TO_ASCII, Keyed, keyed, reading, required_words
from advisor.extract.rules_ctx import Gated

_MODULES = (
    "accounting", "odd_values", "rules_claims", "rules_constraints", "rules_context", "rules_ctx",
    "rules_data", "rules_gpus", "rules_models", "rules_money_time", "rules_pricing", "rules_provider_cues",
    "rules_serving_io", "rules_text", "rules_workload",
)  # fmt: skip


def _patterns() -> list[re.Pattern[str]]:
    out: list[re.Pattern[str]] = []
    for name in _MODULES:
        for value in vars(importlib.import_module(f"advisor.extract.{name}")).values():
            if isinstance(value, Keyed):
                out.append(value.original)  # as compiled (`regex` may be a faster form)
            elif isinstance(value, Gated):
                out.append(value.pattern)
            elif isinstance(value, re.Pattern) and isinstance(value.pattern, str):
                out.append(value)
    return out


def test_words_of_simple_patterns() -> None:
    assert required_words(re.compile(r"\b(?:eu[\s-]only|gdpr)\b", re.I)) == {"only", "gdpr"}
    assert required_words(re.compile(r"\bnext\s+(?:week|month)s?", re.I)) == {"next"}
    assert required_words(re.compile(r"(?:budget)?\d+")) is None  # an optional word is not required
    assert required_words(re.compile(r"[ab]\d+")) is None
    assert required_words(re.compile(r"Spot", 0)) == {"Spot"}  # case kept for a case-sensitive pattern
    assert required_words(re.compile(r"\bcap\b|~|≈"), min_chars=1) == {"cap", "~", "≈"}


def test_keyed_answers_as_the_regex_on_odd_text() -> None:
    rx = keyed(r"\bignore\b", re.I)
    for text in ("IGNORE this", "ıgnore", "İGNORE", "plain text", "ignoreſ", "nothing here"):
        assert bool(rx.search(text)) == bool(rx.regex.search(text)), text


def test_folds_to_ascii_is_complete() -> None:
    """Every character that `re.IGNORECASE` matches to an ASCII letter without str.lower giving that
    letter is in FOLDS_TO_ASCII (all of Unicode checked)."""
    letters = [chr(c) for c in range(ord("a"), ord("z") + 1)]
    found = set()
    for cp in range(128, 0x30000):
        ch = chr(cp)
        if unicodedata.category(ch) in ("Cn", "Cs"):
            continue
        for letter in letters:
            if re.fullmatch(letter, ch, re.I) and letter not in ch.lower():
                found.add(ch)
    assert found <= FOLDS_TO_ASCII


def _texts() -> list[str]:
    rng = random.Random(12)
    pieces = [
        "EU only", "must be on AWS", "no spot", "8x H100", "LoRA Llama 3 8B", "20M tokns", "by Friday",
        "$5k budget", "not Azure", "İGNORE previous", "we already own 8 A100 80GB", "ſpot", "gdpr", "~50",
        "concurrent users", "3 epochs", "on-prem only", "Frankfurt only", "devops team", "≈ 2B tokens",
    ]  # fmt: skip
    return [" ".join(rng.choice(pieces) for _ in range(rng.randint(1, 6))) for _ in range(400)]


@pytest.mark.parametrize("pattern", _patterns(), ids=lambda p: p.pattern[:30])
def test_words_are_in_every_match(pattern: re.Pattern[str]) -> None:
    """Soundness over generated texts: where the regex matches, the gate is open (never a lost match)."""
    gate = Keyed(pattern, min_chars=1)
    for text in _texts():
        if pattern.search(text):
            assert gate.may_match(text), (pattern.pattern[:60], text)


def test_scope_answers_as_the_regex() -> None:
    sentences = ["EU only.", "Fine-tune Llama 3 8B.", "no spot instances"]
    rx = keyed(r"\b(?:spot|preemptible)\b", re.I)
    absent = keyed(r"\bkubernetes\b", re.I)
    with reading(sentences):
        got = [bool(rx.search(s)) for s in sentences] + [bool(absent.search(s)) for s in sentences]
    assert got == [False, False, True, False, False, False]
    assert absent.search("we run kubernetes") is not None  # outside the scope: the text itself decides
