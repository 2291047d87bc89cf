"""The number check: every number in a model's reply must come from a tool result or the user's words.

A reply is parsed into number mentions ("$1,064", "1.3k", "47 GB", "30%", "2x"), skipping digits that are
part of names ("H100", "Llama-3.1", "us-east-1", "8x7B", "1st") and list markers ("1." at a line start).
Each mention must match an allowed number (tool results, the profile, the user's text) at the precision
the reply presents it:
- rounding: the allowed value rounded to the mention's last shown digit (at least two significant
  digits for whole numbers with trailing zeros, so "1,100" may stand for 1,064 but "1,000" may not),
  or within `REL_TOLERANCE` of it;
- unit forms of the same quantity: a fraction shown as a percentage, GiB shown as GB, GB as TB, hours as
  days or weeks. These are the unit conversions of tools/units.py, not new arithmetic.
A mention whose words name a quantity ("8 GPUs", "$1,064", "33 GiB free", "10B tokens") must also match
an allowed number of that quantity (quantities.py): tool numbers are tagged by the field they came from,
the user's by their own words. A right number attached to the wrong thing fails.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from pydantic import BaseModel

from advisor.llm.quantities import WORDS, Kind, accepts, context_kind, key_kind, unit_kind
from tools.trace import TraceStep, trace_numbers
from tools.units import BYTES_PER_GB, BYTES_PER_GIB, HOURS_PER_DAY, HOURS_PER_MONTH, MINUTES_PER_HOUR

REL_TOLERANCE = 0.005  # 0.5 %: a model may truncate instead of round (1,063.6 -> "1,063")
GIB_PER_GB = BYTES_PER_GB / BYTES_PER_GIB
HOURS_PER_WEEK = 7 * HOURS_PER_DAY

_SCALE_WORDS: dict[str, float] = {
    "k": 1e3,
    "K": 1e3,
    "thousand": 1e3,
    "m": 1e6,
    "M": 1e6,
    "mn": 1e6,
    "million": 1e6,
    "b": 1e9,
    "B": 1e9,
    "bn": 1e9,
    "billion": 1e9,
    "t": 1e12,
    "T": 1e12,
    "trillion": 1e12,
}

_WORD_NUMBERS: dict[str, float] = {
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "fifteen": 15,
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "fifty": 50,
    "hundred": 100,
    "thousand": 1000,
    "dozen": 12,
    "half": 0.5,
    "single": 1,
    "double": 2,
}

# unit word (lower case) -> canonical unit
_UNITS: dict[str, str] = {
    "%": "%",
    "percent": "%",
    "pct": "%",
    "gib": "GiB",
    "gb": "GB",
    "g": "GB",
    "tb": "TB",
    "tib": "TiB",
    "mb": "MB",
    "mib": "MiB",
    "pb": "PB",
    "h": "h",
    "hr": "h",
    "hrs": "h",
    "hour": "h",
    "hours": "h",
    "gpu-hours": "h",
    "gpu-hour": "h",
    "d": "day",
    "day": "day",
    "days": "day",
    "week": "week",
    "weeks": "week",
    "wk": "week",
    "month": "month",
    "months": "month",
    "mo": "month",
    "min": "min",
    "mins": "min",
    "minutes": "min",
    "x": "x",
    "×": "x",
    "ms": "ms",
    "s": "s",
}

_NUMBER_RE = re.compile(
    r"(?P<cur>[$€£])?\s?"
    r"(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+)"
    r"(?:\s?(?P<scale>thousand|million|billion|trillion|bn|mn|[kKmMbBtT])(?![A-Za-z]))?"
    r"(?:\s?(?P<unit>%|percent|pct|GiB|GB|TiB|TB|MiB|MB|PB|gpu-hours?|hours?|hrs?|days?|weeks?|wk|"
    r"months?|mo|minutes|mins?|ms|[hdgsx×])(?![A-Za-z]))?",
)
_LIST_MARKER_RE = re.compile(r"^\s*(?:[-*]\s*)?\d{1,2}[.)]\s", re.MULTILINE)
_WORD_RE = re.compile(r"[A-Za-z]+")


@dataclass(frozen=True)
class NumberMention:
    """One number as written: `value` is scaled by its suffix (1.3k -> 1300); `ulp` is the size of the
    last digit shown, in the same scale (1.3k -> 100); `unit` is canonical ("%", "GB", "h", ...)."""

    raw: str
    value: float
    ulp: float
    unit: str | None
    start: int
    kind: Kind | None = None  # the quantity its words name (quantities.py), None when they name none


def _is_identifier_digit(text: str, start: int, end: int) -> bool:
    """Digits glued to letters are part of a name: H100, L40S, gpt-4o, llama-3.1, us-east-1, 8x7B, 1st."""
    before = text[start - 1] if start > 0 else " "
    if before.isalpha() or before == "_":
        return True
    if before in ("-", "/", ".") and start > 1 and text[start - 2].isalpha():
        return True
    after = text[end] if end < len(text) else " "
    if after == "_" or (after == "-" and end + 1 < len(text) and text[end + 1].isalpha()):
        return True
    # "8x7B": a multiplier glued to another number and a letter
    return after in ("x", "X") and end + 1 < len(text) and text[end + 1].isdigit()


def _ulp(num: str) -> float:
    digits = num.replace(",", "")
    if "." in digits:
        return 10.0 ** -len(digits.split(".")[1])
    stripped = digits.lstrip("0") or "0"
    trailing = len(stripped) - len(stripped.rstrip("0")) if stripped != "0" else 0
    # whole numbers: trailing zeros may be rounding, but keep at least two significant digits
    return float(10 ** max(0, min(trailing, len(stripped) - 2)))


def extract_numbers(text: str, *, skip_identifiers: bool = True) -> list[NumberMention]:
    """Number mentions in `text`. With skip_identifiers=False, digits inside names count too (used for
    the allowed side, which may be generous)."""
    list_markers = {m.end() - 2 for m in _LIST_MARKER_RE.finditer(text)} if skip_identifiers else set()
    out: list[NumberMention] = []
    ends: list[int] = []
    currencies: list[str | None] = []
    for m in _NUMBER_RE.finditer(text):
        num = m.group("num")
        n_start, n_end = m.start("num"), m.end("num")
        if skip_identifiers:
            if _is_identifier_digit(text, n_start, n_end):
                continue
            if n_end - 1 in list_markers or n_end in list_markers:
                continue
            after_all = text[m.end() : m.end() + 1]
            if after_all.isalpha() and not m.group("scale") and not m.group("unit"):
                continue  # "4o", "3rd": glued to a word that is neither a scale nor a unit
        value = float(num.replace(",", ""))
        scale_word = m.group("scale")
        scale = _SCALE_WORDS.get(scale_word, 1.0) if scale_word else 1.0
        unit_word = m.group("unit")
        unit = _UNITS.get(unit_word.lower(), unit_word) if unit_word else None
        out.append(
            NumberMention(
                raw=m.group(0).strip(), value=value * scale, ulp=_ulp(num) * scale, unit=unit, start=m.start()
            )
        )
        ends.append(m.end())
        currencies.append(m.group("cur"))
    out = _share_range_units(text, out, ends)
    for i, mention in enumerate(out):
        before = text[ends[i - 1] if i else 0 : mention.start]
        after = text[ends[i] : out[i + 1].start if i + 1 < len(out) else len(text)]
        clause = re.split(r"\(|\n|\.\s", text[max(0, mention.start - 80) : mention.start])[-1]
        kind = context_kind(before, after, mention.unit, currencies[i], clause)
        if kind is not None:
            out[i] = replace(mention, kind=kind)
    return out


def _share_range_units(text: str, found: list[NumberMention], ends: list[int]) -> list[NumberMention]:
    """In a range written "30-59 min" or "2 to 3 days", the first number takes the second's unit."""
    out = list(found)
    for i in range(len(out) - 1):
        gap = text[ends[i] : out[i + 1].start].strip()
        if out[i].unit is None and out[i + 1].unit is not None and gap in ("-", "–", "to"):
            out[i] = replace(out[i], unit=out[i + 1].unit)
    return out


