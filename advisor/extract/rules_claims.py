"""Claim rules: claims and questions about a job's speed on named hardware ("we were told 8x H100 do it in
6 hours", "Can we do ... in 24 hours on 8x H100?"). Owned hardware is advisor/extract/rules_gpus.py."""

from __future__ import annotations

import re

from advisor.extract.regex_keys import keyed
from advisor.extract.rules_ctx import Ctx, I, q
from advisor.extract.rules_models import GPU_RE, resolve_gpu
from advisor.extract.rules_text import (
    APPROX,
    NUMBER,
    parse_number,
)

# =========================================================================== claims
_CLAIM_CUE = keyed(
    r"\b(?:claim\w*|told|tells|said|says|promis\w*|quoted|advertis\w*|vendor|blog|someone|supposedly"
    r"|reportedly|"
    r"according to|we could do|could do|can do|benchmark\w*|marketing|their sales)\b"
    # a question about feasibility: "Can we do ... in 24 hours on 8x H100?", "is it realistic ..."
    r"|\?|^\s*(?:can|could|would|will|is|are|does|do)\s+(?:we|i|it|you|this|that|a|an|one)\b"
    r"|\bis (?:it|that|this) (?:realistic|possible|feasible|true|doable)\b",
    I,
    min_chars=1,  # "?" alone is a cue
)
_CLAIM_HOURS = keyed(
    rf"\b(?:in|takes?|took|within|under|about)\s+{APPROX}(?P<num>{NUMBER})\s*(?P<unit>hours?|hrs?|h|days?"
    rf"|weeks?|minutes?|mins?)\b",
    I,
)
_GPU_COUNT = re.compile(rf"(?P<num>{NUMBER})\s*(?:x\s*|×\s*)?$", I)


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
        h = n * {"d": 24.0, "w": 168.0, "m": 1 / 60}.get(unit[0], 1.0)
        ctx.add(
            s, "claimed_hours", h, q(hours), "stated" if unit.startswith("h") else "inferred", hours.start()
        )
