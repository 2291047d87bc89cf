"""The merge policy for a model's values: accepted only with whole-token evidence of the right kind.

A language model (the openai backend, possibly a small local one) proposes a value for a profile field
and a quote from the user's text. The value is accepted only when every check below holds; otherwise it
is dropped and the reason recorded (`Rejection`), so a weak model can add facts but never degrade them:

1. Whole tokens: the quote occurs in the text as whole tokens (case and whitespace insensitive), so "5"
   inside "50B", "1" inside "3.1" or "10" inside "H100" is no evidence (`find_token_evidence`).
2. Not an instruction: the quote does not lie in a sentence addressed to the assistant (guard.py).
3. The right kind (`check_kind`): a number of the quote carries the field's unit, and its unit and
   period are kept: `budget_usd` needs a US-dollar amount that is not a rate ("3000 EUR a month" is not
   budget_usd=3000, "$2/hour" is not a budget); `epochs` needs epochs, not "10 days"; a duration field
   needs a time unit; token fields need tokens (or a context/prompt word); GPU counts need GPUs. A bare
   number counts only when the quote names the field's keyword ("epochs: 3"). `model_id` must be a
   catalog model ("1B" is not a model id); GPU fields must be catalog GPUs; providers must be known.
4. Numbers are copied, not computed: the value is a number of the quote as written (stated) or that
   number scaled by a unit word (k/M/B, days -> hours, percent -> fraction: inferred); a duration is
   taken as written only in the field's own unit ("10 days" is never deadline_hours 10).

Then the conflict rule with the rules extractor's reading of the same text (applied in extractor.py):
the value with the stronger evidence wins, stated > inferred, and on a tie the rules' value stands (its
evidence is a pattern match, the model's a claim). So the model fills fields the rules left empty,
replaces a rules' value only with a stated value where the rules merely inferred one, and adds to the
list fields (providers, pricing, GPU types) without removing or contradicting what the rules read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Literal

from advisor.extract.rules_gpus import family_ids
from advisor.extract.rules_models import find_providers, resolve_gpu
from advisor.llm.guard import _evidence_map, _norm
from tools.catalog.load import load_catalog
from tools.units import GB_PER_TB, HOURS_PER_DAY, HOURS_PER_MONTH, MINUTES_PER_HOUR, MONTHS_PER_YEAR

Grounding = Literal["stated", "inferred"]
PARAMS_PER_BILLION = 1e9

# Unit conversions a copied number may carry into a field, by the kind of its unit (tools/units.py
# constants; never new arithmetic): days/weeks/months -> hours, years -> months, percent -> fraction,
# TB -> GB. Scale words (k, M, B) are read with the number itself: "$5k" is 5,000, never 5 or 5M.
GROUNDING_FACTORS: dict[str | None, tuple[float, ...]] = {
    "percent": (0.01,),
    "bytes": (GB_PER_TB, 1 / GB_PER_TB),
}
# A duration keeps its unit: "10 days" is deadline_hours 240 (inferred), never 10 (the real small model
# stated 10 against the rules' 240 on evals/cases_v17, bench/llm_real.py). Field -> its unit; a duration's
# unit word -> (unit, factor into hours or into months).
DURATION_FIELD_UNITS = {
    "deadline_hours": "hour", "claimed_hours": "hour",
    "horizon_months": "month", "owned_months_left": "month",
}  # fmt: skip
_DURATION_UNITS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"^(?:min|mins|minutes?)\b", re.I), "minute"),
    (re.compile(r"^(?:h|hrs?|hours?)\b", re.I), "hour"),
    (re.compile(r"^(?:d|days?)\b", re.I), "day"),
    (re.compile(r"^(?:weeks?|wks?)\b", re.I), "week"),
    (re.compile(r"^(?:months?|mos?)\b", re.I), "month"),
    (re.compile(r"^(?:years?|yrs?)\b", re.I), "year"),
)
_DURATION_FACTORS: dict[tuple[str, str], float] = {
    ("minute", "hour"): 1 / MINUTES_PER_HOUR, ("day", "hour"): HOURS_PER_DAY,
    ("week", "hour"): 7 * HOURS_PER_DAY, ("month", "hour"): HOURS_PER_MONTH,
    ("year", "month"): MONTHS_PER_YEAR,
}  # fmt: skip


@dataclass(frozen=True)
class Rejection:
    """A model value that was not accepted, and why (shown in the JSON as `llm_rejected`)."""

    field: str
    value: Any
    quote: str | None
    reason: str

    def as_dict(self) -> dict[str, Any]:
        return {"field": self.field, "value": self.value, "quote": self.quote, "reason": self.reason}


# --------------------------------------------------------------------------- 1. whole tokens
def _is_word(ch: str) -> bool:
    return ch.isalnum() or ch == "_"


def _left_ok(hay: str, at: int) -> bool:
    if at == 0 or not _is_word(hay[at]):
        return True
    prev = hay[at - 1]
    if _is_word(prev):
        return False
    # "3.1" / "1,000" / "us-east-1" / "gpt-4": a digit glued by . , - / to a word or number
    return not (hay[at].isdigit() and prev in ".,-/" and at > 1 and _is_word(hay[at - 2]))


def _right_ok(hay: str, end: int) -> bool:
    if end >= len(hay) or not _is_word(hay[end - 1]):
        return True
    nxt = hay[end]
    if _is_word(nxt):
        return False
    return not (hay[end - 1].isdigit() and nxt in ".," and end + 1 < len(hay) and hay[end + 1].isdigit())


def find_token_evidence(text: str, quote: str | None) -> int | None:
    """Character offset in `text` of the first occurrence of `quote` as whole tokens, or None.

    Case and whitespace insensitive, like guard.find_evidence, but "5" does not occur in "50B tokens",
    "1" not in "Llama 3.1" and "100" not in "H100"."""
    if not quote:
        return None
    q = _norm(quote)
    if not q:
        return None
    hay, idx = _evidence_map(text)
    at = hay.find(q)
    while at >= 0:
        if _left_ok(hay, at) and _right_ok(hay, at + len(q)):
            return idx[at]
        at = hay.find(q, at + 1)
    return None


# --------------------------------------------------------------------------- 3. kinds
_WORD_NUMS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
              "nine": 9, "ten": 10, "twelve": 12, "sixteen": 16, "single": 1}  # fmt: skip
_NUM = re.compile(
    # a currency sign, or a currency code or "Rs" written before the amount ("₹75,000", "INR 75,000")
    r"(?P<cur>[$€£¥₹₩]|\b(?:rs|inr|eur|gbp|chf|jpy|cad|aud|cny)\b\.?)?\s?(?<![\w.,])(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|\.\d+|"
    + "|".join(_WORD_NUMS)
    + r")(?![\d])"
    r"(?:\s?(?P<scale>thousand|million|billion|trillion|bn|mn|mm|[kmbt])(?![a-z]))?",
    re.IGNORECASE,
)
_SCALES = {"k": 1e3, "thousand": 1e3, "m": 1e6, "mm": 1e6, "mn": 1e6, "million": 1e6, "b": 1e9, "bn": 1e9,
           "billion": 1e9, "t": 1e12, "trillion": 1e12}  # fmt: skip

_UNIT_KINDS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("usd_per_kwh", re.compile(r"^(?:/|per\s*)?kwh\b", re.I)),
    (
        "other_currency",
        re.compile(r"^(?:eur|euros?|gbp|pounds?|chf|jpy|yen|inr|rupees?|cad|aud|cny|rmb)\b", re.I),
    ),
    ("usd", re.compile(r"^(?:usd|us\$|dollars?|bucks)\b", re.I)),
    ("rate", re.compile(r"^(?:tok(?:en)?s?\s*/\s*s|t/s|tps|tokens?\s+per\s+s)", re.I)),
    ("latency", re.compile(r"^ms\b", re.I)),
    ("tokens", re.compile(r"^(?:tok(?:en)?s?|tokns?|toks)\b", re.I)),
    ("bytes", re.compile(r"^(?:gb|tb|mb|pb|gib|tib|mib|gigabytes?|terabytes?)\b", re.I)),
    (
        "time",
        re.compile(
            r"^(?:h|hrs?|hours?|d|days?|weeks?|wks?|months?|mos?|years?|yrs?|min|mins|minutes?)\b", re.I
        ),
    ),
    (
        "gpus",
        re.compile(r"^(?:x\b|×|gpus?\b|cards?\b|accelerators?\b|nodes?\b|boxes\b|[ahlbtv]\d{2,3})", re.I),
    ),
    (
        "users",
        re.compile(
            r"^(?:users?|concurr?ent|requests?|sessions?|people|customers|agents|streams|queries|"
            r"rps|qps|req)\b",
            re.I,
        ),
    ),
    ("percent", re.compile(r"^(?:%|percent|pct)", re.I)),
    ("epochs", re.compile(r"^(?:epochs?|pass(?:es)?)\b", re.I)),
    ("params", re.compile(r"^(?:params?|parameters?)\b", re.I)),
)
_PERIOD = re.compile(
    r"^\s*(?:a|an|per|each|every|/)\s*(?:month|mo|week|wk|day|year|yr|hour|hr|h)\b|^\s*(?:monthly|weekly|daily|"
    r"yearly|annually|hourly)\b|^\s*/\s*(?:gpu[- ]?)?(?:month|mo|week|day|year|hour|hr|h)\b",
    re.I,
)

# field -> (number kinds accepted, keywords that let a bare number count)
_FIELD_KINDS: dict[str, tuple[frozenset[str], tuple[str, ...]]] = {
    "budget_usd": (frozenset({"usd"}), ("budget", "spend", "cap")),
    "power_price_usd_per_kwh": (frozenset({"usd_per_kwh"}), ()),
    "deadline_hours": (frozenset({"time"}), ()),
    "claimed_hours": (frozenset({"time"}), ()),
    "horizon_months": (frozenset({"time"}), ()),
    "dataset_tokens": (frozenset({"tokens"}), ()),
    "generation_tokens": (frozenset({"tokens"}), ()),
    "prompt_tokens": (frozenset({"tokens"}), ("prompt", "input")),
    "output_tokens": (frozenset({"tokens"}), ("output", "answer", "response", "completion")),
    "seq_len": (frozenset({"tokens"}), ("seq", "sequence", "context", "ctx")),
    "context_len": (frozenset({"tokens"}), ("context", "ctx", "window")),
    "dataset_gb": (frozenset({"bytes"}), ()),
    "params_b": (frozenset({"params"}), ("param",)),
    "epochs": (frozenset({"epochs"}), ("epoch",)),
    "max_gpus": (frozenset({"gpus"}), ("gpu",)),
    "owned_gpu_count": (frozenset({"gpus"}), ("gpu", "own")),
    "owned_gpus_per_node": (frozenset({"gpus"}), ("gpu", "node", "server", "each")),
    "owned_months_left": (frozenset({"time"}), ()),
    "claimed_gpu_count": (frozenset({"gpus"}), ("gpu",)),
    "current_gpu_count": (frozenset({"gpus"}), ("gpu",)),
    "current_usd_per_month": (frozenset({"usd"}), ("spend", "pay", "bill", "cost")),
    "reserved_months_asked": (frozenset({"time"}), ()),
    "concurrency": (frozenset({"users"}), ("concur", "parallel", "simultaneous")),
    "target_tokens_per_s": (frozenset({"rate"}), ()),
    "latency_ms_per_token": (frozenset({"latency"}), ()),
    "utilization": (frozenset({"percent"}), ("utili", "busy")),
    "runs_per_month": (frozenset(), ("run", "month", "monthly")),
    "batch_size": (frozenset(), ("batch",)),
    "lora_rank": (frozenset(), ("rank", "r=")),
}
_KIND_WORDS = {
    "usd": "a US-dollar amount", "usd_per_kwh": "a price per kWh", "time": "a duration", "tokens": "tokens",
    "bytes": "a data size", "params": "parameters", "epochs": "epochs", "gpus": "a GPU count",
    "users": "users or requests", "rate": "tokens per second", "latency": "milliseconds",
    "percent": "a percentage",
}  # fmt: skip


@dataclass(frozen=True)
class _Number:
    value: float  # as written, times its scale word ("8B" -> 8e9)
    mantissa: float  # as written
    kind: str | None  # unit kind, None for a bare number
    period: bool  # followed by a period ("a month", "/hour")
    duration_unit: str | None = None  # "hour", "day", ... for a duration


def _numbers(quote: str) -> list[_Number]:
    """Every number of `quote` with the kind of its unit and whether a period follows it."""
    out = []
    for m in _NUM.finditer(quote):
        word = m.group("num").lower()
        mantissa = float(_WORD_NUMS[word]) if word in _WORD_NUMS else float(word.replace(",", ""))
        scale_word = (m.group("scale") or "").lower()
        rest = quote[m.end() :]
        unit_text = rest.lstrip(" -‑")
        kind: str | None = None
        unit_len = 0
        for name, pat in _UNIT_KINDS:
            um = pat.match(unit_text)
            if um:
                kind, unit_len = name, um.end()
                break
        cur = m.group("cur")
        if cur and kind != "usd_per_kwh":
            kind = "usd" if cur == "$" else "other_currency"
            unit_len = 0
        elif kind is None and scale_word == "b":
            kind = "params"  # "8B", "70B model": a model size (tokens say "tokens")
        after = unit_text[unit_len:]
        duration = (
            next((u for pat, u in _DURATION_UNITS if pat.match(unit_text)), None) if kind == "time" else None
        )
        out.append(
            _Number(
                value=mantissa * _SCALES.get(scale_word, 1.0),
                mantissa=mantissa,
                kind=kind,
                period=bool(_PERIOD.match(after)),
                duration_unit=duration,
            )
        )
    return out


def _grounding(value: float, n: _Number, field_unit: str | None = None) -> Grounding | None:
    """'stated' when `value` is the number as written (times its scale word: "$5k" is 5,000, never 5),
    'inferred' when a unit factor maps it onto `value`, else None. A duration field (`field_unit`) takes a
    duration as written only in its own unit and converts the others by their unit."""
    if field_unit is not None and n.kind == "time":
        if n.duration_unit == field_unit:
            return "stated" if abs(n.value - value) <= 1e-9 * max(1.0, abs(value)) else None
        factor = _DURATION_FACTORS.get((n.duration_unit or "", field_unit))
        ok = factor is not None and abs(n.value * factor - value) <= 1e-6 * max(1.0, abs(value))
        return "inferred" if ok else None
    if abs(n.value - value) <= 1e-9 * max(1.0, abs(value)):
        return "stated"
    for f in GROUNDING_FACTORS.get(n.kind, ()):
        if abs(n.value * f - value) <= 1e-6 * max(1.0, abs(value)):
            return "inferred"
    return None


def check_number(field: str, value: float, quote: str) -> tuple[Grounding | None, str]:
    """('stated' | 'inferred', '') when `value` is a number of `quote` of the kind `field` needs; else
    (None, the reason)."""
    accepted, keywords = _FIELD_KINDS.get(field, (frozenset(), ()))
    low = quote.lower()
    keyword = any(k in low for k in keywords)
    target = value * PARAMS_PER_BILLION if field == "params_b" else value  # params_b counts billions
    unit = DURATION_FIELD_UNITS.get(field)
    matches = [(n, g) for n in _numbers(quote) if (g := _grounding(target, n, unit)) is not None]
    if not matches:
        return None, f"{value:g} is not a number of the quote"
    want = _KIND_WORDS.get(min(accepted), field) if accepted else "a word naming the field"
    reasons: list[str] = []
    for n, g in matches:
        if n.kind == "other_currency":
            reasons.append("an amount in another currency than US dollars")
        elif field == "budget_usd" and n.period:
            reasons.append("an amount per period, not a total budget")
        elif n.kind in accepted or (n.kind is None and keyword):
            return g, ""
        elif n.kind is None:
            reasons.append(f"a bare number, not {want}")
        else:
            reasons.append(f"{_KIND_WORDS.get(n.kind, n.kind)}, not {want}")
    return None, reasons[0]


def check_value(field: str, value: Any, quote: str) -> tuple[Any, Grounding | None, str]:
    """(value to store, 'stated' | 'inferred', '') or (value, None, reason) for a non-numeric field."""
    if field == "model_id":
        cat = load_catalog()
        for cand in (str(value), quote):
            if cat.has_model(cand):
                return str(cat.model(cand).id), "stated", ""
        return value, None, f"{value!r} is not a model of the catalog"
    if field in ("owned_gpu", "claimed_gpu"):
        gid = resolve_gpu(str(value))
        if load_catalog().has_gpu(gid):
            return gid, "stated", ""
        return value, None, f"{value!r} is not a GPU of the catalog"
    if field in ("gpus_wanted", "gpus_excluded"):
        names = value if isinstance(value, list) else [value]
        cat = load_catalog()
        ids = sorted({g for v in names for g in family_ids(str(v)) if cat.has_gpu(g)})
        return (ids, "stated", "") if ids else (value, None, "no catalog GPU named")
    if field in ("providers_preferred", "providers_excluded", "providers_required"):
        names = value if isinstance(value, list) else [value]
        ids = sorted({pid for v in names for pid, _, _ in find_providers(str(v))})
        return (ids, "stated", "") if ids else (value, None, "no known provider named")
    return value, "stated", ""
