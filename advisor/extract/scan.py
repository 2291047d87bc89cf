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
from collections.abc import Callable, Iterable

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


LAST_BEFORE_MARGIN_CHARS = 200
"""How far past its start one match attempt of a cue pattern may read (a few words: the widest cue
pieces are '[^.;!?]{0,60}' and three words between 'approved for' and 'on'): an attempt that starts
this far before a cut reads the same characters whether the text ends at the cut or goes on."""


class LastBefore:
    """The last match of `pattern` in `text[:end]`, asked for ends in increasing order (the cue nearest
    before each of many provider names in one clause), without reading the head again for each end:
    'not AWS or ' x 1,818 searched a growing prefix per name (~5 s CPU for 20,000 characters).

    Same answer as `list(pattern.finditer(text[:end]))[-1]` whenever no attempt of the pattern reads more
    than LAST_BEFORE_MARGIN_CHARS characters from where it starts. One left-to-right pass over `text`
    (finditer's non-overlapping matches) gives the matches that start before `end - margin`: every
    attempt before there read only characters before `end`, so a search of `text[:end]` made the same
    attempts and found the same matches; the search then continues from the later of the last such
    match's end and `end - margin` (positions before that were tried and failed: failed attempts there
    read no further either), with `endpos=end`, which makes the text end there for `\\b`, `$` and look-
    aheads (https://docs.python.org/3/library/re.html#re.Pattern.search). Matches keep their offsets
    in `text`, which are their offsets in `text[:end]`."""

    def __init__(self, pattern: Keyed, text: str, margin_chars: int = LAST_BEFORE_MARGIN_CHARS) -> None:
        self._regex = pattern.regex
        self._text = text
        self._margin = margin_chars
        self._matches = pattern.finditer(text)  # the one pass, consumed as far as the ends asked need
        self._done: list[re.Match[str]] = []  # matches taken from the pass, in order
        self._next: re.Match[str] | None = None  # the pass's next match, not yet known to be safe
        self._exhausted = False
        self._live = pattern.may_match(text)

    def _safe(self, cut: int) -> re.Match[str] | None:
        """The last match of the pass that starts at or before `cut` (taking matches up to there)."""
        while not self._exhausted:
            if self._next is None:
                self._next = next(self._matches, None)
                if self._next is None:
                    self._exhausted = True
                    break
            if self._next.start() > cut:
                break
            self._done.append(self._next)
            self._next = None
        return self._done[-1] if self._done else None

    def last(self, end: int) -> re.Match[str] | None:
        """The last match of the pattern in `text[:end]` (its offsets as in `text[:end]`)."""
        if not self._live:
            return None  # the text lacks the pattern's words: no prefix holds a match
        cut = end - self._margin
        safe = self._safe(cut) if cut >= 0 else None
        pos = max(cut + 1, 0)
        if safe is not None:
            # after an empty match finditer skips a position (and a match past `end` breaks the margin's
            # premise): read that head in full instead
            bad = safe.end() == safe.start() or safe.end() > end
            safe, pos = (None, 0) if bad else (safe, max(pos, safe.end()))
        tail: re.Match[str] | None = None
        for m in self._regex.finditer(self._text, pos, end):
            tail = m
        return tail if tail is not None else safe


class HeadCues:
    """LastBefore finders over `text[start:end]`, one per pattern and start (made when first asked): the
    cue nearest before each name of a clause, whose heads start where the clause (or the words after a
    withdrawn choice in it) starts and end at the name."""

    def __init__(self, text: str, end: int) -> None:
        self.text = text
        self.end = end
        self._finders: dict[tuple[Keyed, int], LastBefore] = {}

    def last(self, pattern: Keyed, head: str, start: int = 0) -> re.Match[str] | None:
        """The last match of `pattern` in `head`, which must be `text[start : start + len(head)]`."""
        finder = self._finders.get((pattern, start))
        if finder is None:
            finder = self._finders[(pattern, start)] = LastBefore(pattern, self.text[start : self.end])
        return finder.last(len(head))

    def at(self, start: int) -> Callable[[Keyed, str], re.Match[str] | None]:
        """`last` for heads that start at `start`."""
        return lambda pattern, head: self.last(pattern, head, start)


def last_match(pattern: Keyed, text: str) -> re.Match[str] | None:
    """The last match of `pattern` in `text` (the cue nearest before a provider name)."""
    matches = list(pattern.finditer(text))
    return matches[-1] if matches else None
