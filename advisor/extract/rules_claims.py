"""Claim rules: GPUs the team owns and claims about a job's speed on named hardware."""

from __future__ import annotations

import re

from advisor.extract.rules_ctx import Ctx, I, q
from advisor.extract.rules_models import GPU_RE, resolve_gpu
from advisor.extract.rules_text import (
    APPROX,
    NUMBER,
    parse_number,
)

# =========================================================================== claims
_CLAIM_CUE = re.compile(
    r"\b(?:claim\w*|told|tells|said|says|promis\w*|quoted|advertis\w*|vendor|blog|someone|supposedly"
    r"|reportedly|"
    r"according to|we could do|could do|can do|benchmark\w*|marketing|their sales)\b",
    I,
)
_CLAIM_HOURS = re.compile(
    rf"\b(?:in|takes?|took|within|under|about)\s+{APPROX}(?P<num>{NUMBER})\s*(?P<unit>hours?|hrs?|h|days?"
    rf"|minutes?|mins?)\b",
    I,
)
_GPU_COUNT = re.compile(rf"(?P<num>{NUMBER})\s*(?:x\s*|×\s*)?$", I)


_OWN_GPUS = re.compile(
    r"\b(?:my|our|we\s+(?:have|own)|i\s+(?:have|own)|(?:can|could|will|would)\s+(?:a|an|one|a\s+single)"
    r"|on\s+(?:a\s+single|one|a))\s+"
    rf"(?:(?P<num>{NUMBER})\s*(?:x\s*|×\s*)?)?(?:own\s+)?",
    I,
)


_FLEET_AFTER = re.compile(r"\s*(?:cluster|nodes?|servers?|fleet|farm|pods?)\b", I)
_BARE_CONSUMER_GPU = re.compile(r"(?P<gpu>3090|4090|5090)s?\b")  # "can a 4090 handle ..."


def rule_own_gpus(ctx: Ctx) -> None:
    """'on my RTX 4090', 'we have 4 A100s': the user's own GPUs become claimed_gpu(_count), so the
    recommender checks the workload on them (fit and time) beside the catalog's offers."""
    for s in ctx.sentences:
        if s.start in ctx.claim_sentences:
            continue
        t = s.text
        for own in _OWN_GPUS.finditer(t):
            num = own.group("num")
            gpu = GPU_RE.match(t, own.end()) or _BARE_CONSUMER_GPU.match(t, own.end())
            if not gpu and num:  # the "count" was the card itself: "can a 4090 ..."
                gpu, num = _BARE_CONSUMER_GPU.match(t, own.start("num")), None
            if not gpu or _FLEET_AFTER.match(t, gpu.end()):  # "our H100 cluster": its size is unknown
                continue
            name = gpu.group("gpu")
            gid = resolve_gpu(f"rtx {name}" if name.isdigit() else name)
            ctx.add(s, "claimed_gpu", gid, q(gpu), "stated", gpu.start())
            count = int(parse_number(num)) if num else 1
            ctx.add(s, "claimed_gpu_count", count, t[own.start() : gpu.end()].strip(),
                    "stated" if num else "inferred", gpu.start())  # fmt: skip
            return


def rule_claims(ctx: Ctx) -> None:
    """claimed_gpu, claimed_gpu_count, claimed_hours from a reported claim; marks claim sentences."""
    for s in ctx.sentences:
        t = s.text
        if not _CLAIM_CUE.search(t):
            continue
        hours = _CLAIM_HOURS.search(t)
        gpu = GPU_RE.search(t)
        if not hours or not gpu:
            continue
        ctx.claim_sentences.add(s.start)
        gid = resolve_gpu(gpu.group("gpu"))
        ctx.add(s, "claimed_gpu", gid, q(gpu), "stated", gpu.start())
        cm = _GPU_COUNT.search(t[max(0, gpu.start() - 14) : gpu.start()])
        count = int(parse_number(cm.group("num"))) if cm else 1
        ctx.add(s, "claimed_gpu_count", count, t[max(0, gpu.start() - 14) : gpu.end()].strip(),
                "stated" if cm else "inferred", gpu.start())  # fmt: skip
        unit = hours.group("unit").lower()
        n = parse_number(hours.group("num"))
        h = n * 24 if unit.startswith("d") else (n / 60 if unit.startswith("m") else n)
        ctx.add(
            s, "claimed_hours", h, q(hours), "stated" if unit.startswith("h") else "inferred", hours.start()
        )
