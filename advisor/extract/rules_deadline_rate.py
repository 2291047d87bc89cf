"""A later turn that moves a batch job's deadline ("Client moved it up. They need it by this Friday"):
the rate the job needs is the earlier turns' generation volume over the new time left (issue 12; evals v12,
a multi-turn update that kept the first turn's rate). Only a rate the earlier turns derived is replaced: a
rate the user stated ("we need 500 tokens/s") stands. The rate comes from units_text.rate_from_volume.
"""

from __future__ import annotations

from advisor.extract import units_text as U
from advisor.extract.base import select_findings
from advisor.extract.rules_ctx import Ctx


def rule_rate_for_new_deadline(ctx: Ctx) -> None:
    """target_tokens_per_s again from the prior generation volume when this turn gives a new deadline."""
    prior = ctx.prior
    if prior is None or prior.generation_tokens is None or prior.workload not in ("inference", None):
        return
    if any(f.field in ("target_tokens_per_s", "generation_tokens") for f in ctx.findings):
        return  # this turn says its own rate or volume: the rate rules derived it
    if prior.target_tokens_per_s is not None and prior.status_of("target_tokens_per_s") != "inferred":
        return
    last = select_findings(f for f in ctx.findings if f.field == "deadline_hours").get("deadline_hours")
    if last is None or last.retract or last.value is None:
        return
    hours = float(last.value)
    if hours <= 0 or hours == prior.deadline_hours:
        return
    conv = U.rate_from_volume(float(prior.generation_tokens), hours)
    ev = f"{prior.generation_tokens:,.0f} output tokens (earlier turn) by the new deadline: {conv.how}"
    s = next((x for x in ctx.sentences if x.start <= last.position), ctx.sentences[0])
    ctx.add(s, "target_tokens_per_s", conv.value, ev, "inferred", rank=last.position)
