"""The compact extraction schema a model answers in, and the reading of its answer into raw facts.

Small local models (1-2B parameters on a few CPU cores) fill a schema of 40 nullable fields slowly and
badly: each null costs tokens, and evidence for every field doubles it. So the model answers with a short
list of facts, only those the rules' draft lacks or gets wrong:

    {"facts": [{"field": "epochs", "value": 3, "quote": "3 epochs"}, ...]}

`field` is one of the profile's fields (an enum in the schema, so every constraint field of
WorkloadProfile can be named: providers, pricing, GPU types and counts, owned hardware, power price,
serving lengths, generation volume ...), `value` is copied from the text and `quote` is a few words of
it (the span the fact came from; the accounting of the input marks that clause as used). The list is
capped at `MAX_FACTS` and the answer at `LLMSettings.max_tokens` tokens.

`raw_facts` also reads the older flat shape ({"epochs": 3, "evidence": [{"field", "quote"}]}), which
some models fall back to when a server ignores the schema.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from advisor.extract.base import LIST_FIELDS
from tools.profile import PROFILE_FIELDS, WorkloadProfile

SCHEMA_NAME = "ExtractionResult"
MAX_FACTS = 24  # a chat message rarely holds more; a long brief's rest is read by the rules
MAX_QUOTE_WORDS = 12  # "the shortest exact quote": a longer one is clipped to its first words

_NUMERIC = frozenset(
    name for name in PROFILE_FIELDS
    if WorkloadProfile.model_fields[name].annotation in (float | None, int | None)
)  # fmt: skip
_BOOL = frozenset(
    name for name in PROFILE_FIELDS if WorkloadProfile.model_fields[name].annotation == bool | None
)


def extraction_schema() -> dict[str, Any]:
    """The JSON schema sent with the request (json_schema response format or a forced tool)."""
    fact = {
        "type": "object",
        "properties": {
            "field": {"type": "string", "enum": list(PROFILE_FIELDS)},
            "value": {
                "anyOf": [
                    {"type": "number"},
                    {"type": "string"},
                    {"type": "boolean"},
                    {"type": "array", "items": {"type": "string"}},
                ]
            },
            "quote": {"type": "string", "description": "the user's exact words, a few of them"},
        },
        "required": ["field", "value", "quote"],
        "additionalProperties": False,
    }
    return {
        "title": SCHEMA_NAME,
        "description": "Workload facts from the user's text that the draft lacks or gets wrong.",
        "type": "object",
        "properties": {"facts": {"type": "array", "items": fact, "maxItems": MAX_FACTS}},
        "required": ["facts"],
        "additionalProperties": False,
    }


@dataclass(frozen=True)
class RawFact:
    """One fact as the model gave it, before any check."""

    field: str
    value: Any
    quote: str | None


def raw_facts(answer: dict[str, Any]) -> list[RawFact]:
    """The facts of a model's answer, in either shape (see the module docstring)."""
    out: list[RawFact] = []
    facts = answer.get("facts")
    if isinstance(facts, list):
        for item in facts[:MAX_FACTS]:
            if isinstance(item, dict):
                name = str(item.get("field") or item.get("f") or "")
                out.append(
                    RawFact(name, item.get("value", item.get("v")), _quote(item.get("quote", item.get("q"))))
                )
        return out
    quotes: dict[str, str] = {}
    for ev in answer.get("evidence") or []:
        if isinstance(ev, dict) and ev.get("field") and ev.get("quote"):
            quotes.setdefault(str(ev["field"]), str(ev["quote"]))
    for name, value in answer.items():
        if name in ("evidence", "facts") or value is None or value == []:
            continue
        out.append(RawFact(name, value, _quote(quotes.get(name))))
    return out


def _quote(q: Any) -> str | None:
    if not isinstance(q, str) or not q.strip():
        return None
    words = q.split()
    return " ".join(words[:MAX_QUOTE_WORDS])


_NUMBER = re.compile(
    r"^\s*[$€£]?\s*(\d[\d,]*(?:\.\d+)?|\.\d+)\s*([kmbt]|thousand|million|billion)?\s*$", re.I
)
_SCALE = {"k": 1e3, "thousand": 1e3, "m": 1e6, "million": 1e6, "b": 1e9, "billion": 1e9, "t": 1e12}


def coerce(field: str, value: Any) -> Any:
    """`value` in the field's JSON type: "20M" -> 2e7 for a number, "yes" -> True, "aws, gcp" -> a list,
    "Fine tuning" -> "fine_tuning" for a word. Raises ValueError when it cannot be read."""
    if field in _NUMERIC:
        if isinstance(value, bool):
            raise ValueError(f"{field}: a number is needed")
        if isinstance(value, int | float):
            return value
        m = _NUMBER.match(str(value))
        if not m:
            raise ValueError(f"{field}: {value!r} is not a number")
        num = float(m.group(1).replace(",", ""))
        return num * _SCALE.get((m.group(2) or "").lower(), 1.0)
    if field in _BOOL:
        if isinstance(value, bool):
            return value
        word = str(value).strip().lower()
        if word in ("true", "yes", "1"):
            return True
        if word in ("false", "no", "0"):
            return False
        raise ValueError(f"{field}: {value!r} is not true or false")
    if field in LIST_FIELDS:
        items = value if isinstance(value, list) else re.split(r"\s*[,;/]\s*|\s+and\s+", str(value))
        words = [str(v).strip() for v in items if str(v).strip()]
        return [re.sub(r"[\s-]+", "_", w.lower()) for w in words] if field == "pricing_excluded" else words
    if isinstance(value, list | dict | bool) or isinstance(value, int | float) and field != "data_region":
        raise ValueError(f"{field}: {value!r} is not a word")
    word = str(value).strip()
    if field in ("model_id", "owned_gpu", "claimed_gpu", "data_region"):
        return word
    if field == "framework":  # tools.vocabulary spells them with hyphens ("llama-factory")
        return re.sub(r"[\s_]+", "-", word.lower())
    return re.sub(r"[\s-]+", "_", word.lower())
