"""Amounts no workload can have: negative ("-3 epochs", "a budget of -$500"), zero where zero means
nothing ("0 GPUs", "0 epochs") and absurdly large ("1e30 tokens"). They are found before the reading
rules run, blanked out of the text so no rule reads "-3 epochs" as 3, and named back to the user as
not understood, with the field and the reason.

Kept apart from the reading rules on purpose (one concept, small): `find_odd_values(text)` and
`blank_out(text, found)` are all a front end or the conversation needs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from advisor.extract.rules_text import parse_number

_MULT = {
    "k": 1e3, "thousand": 1e3, "m": 1e6, "mn": 1e6, "million": 1e6, "b": 1e9, "bn": 1e9, "billion": 1e9,
    "t": 1e12, "tn": 1e12, "trillion": 1e12,
}  # fmt: skip

# what each unit word measures, and the largest amount that is still a workload (beyond: absurd)
MAX_TOKENS = 1e15
"""A thousand trillion tokens: ~30x the largest published pre-training sets (Qwen3: 36T tokens,
https://arxiv.org/abs/2505.09388)."""
MAX_EPOCHS = 1e4
MAX_GPUS = 1e7
"""Ten million GPUs: ~50x the largest announced clusters (xAI Colossus, 200,000 GPUs, 2025)."""
MAX_PARAMETERS = 1e15
MAX_DURATION_HOURS = 24 * 365 * 100  # a century

_UNITS: tuple[tuple[str, str, str, float], ...] = (
    # (regex, field words, noun for the reason, largest sensible amount in the unit's own terms)
    (r"epochs?", "epochs", "epochs", MAX_EPOCHS),
    (r"gpus?|cards?|accelerators?|nodes?", "GPU count", "GPUs", MAX_GPUS),
    (r"tokens?", "dataset size", "tokens", MAX_TOKENS),
    (r"parameters|params", "model size", "parameters", MAX_PARAMETERS),
    (r"hours?|hrs?", "deadline", "hours", MAX_DURATION_HOURS),
    (r"days?", "deadline", "days", MAX_DURATION_HOURS / 24),
    (r"weeks?", "deadline", "weeks", MAX_DURATION_HOURS / 168),
    (r"(?:usd|dollars?|eur|euros?|gbp)\b", "budget", "dollars", float("inf")),
)
_NUM = (
    r"(?P<num>\d+(?:[.,]\d+)*(?:e[+-]?\d+)?)"
    r"(?:\s*(?P<mult>thousand|million|billion|trillion|mn|bn|tn|k|m|b|t)\b)?"
)
_UNIT = "|".join(f"(?P<u{i}>{rx})" for i, (rx, *_rest) in enumerate(_UNITS))
_AMOUNT = re.compile(
    rf"(?P<sign>(?<![\w.,)\]/+-])[-−](?=[$€£]?\d)|\bminus\s+|\bnegative\s+)?"
    rf"(?P<cur>[$€£]\s?)?{_NUM}\s*(?:(?:{_UNIT})\b)?",
    re.IGNORECASE,
)
_ZERO_BUDGET = re.compile(r"\bbudget\s*(?:of|is|:)?\s*[$€£]\s?0+(?:\.0+)?(?![\d.,])", re.IGNORECASE)
_ZERO_NOT_NOTHING = ("epochs", "GPUs", "tokens", "parameters")  # zero of these means there is no job


@dataclass(frozen=True)
class OddValue:
    """An amount in the text that cannot be used: where it is, its words, the field and why."""

    start: int
    end: int
    words: str
    field: str
    reason: str

    def describe(self) -> str:
        """'"-3 epochs" (epochs cannot be negative)'."""
        return f'"{self.words}" ({self.reason})'


def _amount(num: str, mult: str | None) -> float | None:
    try:
        value = parse_number(num)
    except ValueError:  # '1.2.3': not an amount
        return None
    return value * _MULT.get((mult or "").lower(), 1.0)


def find_odd_values(text: str) -> list[OddValue]:
    """Every negative, empty or absurd amount in `text` (linear: one pass of one pattern)."""
    found: list[OddValue] = []
    for m in _AMOUNT.finditer(text):
        # the unit groups close last and hold no group of their own: a matched unit is `lastgroup`
        last = m.lastgroup or ""
        unit = int(last[1:]) if last.startswith("u") and m.group(last) else None
        sign, cur = m.group("sign"), m.group("cur")
        if unit is None and not cur:
            continue
        _rx, field, noun, largest = _UNITS[unit] if unit is not None else _UNITS[-1]
        if unit is None:
            field, noun = "budget", "dollars"
        value = _amount(m.group("num"), m.group("mult"))
        if value is None:
            continue
        words = m.group(0).strip()
        if sign and value > 0:
            found.append(OddValue(m.start(), m.end(), words, field, f"{field} cannot be negative"))
        elif value == 0 and noun in _ZERO_NOT_NOTHING and not cur:
            reason = f"with zero {noun} there is nothing to run"
            found.append(OddValue(m.start(), m.end(), words, field, reason))
        elif value > largest:
            reason = f"more {noun} than any workload has; check the figure"
            found.append(OddValue(m.start(), m.end(), words, field, reason))
    for m in _ZERO_BUDGET.finditer(text):
        reason = "a budget of zero buys no GPU time"
        found.append(OddValue(m.start(), m.end(), m.group(0).strip(), "budget", reason))
    return sorted(found, key=lambda o: o.start)


def blank_out(text: str, found: list[OddValue]) -> str:
    """`text` with each odd amount replaced by spaces (offsets kept), so no reading rule sees it."""
    if not found:
        return text
    chars = list(text)
    for o in found:
        chars[o.start : o.end] = " " * (o.end - o.start)
    return "".join(chars)
