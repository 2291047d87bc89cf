"""A GPU named at a provider: "one L4 vs one L40S on GCP", "1x L40S at GCP", "8x H100 on AWS": the prices
asked for are that provider's (expert review 14, R11 / P11: "on GCP" went unread and the L40S was quietly
priced at another provider). The provider is required (and first choice); where it does not list the GPU,
the answer says so and names the nearest offers elsewhere (tools/recommend/provider_gaps.py).

Read only when the provider follows a GPU name within a few words, joined by on / at / in / from / via
("the L40S box at Lambda"), and the words between say nothing of data or storage ("our H100 data on AWS":
where the data sits, not where the GPUs run) and no exclusion ("H100s, but not on AWS"); never for GPUs the
team holds ("our 8x H200 reserved at Lambda": the owned-GPU and reservation rules read those)."""

from __future__ import annotations

import re

from advisor.extract.rules_ctx import Ctx, I, negated
from advisor.extract.rules_models import GPU_RE, PROVIDER_RE, find_providers

_JOIN = re.compile(r"\b(?:on|at|in|from|via|with)\s+(?:the\s+|a\s+|an\s+)?$", I)
_LEAD = re.compile(r"\b(?:on|with|using)\s+(?:\d+\s*[x×]\s*|one\s+|a\s+|an\s+)?(?:nvidia\s+)?$", I)
_HELD = re.compile(r"\b(?:reserv\w*|held|hold|holds|own|owned|have|has|got|bought|commit\w*)\b", I)
_GAP_WORDS = 6
"""Most words between the GPU name and the provider's joining word ("one L40S instance running 24/7 on
GCP"): further off, the provider belongs to something else in the sentence."""
_NOT_GPUS = re.compile(
    r"\b(?:data|dataset|corpus|bucket|s3|gcs|stored|storage|lives|sits|not|never|no|except|excluding|avoid"
    r"|account|credits?)\b",
    I,
)


def rule_gpu_at_provider(ctx: Ctx) -> None:
    """providers_required and providers_preferred for a provider that a GPU name is said to run on."""
    if ctx.has("owned_gpu"):
        return  # "we hold 8x H200 at Nebius": where the team's own GPUs are, read by the owned-GPU rules
    for s in ctx.sentences_with(PROVIDER_RE):  # a finding needs a provider named (find_providers)
        t = s.text
        if _HELD.search(t):
            continue
        gpus = list(GPU_RE.finditer(t))
        if not gpus:
            continue
        for pid, a, b in find_providers(t):
            before = [g for g in gpus if g.end() <= a]
            if not before or negated(t, a):
                continue
            gap = t[before[-1].end() : a]
            join = _JOIN.search(gap)
            if join is None or len(gap.split()) > _GAP_WORDS + 2 or _NOT_GPUS.search(gap):
                continue
            lead = _LEAD.search(t, 0, before[-1].start())  # "on 1x" before the GPU belongs to the phrase
            said = t[lead.start() if lead else before[-1].start() : b]
            ctx.add(s, "providers_required", [pid], said, "stated", a)
            ctx.add(s, "providers_preferred", [pid], said, "stated", a)
