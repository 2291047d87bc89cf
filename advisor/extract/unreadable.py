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

from advisor.extract.regex_keys import keyed
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


# Each pattern runs only on a text holding one of the words every match needs (regex_keys).
_NAMED = tuple((keyed(rf"\b(?:{words})\b{_BETWEEN}{_VAGUE}(?![\w-])(?:{_MULT}\b)?", I), fields)
               for words, fields in _QUANTITIES)  # fmt: skip
_UNIT_PATTERNS = tuple((keyed(rf"(?<![\w-]){_VAGUE}{_MULT}\s*(?:{words})(?!\w)", I), fields)
                       for words, fields in _UNITS)  # fmt: skip
# every place a vague amount may open: where each unit pattern may match (it opens with one)
_VAGUE_AT = re.compile(rf"(?<![\w-])(?={_VAGUE})", I)


def _unit_matches(text: str) -> list[tuple[re.Match[str], tuple[str, ...]]]:
    """The matches of each _UNIT_PATTERNS pattern, as its finditer gives them. Every match opens where
    _VAGUE_AT holds, so those places are found in one pass and each pattern is tried only there, leftmost
    first and after the last match's end, as finditer does: the unit patterns open with the costly part
    (a vague amount, dozens of alternatives tried at every place), which one pass asks once, not five
    times (issue 12, speed6: 20,000 characters of eval briefs, 5 passes of ~20 ms)."""
    patterns = [(p.regex, fields) for p, fields in _UNIT_PATTERNS if p.may_match(text)]
    if not patterns:
        return []
    starts = [m.start() for m in _VAGUE_AT.finditer(text)]
    out: list[tuple[re.Match[str], tuple[str, ...]]] = []
    for regex, fields in patterns:
        end = 0
        for at in starts:
            if at >= end and (m := regex.match(text, at)) is not None:
                out.append((m, fields))
                end = max(m.end(), at + 1)
    return out


def find_unreadable(text: str) -> list[Unreadable]:
    """Every unreadable quantity in `text`, in order, overlaps merged into the first."""
    found: list[Unreadable] = []
    named = [(m, fields) for pattern, fields in _NAMED for m in pattern.finditer(text)]
    for m, fields in (*named, *_unit_matches(text)):
        said = " ".join(m.group(0).split())
        found.append(Unreadable(text=said, start=m.start(), end=m.end(), fields=fields))
    found.sort(key=lambda u: (u.start, -u.end))
    out: list[Unreadable] = []
    for u in found:
        if out and u.start < out[-1].end:
            continue
        out.append(u)
    return out
