"""A batch that arrives each night (or evening) and must finish inside a window (rd15).

"About 2,500 PRs a night, ~600 tokens of review comments per PR. It has to finish between 02:00 and
07:00": one night's items times the output each is the night's generation volume (generation_tokens),
and the window (deadline_hours, read by the deadline rules: 5 h) gives the aggregate rate that meets it
(units_text.rate_from_volume). The serving rules read "N items a day" as a steady stream over 24 hours;
a night's batch with a window shorter than a day is not spread over the day. Any counted noun is an item
here ("PRs", "calls", "orders"), since the period and the output length each say it is a batch.
"""

from __future__ import annotations

import re

from advisor.extract import units_text as U
from advisor.extract.base import select_findings
from advisor.extract.rules_ctx import Ctx, Gated, I, q
from advisor.extract.rules_languages import batch_is_inference
from advisor.extract.rules_text import MULT, NUMBER, parse_scaled

_NIGHTLY = Gated(
    re.compile(
        rf"(?P<num>{NUMBER})\s*(?P<mult>{MULT})?\s*(?:[a-z][\w-]*\s+){{0,2}}?(?P<item>[a-z]{{2,}}s)\s+"
        r"(?:a|an|per|each|every)\s+(?:week)?(?:night|evening)\b",
        I,
    ),
    "night", "evening",
)  # fmt: skip
_MIN_ITEMS = 10  # fewer is not a batch ("3 jobs a night")
_DAY_HOURS = 24.0


def rule_nightly_batch(ctx: Ctx) -> None:
    """generation_tokens and target_tokens_per_s for a nightly batch with a window (module docstring)."""
    if ctx.workload not in ("inference", None) or any(f.field == "generation_tokens" for f in ctx.findings):
        return
    picked = select_findings(f for f in ctx.findings if f.field in ("output_tokens", "deadline_hours"))
    out, window = picked.get("output_tokens"), picked.get("deadline_hours")
    if out is None or window is None or not 0 < float(window.value) < _DAY_HOURS:
        return
    for s in ctx.sentences:
        m = _NIGHTLY.search(s.text)
        if m is None:
            continue
        count = parse_scaled(m.group("num"), m.group("mult"))
        if count < _MIN_ITEMS:
            continue
        gen = count * float(out.value)
        ev = f'"{q(m)}" x "{out.evidence}" = {gen:,.0f} output tokens a night'
        ctx.add(s, "generation_tokens", gen, ev, "inferred", m.start())
        conv = U.rate_from_volume(gen, float(window.value))
        ev = f"in the window {window.evidence}: {conv.how}"
        ctx.add(s, "target_tokens_per_s", conv.value, ev, "inferred", m.start())
        batch_is_inference(ctx, s, m.start())
        return