def word_numbers(text: str) -> list[float]:
    """Numbers written as words ("two weeks", "a dozen runs")."""
    return [_WORD_NUMBERS[w.lower()] for w in _WORD_RE.findall(text) if w.lower() in _WORD_NUMBERS]


def numbers_in(obj: Any) -> list[float]:
    """Every number in a tool result: pydantic models (their dump, including trace steps), mappings,
    sequences, numbers, and digits inside strings (JSON text is parsed first)."""
    out: list[float] = []

    def walk(x: Any) -> None:
        if isinstance(x, bool) or x is None:
            return
        if isinstance(x, int | float):
            if math.isfinite(x):
                out.append(float(x))
        elif isinstance(x, BaseModel):
            trace = getattr(x, "trace", None)
            if isinstance(trace, tuple) and all(isinstance(s, TraceStep) for s in trace):
                out.extend(trace_numbers(trace))
            walk(x.model_dump(mode="json"))
        elif isinstance(x, dict):
            for v in x.values():
                walk(v)
        elif isinstance(x, list | tuple | set | frozenset):
            for v in x:
                walk(v)
        elif isinstance(x, str):
            s = x.strip()
            if s[:1] in "[{":
                try:
                    walk(json.loads(s))
                    return
                except ValueError:
                    pass
            out.extend(user_numbers(s))
        else:
            walk(str(x))

    walk(obj)
    return out


