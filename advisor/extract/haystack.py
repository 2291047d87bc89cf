"""The text an input's accounting looks for evidence quotes in (advisor/extract/accounting.py)."""

from __future__ import annotations

MIN_QUOTE_CHARS = 2


class Haystack:
    """The text lower-cased with whitespace runs collapsed, and the map back to original offsets."""

    def __init__(self, text: str) -> None:
        chars: list[str] = []
        self.index: list[int] = []
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
