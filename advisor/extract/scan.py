"""Linear-time helpers for rules that ask a question of the text around each of many matches (issue 12:
a 20,000-character message read in well under 100 ms).

A rule that, for every GPU name in a sentence, searches the rest of the sentence (or the whole head
before the name) reads the sentence once per name: quadratic in its length when a message is one
sentence of 2,500 names. These helpers give the same answers while reading each character a bounded
number of times.

Both rely on how Python's `re` treats a search position: `pattern.search(text, pos)` sees the whole
string, so `\\b`, look-behinds and `$` judge a match at position p exactly as a search from 0 would
(https://docs.python.org/3/library/re.html#re.Pattern.search: only '^' differs, which these helpers'
patterns do not use at pos). A match that starts at or after `pos` is therefore found from any earlier
start that lets the engine try position p.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterable

from advisor.extract.regex_keys import Keyed


class MatchAhead:
    """Whether `pattern` matches anywhere at or after a position of `text`, asked for positions in
    increasing order (a rule walking its matches left to right).

    Same answer as `pattern.search(text, pos) is not None`: the last match found (at q) answers every
    later position up to q without a search, and a miss answers every later position."""

    def __init__(self, pattern: re.Pattern[str], text: str) -> None:
        self._pattern = pattern
        self._text = text
        self._found_at: int | None = -1  # -1: nothing searched yet; None: no match from the last search on
        self._asked_from = 0  # the last position asked about

    def at_or_after(self, pos: int) -> bool:
        """Whether a match starts at `pos` or later."""
        if pos < self._asked_from:  # out of order: what is known does not answer it
            return self._pattern.search(self._text, pos) is not None
        self._asked_from = pos
        if self._found_at is None:
            return False  # none from an earlier position, so none from a later one
        if self._found_at >= pos:
            return True
        m = self._pattern.search(self._text, pos)
        self._found_at = None if m is None else m.start()
        return m is not None


def words_back(text: str, end: int, words: int) -> int:
    """Where the last `words` whitespace-separated words before `end` start (0 when fewer): a pattern
    that must end at `end` and spans at most `words` words (each run of `\\s` between them) starts there
    or later, so a search from this position finds what a search of the whole head would."""
    i = end
    for _ in range(words):
        while i > 0 and text[i - 1].isspace():
            i -= 1
        if i == 0:
            return 0
        while i > 0 and not text[i - 1].isspace():
            i -= 1
    return i


class Spans:
    """Named spans `(name, start, end)` given in order of start (a finditer's order), looked up by the
    stretch of text they lie in: a bisection per stretch, not a pass over every span per stretch (a
    sentence of 2,500 provider names in 2,500 clauses was read in quadratic time)."""

    def __init__(self, spans: list[tuple[str, int, int]]) -> None:
        self.spans = spans
        self._starts = [a for _, a, _ in spans]
        # a span starting before a stretch reaches into it by at most the longest span's length
        self._longest = max((b - a for _, a, b in spans), default=0)

    def starting_in(self, lo: int, hi: int) -> list[tuple[str, int, int]]:
        """The spans that start in [lo, hi), in order."""
        return self.spans[bisect_left(self._starts, lo) : bisect_left(self._starts, hi)]

    def blanked(self, text: str, offset: int) -> str:
        """`text` (at `offset` of the spans' text) with every span that overlaps it made spaces."""
        chars = list(text)
        for _, a, b in self.starting_in(offset - self._longest, offset + len(text)):
            for i in range(max(a - offset, 0), min(b - offset, len(chars))):
                chars[i] = " "
        return "".join(chars)


def live_patterns(patterns: Iterable[Keyed], text: str) -> frozenset[Keyed]:
    """The patterns whose required words occur in `text` (advisor/extract/regex_keys.py). A pattern that
    cannot match `text` cannot match any part of it, so a rule that asks the same patterns of many slices
    of one stretch (the text before each of 2,857 provider names in one clause: 'AWS or ' x 2,857 took
    ~6 s) asks each pattern's words once and skips the slices of the patterns not live."""
    return frozenset(rx for rx in patterns if rx.may_match(text))


def comma_clauses(text: str) -> list[tuple[int, str]]:
    """(offset, clause): split at , and ; outside parentheses, and at 'while' / 'whereas' (the clauses
    are contiguous: together they are `text`). Moved from rules_constraints (module size)."""
    out: list[tuple[int, str]] = []
    depth, start = 0, 0
    for i, ch in enumerate(text):
        depth += (ch in "([") - (ch in ")]")
        if ch in ",;" and depth <= 0:
            out.append((start, text[start : i + 1]))
            start = i + 1
    out.append((start, text[start:]))
    result: list[tuple[int, str]] = []
    for off, clause in out:
        pos = 0
        for part in re.split(r"(\s+(?:while|whereas)\s+)", clause):
            result.append((off + pos, part))
            pos += len(part)
    return result