def tagged_in(obj: Any, key: str = "") -> list[tuple[float, Kind]]:
    """(number, kind) for every number of a tool result whose field name (or, inside strings, whose
    words) names a quantity; a Range's low/high take their parent field's kind."""
    out: list[tuple[float, Kind]] = []
    kind = key_kind(key) if key else None
    if isinstance(obj, bool) or obj is None:
        return out
    if isinstance(obj, int | float):
        if kind is not None and math.isfinite(obj):
            out.append((float(obj), kind))
    elif isinstance(obj, TraceStep):
        for name, v in obj.inputs.items():
            if isinstance(v, int | float) and not isinstance(v, bool) and (k := key_kind(name)):
                out.append((float(v), k))
        k_out = key_kind(obj.step) or unit_kind(obj.unit)
        if isinstance(obj.output, int | float) and not isinstance(obj.output, bool) and k_out:
            out.append((float(obj.output), k_out))
    elif isinstance(obj, BaseModel):
        trace = getattr(obj, "trace", None)
        if isinstance(trace, tuple):
            for step in trace:
                out.extend(tagged_in(step))
        out.extend(tagged_in(obj.model_dump(mode="json"), key))
    elif isinstance(obj, dict):
        for k, v in obj.items():
            child = str(k) if key_kind(str(k)) or not key or str(k) not in ("low", "high") else key
            out.extend(tagged_in(v, child))
    elif isinstance(obj, list | tuple | set | frozenset):
        for v in obj:
            out.extend(tagged_in(v, key))
    elif isinstance(obj, str):
        s = obj.strip()
        if s[:1] in "[{":
            try:
                return tagged_in(json.loads(s), key)
            except ValueError:
                pass
        out.extend((m.value, m.kind) for m in extract_numbers(s, skip_identifiers=False) if m.kind)
    return out


def user_numbers(text: str) -> list[float]:
    """Numbers in the user's own words: as written (mantissa and scaled) and as words."""
    vals: list[float] = []
    for m in extract_numbers(text, skip_identifiers=False):
        vals.append(m.value)
        if m.raw:
            digits = re.search(r"\d[\d,]*(?:\.\d+)?|\.\d+", m.raw)
            if digits:
                vals.append(float(digits.group(0).replace(",", "")))
    vals.extend(word_numbers(text))
    return vals


