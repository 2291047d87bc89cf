"""Haystack (issue 12, speed8): the run-by-run construction gives the character-by-character one's text and
offsets: whitespace of every kind, ellipses, characters whose lower case is longer or depends on context."""

from __future__ import annotations

import random
import sys

from advisor.extract.haystack import Haystack


def _one_by_one(text: str) -> tuple[str, list[int]]:
    hay = Haystack.__new__(Haystack)
    hay._char_by_char(text)
    return hay.text, hay.index


def test_runs_agree_with_characters_one_by_one() -> None:
    blanks = [chr(c) for c in range(sys.maxunicode + 1) if chr(c).isspace()]
    alphabet = [*blanks, "…", "a", "B", "Σ", "İ", "ß", "ǅ", "7", ",", ".", "€", "ΟΔΟΣ"]
    rng = random.Random(12)
    texts = ["", " ", "  Train  a 7B\tmodel…now ", "ΟΔΟΣ ΣΑΣ", "İstanbul", "a\u2028b\u00a0c\u3000"]
    texts += ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40))) for _ in range(2000)]
    for text in texts:
        hay = Haystack(text)
        assert (hay.text, hay.index) == _one_by_one(text), text


def test_spans_map_back_to_the_original() -> None:
    hay = Haystack("We  need\n8x H100 … by Friday")
    assert hay.spans("need 8x") == [(4, 11)]
    assert hay.spans("h100 by") == [(12, 21)]
