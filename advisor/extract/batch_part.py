"""The volume of a second workload that is a batch job, from its own sentences (issue 12, group A).

When the splitter routes a batch part to the other workload ("step 2: batch-translate their 5M English FAQ
entries ... ~300 output tokens each", "b) Then score the 25M-document archive with it: ~150 output tokens
per doc", "a one-off backfill ..., 50M tokens of summaries"), the part's own reading may hold each item's
output length but no volume: the whole-text rules look for their item nouns ("tickets", "documents") or a
generating verb. Here the part is already known to be a batch job (it states no users at once), so its
count of items times the output each is its volume, and with its deadline the rate it needs
(units_text.rate_from_volume); a volume of written things ("50M tokens of summaries") is its output.

Not read: a part that serves users (concurrency), a count under 1,000 (a test run), a count per period
("2M docs a day" is a steady rate), a count of a unit (tokens, GPUs, users, hours), or two different counts.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from advisor.extract import units_text as U
from advisor.extract.base import Finding
from advisor.extract.rules_text import MULT, NUM, Sentence, parse_scaled

# a count of items: "5M English FAQ entries", "the 25M-document archive", "400k old tickets"
_ITEMS = re.compile(
    rf"(?<![\w.$€£])(?P<num>{NUM})\s*(?P<mult>{MULT})?(?:[\s-]+(?P<words>(?:[A-Za-z]+\s+){{0,2}}?)"
    r"(?P<noun>[a-z]{3,}s|[a-z]{3,}(?=\s+(?:archive|backlog|corpus|collection|dump)))\b)",
    re.I,
)
# what a count is not a count of items for: units and people (tools' own fields)
_UNIT_NOUNS = frozenset({
    "tokens", "toks", "gpus", "cards", "users", "people", "hours", "days", "weeks", "months", "years",
    "minutes", "seconds", "epochs", "dollars", "euros", "nodes", "servers", "requests", "sessions", "params",
    "parameters", "words", "bytes", "chars", "characters", "steps", "runs", "times", "agents", "employees",
    "customers", "clinicians", "seats", "streams", "conversations", "chats",
})  # fmt: skip
_PERIOD_AFTER = re.compile(r"\s*(?:a|an|per|/|each|every)\s*(?:day|week|month|hour|night|year)\b", re.I)
# "50M tokens of summaries": a volume of written things is what the job writes
_WRITTEN_VOLUME = re.compile(
    rf"(?P<num>{NUM})\s*(?P<mult>{MULT})?\s*tok(?:en)?s?\s+of\s+(?:\w+\s+)?"
    r"(?:summar(?:y|ies)|descriptions?|translations?|captions?|answers?|completions?|rewrites?|labels)\b",
    re.I,
)
_MIN_ITEMS = 1000  # fewer items are a test run (rules_serving_io _MIN_BATCH_ITEMS)
_MIN_TOKENS = 1e6  # a smaller total is no batch volume (rules_serving_io _MIN_GENERATION_TOKENS)


def batch_volume(found: Sequence[Finding], own: Sequence[Sentence]) -> list[Finding]:
    """generation_tokens (and target_tokens_per_s by its deadline) of a batch part whose reading holds
    none: items x output each, or a volume of written things, from the part's own sentences `own`."""
    fields = {f.field: f for f in found}
    if "generation_tokens" in fields or "concurrency" in fields or not own:
        return []
    if "deadline_hours" not in fields:
        return []  # a batch job has its deadline; a part without one may serve questions about the items
    volume = _written(own) or _items_times_each(own, fields.get("output_tokens"))
    if volume is None:
        return []
    tokens, evidence, at = volume
    out = [Finding(field="generation_tokens", value=tokens, status="inferred", evidence=evidence,
                   position=at)]  # fmt: skip
    hours = fields["deadline_hours"]
    if "target_tokens_per_s" not in fields and float(hours.value) > 0:
        conv = U.rate_from_volume(tokens, float(hours.value))
        out.append(Finding(field="target_tokens_per_s", value=conv.value, status="inferred", position=at,
                           evidence=f"the batch part's volume by its deadline: {conv.how}"))  # fmt: skip
    return out


def _written(own: Sequence[Sentence]) -> tuple[float, str, int] | None:
    for s in own:
        if (m := _WRITTEN_VOLUME.search(s.text)) is not None:
            tokens = parse_scaled(m.group("num"), m.group("mult"))
            if tokens >= _MIN_TOKENS:
                said = f'"{m.group(0).strip()}": the volume the batch part writes'
                return tokens, said, s.start + m.start()
    return None


def _items_times_each(own: Sequence[Sentence], each: Finding | None) -> tuple[float, str, int] | None:
    if each is None or not isinstance(each.value, int | float):
        return None
    counts: list[tuple[float, str, int]] = []
    for s in own:
        for m in _ITEMS.finditer(s.text):
            noun = m.group("noun").lower()
            if noun in _UNIT_NOUNS or _PERIOD_AFTER.match(s.text, m.end()):
                continue
            n = parse_scaled(m.group("num"), m.group("mult"))
            if n >= _MIN_ITEMS:
                counts.append((n, m.group(0).strip(), s.start + m.start()))
    if len({n for n, _, _ in counts}) != 1:
        return None  # no count of items, or two different ones
    n, said, at = counts[0]
    tokens = n * float(each.value)
    if tokens < _MIN_TOKENS:
        return None
    return tokens, f'"{said}" x {each.value:g} output tokens each = {tokens:,.0f} tokens', at
