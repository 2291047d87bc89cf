"""A campaign of training runs (runs_total): "12 LoRA fine-tuning runs on Mistral 7B, each on 100M tokens.
Group budget is $2,000 total" (expert review 10, R14: one run was priced and the budget held to it).

Said as "12 LoRA runs", "a sweep of 20 runs", "10 fine-tuning experiments", "a dozen ablations", "run it 8
times (different seeds)". Not a cadence ("20 runs a month" is runs_per_month: rules_context.rule_cadence),
not epochs or GPUs, and not runs in the past ("we did 30 runs last quarter").
"""

from __future__ import annotations

import re

from advisor.extract.regex_keys import keyed
from advisor.extract.rules_ctx import Ctx, I, q
from advisor.extract.rules_text import NUMBER, parse_number

_KIND = r"(?:runs|experiments|ablations|trials|training\s+jobs|fine[\s-]?tun(?:es|ing\s+jobs)|sweeps?\s+runs)"
_RUNS = keyed(
    rf"\b(?P<n>{NUMBER}|a\s+dozen)\s+(?:(?:separate|independent|different|lora|qlora|full|fine[\s-]?tuning"
    rf"|training|sft|dpo|hyper-?parameter|sweep|seed|short|small|similar|such)\s+){{0,3}}{_KIND}\b"
    rf"|\bsweep\s+of\s+(?P<n2>{NUMBER})\s+(?:runs|configs|configurations|trials)\b"
    rf"|\b(?:run|train|repeat)\s+(?:it|this|that|each|the\s+job)\s+(?P<n3>{NUMBER}|twice)\s+times\b",
    I,
)
_PER_PERIOD = re.compile(r"^\s*(?:a|per|/|each|every)\s+(?:day|week|month|quarter|year|night)\b", I)
_PAST = re.compile(r"\b(?:did|ran|done|last|previous|already|so\s+far|ago|were|had)\b", I)


def rule_runs_total(ctx: Ctx) -> None:
    """runs_total from a count of training runs the request covers (training only)."""
    if ctx.workload == "inference":
        return
    for s in ctx.sentences_with(_RUNS):  # a finding needs it to match
        t = s.text
        for m in _RUNS.finditer(t):
            if _PER_PERIOD.match(t[m.end() :]) or _PAST.search(t[max(0, m.start() - 30) : m.end() + 20]):
                continue
            word = (m.group("n") or m.group("n2") or m.group("n3")).lower()
            n = 12 if word.startswith("a") else 2 if word == "twice" else int(parse_number(word))
            if 2 <= n <= 10000:
                ctx.add(s, "runs_total", n, q(m), "stated", m.start())
                return
