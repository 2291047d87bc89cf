"""A batch's volume when the output length is given per item by the item's own name (issue 12; evals v13,
read as development data): "Generates product descriptions for 2.4M SKUs ... Per SKU: ~500 prompt tokens,
~220 output tokens", "30k contracts to summarise; for each contract ~400 output tokens". The items are
counted in one place and named again after "per" / "each" / "for every" where the output length is:
generation_tokens = count x output tokens, and with a deadline the rate it needs (units_text
rate_from_volume). Runs after rule_serving_io, only when it read no volume; a count under 1,000 is a test
run, and a count per period ("2M SKUs a month") is a steady rate, not one batch."""

from __future__ import annotations

import re

from advisor.extract import units_text as U
from advisor.extract.base import select_findings
from advisor.extract.rules_ctx import Ctx, I
from advisor.extract.rules_text import MULT, NUMBER, parse_count, parse_scaled

_PER_NAME = re.compile(r"\b(?:per|each|for\s+(?:each|every))\s+(?P<noun>[a-z][a-z0-9-]{1,24})\b", I)
_NOT_ITEMS = frozenset({
    "token", "tokens", "second", "sec", "minute", "hour", "day", "week", "month", "year", "gpu", "node",
    "user", "request", "call", "query", "one", "time", "run", "epoch", "step", "batch", "item", "the", "a",
    "quarter", "night", "session", "replica", "sequence", "person", "seat", "head", "engineer", "team",
})  # fmt: skip
# words that may stand between a count and its noun: adjectives and nouns ("2.4M product SKUs"), not a
# preposition or an article ("$60k per quarter", "10k of the documents" is a share, not the batch)
_BETWEEN = r"(?:(?!(?:per|a|an|each|every|of|in|for|the|to|by|on|at)\b)[\w-]+\s+){0,2}?"
_MONEY_BEFORE = re.compile(r"(?:[$€£¥₹]|\b(?:usd|eur|gbp|chf))\s*$", I)
_MIN_ITEMS = 1000  # fewer items are a test run (rules_serving_io _MIN_BATCH_ITEMS)
_MIN_TOKENS = 1e6  # a smaller total is no batch volume (rules_serving_io _MIN_GENERATION_TOKENS)
_PERIOD_AFTER = re.compile(r"\s*(?:a|an|per|/|each|every)\s*(?:day|week|month|hour|night|year)\b", I)


def rule_per_item_volume(ctx: Ctx) -> None:
    """generation_tokens (and target_tokens_per_s with a deadline) from items counted once and named again
    where their output length is given ("2.4M SKUs" ... "Per SKU: ~220 output tokens")."""
    if ctx.workload not in ("inference", None) or ctx.has("generation_tokens"):
        return
    best = select_findings(f for f in ctx.findings if f.field in ("output_tokens", "deadline_hours"))
    out = best.get("output_tokens")
    if out is None:
        return
    nouns = {m.group("noun").lower() for s in ctx.sentences for m in _PER_NAME.finditer(s.text)}
    for noun in sorted(nouns - _NOT_ITEMS):
        counted = re.compile(
            rf"(?P<num>{NUMBER})\s*(?P<mult>{MULT})?\s+{_BETWEEN}{re.escape(noun)}(?:s|es)?\b", I
        )
        for s in ctx.sentences:
            for m in counted.finditer(s.text):
                if _PERIOD_AFTER.match(s.text, m.end()) or _MONEY_BEFORE.search(s.text[: m.start()]):
                    continue  # "2M SKUs a month": a rate, read elsewhere; "$60k per quarter": money
                mult = m.group("mult")
                count = parse_scaled(m.group("num"), mult) if mult else parse_count(m.group("num"))
                total = count * float(out.value)
                if count < _MIN_ITEMS or total < _MIN_TOKENS:
                    continue
                said = m.group(0).strip()
                ev = f'"{said}" x "{out.evidence}" (per {noun}) = {total:,.0f} output tokens'
                ctx.add(s, "generation_tokens", total, ev, "inferred", m.start())
                deadline = best.get("deadline_hours")
                if deadline is not None:
                    conv = U.rate_from_volume(total, float(deadline.value))
                    ev = f'"{said}" x "{out.evidence}" by the deadline: {conv.how}'
                    ctx.add(s, "target_tokens_per_s", conv.value, ev, "inferred", m.start())
                return
