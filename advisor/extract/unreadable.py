"""Values the user gave that could not be read: "budget around a few k", "sequence length: TBD",
"~? tokens", "a few million tokens". The accounting (advisor/extract/accounting.py) names each one in the
reply as a value it could not read, whether its clause gave other facts or none, so a stated quantity is
never dropped silently.

Two shapes, one linear pass each: a quantity named and followed within a few words by a placeholder or a
vague amount ("budget: tbd", "context length is ??", "budget is ten grand"); a placeholder or vague amount
followed by a unit ("~? tokens", "XX epochs", "a few million tokens"; "five-ish k" only where
rules_typos did not strip the hedge from a figure). A finding is kept only when the profile field it would
fill stayed unknown (`fields`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from advisor.extract.regex_keys import Keyed, keyed
from advisor.extract.rules_text import WORD_NUMBERS

I = re.I  # noqa: E741

_QUANTITIES: tuple[tuple[str, tuple[str, ...]], ...] = (
    (r"budget|spend(?:ing)?(?: cap| limit)?|cost cap", ("budget_usd",)),
    (r"seq(?:uence)?[ _]?len(?:gth)?|context(?: length| window| size)?|ctx", ("seq_len", "context_len")),
    (r"dataset(?: size)?|data size|corpus(?: size)?|training data|tokens", ("dataset_tokens",)),
    (r"epochs?", ("epochs",)),
    (r"deadline|timeline|due date", ("deadline_hours",)),
    (r"(?:concurrent )?users|concurrency", ("concurrency",)),
    (r"ttft|time[ -]to[ -]first[ -]token|first[ -]token", ("ttft_target_s",)),
    (r"latency", ("latency_ms_per_token",)),
    (r"horizon", ("horizon_months",)),
    (r"(?:lora )?rank", ("lora_rank",)),
    (r"batch size", ("batch_size",)),
)
_UNITS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (r"tokens?|toks?", ("dataset_tokens",)),
    (r"epochs?", ("epochs",)),
    (r"(?:concurrent )?users", ("concurrency",)),
    (r"k\b|grand|dollars?|euros?|usd|eur|bucks", ("budget_usd",)),
    (r"ms\b", ("latency_ms_per_token",)),
)
_FIGURE = r"(?:\d[\d.,]*|" + "|".join(w for w in WORD_NUMBERS if w.isalpha() and len(w) > 2) + ")"
# a placeholder or an amount no rule can read ("five-ish", "ten grand")
_VAGUE = (
    r"(?:tbd|tbc|tba|t\.b\.d\.?|unknown|unclear|undecided|not (?:sure|known|decided|clear)(?: yet)?|n/a"
    rf"|\?{{1,3}}|[~≈]\s*\?+|x{{2,}}|{_FIGURE}\s*-?\s*ish|a few|several|a bunch of|lots of"
    rf"|(?:a|{_FIGURE}) grand)"
)
_MULT = r"(?:\s*(?:k|m|b|thousand|million|billion))?"
_BETWEEN = (
    r"(?:\s*[:=]\s*|\s+(?:is|are|of|at|around|about|roughly|maybe|probably|approx\.?|~|still|yet)\b\s*){1,3}"
)


@dataclass(frozen=True)
class Unreadable:
    """A quantity the user gave in words the rules could not read, where it is in the (cleaned) text,
    and the profile fields it would fill."""

    text: str
    start: int
    end: int
    fields: tuple[str, ...]


def _patterns() -> list[tuple[Keyed, tuple[str, ...]]]:
    """Each pattern runs only on a text holding one of the words every match needs (regex_keys)."""
    out = []
    for words, fields in _QUANTITIES:
        out.append((keyed(rf"\b(?:{words})\b{_BETWEEN}{_VAGUE}(?![\w-])(?:{_MULT}\b)?", I), fields))
    for words, fields in _UNITS:
        out.append((keyed(rf"(?<![\w-]){_VAGUE}{_MULT}\s*(?:{words})(?!\w)", I), fields))
    return out


_PATTERNS = _patterns()


def find_unreadable(text: str) -> list[Unreadable]:
    """Every unreadable quantity in `text`, in order, overlaps merged into the first."""
    found: list[Unreadable] = []
    for pattern, fields in _PATTERNS:
        for m in pattern.finditer(text):
            said = " ".join(m.group(0).split())
            found.append(Unreadable(text=said, start=m.start(), end=m.end(), fields=fields))
    found.sort(key=lambda u: (u.start, -u.end))
    out: list[Unreadable] = []
    for u in found:
        if out and u.start < out[-1].end:
            continue
        out.append(u)
    return out
