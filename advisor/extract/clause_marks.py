"""Clauses of an input that are only there to hold the text together (advisor/extract/accounting.py counts
them as decorative, not as facts left unused)."""

from __future__ import annotations

import re

# an aside that only waves a question away: "(compliance, don't ask)", "long story"
_ASIDE = re.compile(
    r"\W*(?:don'?t ask(?: me)?(?: why)?|long story(?: short)?|don'?t ask, don'?t tell)\W*", re.I
)
# a list's marker left over when its items were read (expert review 18, R11): "Two things: (1)", "and (2)"
_LIST_MARK = re.compile(
    r"\W*(?:(?:two|three|four|a\s+couple\s+of|a\s+few|several)\s+(?:things|questions|jobs|workloads|parts"
    r"|items|requests|asks)\s*:?\s*)?(?:(?:and|or|then|also|plus)\s+)?(?:\(?(?:\d|[a-e]|i{1,3}|iv)\))?\W*",
    re.I,
)


def decorative_aside(text: str) -> bool:
    """Whether a whole clause is an aside that waves a question away or a list's leftover marker."""
    return _ASIDE.fullmatch(text) is not None or _LIST_MARK.fullmatch(text) is not None
