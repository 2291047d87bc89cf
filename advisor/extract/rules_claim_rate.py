"""A claimed serving rate on named hardware: "vendor says 8x H100 can serve Llama 3.1 405B in FP8 at 2,000
tokens/s aggregate output. Is that realistic?" (expert review 12, R08).

rule_claims reads the claim's GPU and count (claimed_gpu, claimed_gpu_count) and marks its sentence;
rule_serving skips rates in claim sentences (a claim's rate is not the user's target). A serving claim's
aggregate rate is, though, the figure the claim is checked against: it is read here as target_tokens_per_s
(stated, the evidence saying it is the claim's), so the answer sizes for it and tests the claimed set-up
against it (tools/recommend/claim_rate.py). A per-user speed in a claim stays rule_serving's (review 7,
R15); a claim with no aggregate word ("at 100 tok/s") is left as it is."""

from __future__ import annotations

import re

from advisor.extract.rules_context import _ONE_USER, _PAST_RATE, _PER_USER, _RATE_TOKENS
from advisor.extract.rules_ctx import Ctx, I, q
from advisor.extract.rules_text import parse_number

# the words that make a rate the set-up's total, before or after it: "2,000 tokens/s aggregate output",
# "a total throughput of 2k tok/s", "2000 tok/s across all users"
_AGGREGATE = re.compile(
    r"\b(?:aggregate|total|overall|throughput|in\s+total|combined|across|altogether|system[\s-]wide)\b", I
)
_CLAIM_GPU_FIELDS = ("claimed_gpu", "claimed_gpu_count")


def rule_claim_rate(ctx: Ctx) -> None:
    """target_tokens_per_s from the aggregate rate of a serving claim on named hardware."""
    if ctx.workload != "inference" or not ctx.claim_sentences:
        return
    if any(f.field == "target_tokens_per_s" for f in ctx.findings):
        return  # the user's own target wins over the claim's
    if not any(f.field in _CLAIM_GPU_FIELDS for f in ctx.findings):
        return  # a rate with no set-up claimed is rule_serving's
    for s in ctx.sentences:
        if s.start not in ctx.claim_sentences:
            continue
        t = s.text
        for m in _RATE_TOKENS.finditer(t):
            tail = m.group("tail") or ""
            before = t[max(0, m.start() - 30) : m.start()]
            if _PER_USER.match(tail) or _ONE_USER.search(before):
                continue  # one stream's speed: rule_serving's latency_ms_per_token
            if _PAST_RATE.search(t, max(0, m.start() - 45), m.start()):
                continue
            if not _AGGREGATE.search(tail + " " + before):
                continue
            v = parse_number(m.group("num")) * (1000 if m.group("mult") else 1)
            if v <= 0:
                continue
            ev = f'"{q(m)}": the claimed aggregate rate, checked on the claimed set-up'
            ctx.add(s, "target_tokens_per_s", v, ev, "stated", m.start())
            return
