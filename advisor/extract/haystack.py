"""The text an input's accounting looks for evidence quotes in (advisor/extract/accounting.py)."""

from __future__ import annotations

import re

MIN_QUOTE_CHARS = 2
# a run of characters that are neither whitespace (`str.isspace`, which `\s` of a str pattern is: both are
# Py_UNICODE_ISSPACE) nor an ellipsis
_WORDS = re.compile(r"[^\s…]+")
# lower-cased one by one, these differ from the whole text lower-cased: a capital sigma ends a word as "ς"
# only in the whole (Python's final-sigma rule); "İ" and a few others lower to two characters
_CONTEXT_LOWER = "\u03a3"


class Haystack:
    """The text lower-cased with whitespace runs collapsed, and the map back to original offsets."""

    text: str
    index: list[int]  # the offset in the original text of each character of `text`

    def __init__(self, text: str) -> None:
        low = text.lower()
        if len(low) != len(text) or _CONTEXT_LOWER in text:
            self._char_by_char(text)
            return
        # each character lowers to one (the lengths agree and none lowers by context): the words as runs,
        # one space (at the first blank's offset) after each run that blanks follow; 20,000 characters
        # were ~45 ms of the whole read's accounting one by one (issue 12, speed8)
        pieces: list[str] = []
        index: list[int] = []
        end_of_text = len(text)
        for m in _WORDS.finditer(text):
            a, b = m.span()
            pieces.append(low[a:b])
            index.extend(range(a, b))
            if b < end_of_text:
                pieces.append(" ")
                index.append(b)
        self.index = index
        self.text = "".join(pieces)

    def _char_by_char(self, text: str) -> None:
        chars: list[str] = []
        self.index = []
        prev_space = True
        for i, ch in enumerate(text):
            if ch.isspace() or ch == "…":
                if not prev_space:
                    chars.append(" ")
                    self.index.append(i)
                prev_space = True
            else:
                chars.append(ch.lower())
                self.index.append(i)
                prev_space = False
        self.text = "".join(chars)

    def spans(self, quote: str) -> list[tuple[int, int]]:
        """(start, end) in the original text of every occurrence of `quote`."""
        q = " ".join(quote.replace("…", " ").split()).lower()
        if len(q) < MIN_QUOTE_CHARS:
            return []
        out = []
        at = self.text.find(q)
        while at >= 0:
            out.append((self.index[at], self.index[at + len(q) - 1] + 1))
            at = self.text.find(q, at + 1)
        return out