def _variants(a: float, unit: str | None) -> Iterable[float]:
    """Unit forms in which an allowed value may be presented (see the module docstring)."""
    yield a
    if unit == "%":
        yield a * 100
    elif unit in ("GB", "GiB", "MB", "MiB"):
        yield a / GIB_PER_GB  # GiB shown as GB
        yield a * GIB_PER_GB  # GB shown as GiB
        yield a * 1000  # TB shown as GB
        yield a * 1024
    elif unit in ("TB", "TiB", "PB"):
        yield a / 1000
        yield a / 1024
        yield a / GIB_PER_GB / 1000
    elif unit == "day":
        yield a / HOURS_PER_DAY
    elif unit == "week":
        yield a / HOURS_PER_WEEK
        yield a / 7
    elif unit == "month":
        yield a / HOURS_PER_MONTH
    elif unit == "h":
        yield a * HOURS_PER_DAY
    elif unit == "min":
        yield a * MINUTES_PER_HOUR  # hours shown as minutes


def _matches(m: NumberMention, allowed: Iterable[float]) -> bool:
    for a in allowed:
        for v in _variants(a, m.unit):
            diff = abs(m.value - v)
            if diff <= m.ulp / 2 + 1e-9 * max(1.0, abs(v)):
                return True
            if v and diff <= REL_TOLERANCE * abs(v):
                return True
    return False


@dataclass(frozen=True)
class NumberCheck:
    """Outcome of the check: `unsupported` lists the mentions no allowed number accounts for."""

    ok: bool
    unsupported: tuple[str, ...]
    checked: int

    def describe(self) -> str:
        return ", ".join(self.unsupported)


def check_numbers(
    reply: str, allowed: Iterable[float], kinds: dict[Kind, set[float]] | None = None
) -> NumberCheck:
    """Check every number in `reply` against `allowed` (see the module docstring for the tolerance) and,
    with `kinds` (allowed numbers by quantity), that a number naming a quantity is one of that quantity."""
    pool = sorted(set(allowed))
    mentions = extract_numbers(reply)
    bad: list[str] = []
    for m in mentions:
        if not _matches(m, pool):
            bad.append(m.raw)
        elif kinds is not None and m.kind is not None:
            same = [v for k in accepts(m.kind) for v in kinds.get(k, ())]
            if not _matches(m, same):
                bad.append(f"{m.raw} (no {WORDS.get(m.kind, m.kind)} of that value)")
    return NumberCheck(ok=not bad, unsupported=tuple(bad), checked=len(mentions))


class AllowedNumbers:
    """Collects the numbers a reply may use: tool results, the profile, the user's words."""

    def __init__(self) -> None:
        self._values: set[float] = set()
        self._kinds: dict[Kind, set[float]] = {}

    def _tag(self, pairs: Iterable[tuple[float, Kind]]) -> None:
        for value, kind in pairs:
            self._kinds.setdefault(kind, set()).add(value)

    def add_tool_result(self, result: Any) -> None:
        self._values.update(numbers_in(result))
        self._tag(tagged_in(result))

    def add_user_text(self, text: str) -> None:
        self._values.update(user_numbers(text))
        self._tag((m.value, m.kind) for m in extract_numbers(text, skip_identifiers=False) if m.kind)

    def add_values(self, values: Iterable[float], kind: Kind | None = None) -> None:
        vals = [float(v) for v in values if math.isfinite(float(v))]
        self._values.update(vals)
        if kind is not None:
            self._tag((v, kind) for v in vals)

    @property
    def values(self) -> frozenset[float]:
        return frozenset(self._values)

    @property
    def kinds(self) -> dict[Kind, frozenset[float]]:
        return {k: frozenset(v) for k, v in self._kinds.items()}

    def check(self, reply: str) -> NumberCheck:
        return check_numbers(reply, self._values, self._kinds)
