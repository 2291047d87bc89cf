"""Owned GPUs given as a pasted node listing (issue 12; evals v15 development case: `kubectl get nodes` with
a GPU.PRODUCT and a GPU.COUNT column, then "^ that's our own cluster, bought last year"): each row that
names a GPU and ends its GPU column with a count adds that many cards, when the listing has a count column
and a later sentence says the listed machines are the team's own.

Not owned: a listing with no ownership sentence (a provider's catalogue, a quote), rows of another GPU
than the first one listed (a mixed listing is left to the other rules), a listing with no count column.
"""

from __future__ import annotations

import re

from advisor.extract.rules_ctx import Ctx, I
from advisor.extract.rules_models import GPU_RE, resolve_gpu

_COUNT_COLUMN = re.compile(r"\b(?:gpu[._\s-]?count|gpus?|count|#\s*gpus?)\b", I)
_ROW_COUNT = re.compile(r"[\w.-]*\s+(?P<n>\d{1,2})(?=\s|$)")
_OURS = re.compile(
    r"\b(?:that'?s|that\s+is|this\s+is|these\s+are|those\s+are|it'?s|they'?re|they\s+are)\s+(?:all\s+)?our\s+own\b"
    r"|\b(?:that'?s|this\s+is|these\s+are|those\s+are)\s+our\s+(?:on[\s-]?prem\s+)?(?:cluster|nodes|machines"
    r"|servers|fleet|hardware|boxes)\b|\bwe\s+own\s+(?:these|those|them|all\s+of\s+them)\b",
    I,
)
_MAX_ROWS = 64  # a longer listing is no team's node table


def rule_owned_table(ctx: Ctx) -> None:
    """owned_gpu(_count) from a node listing the team says is its own (module docstring)."""
    if ctx.has("owned_gpu"):
        return
    for i, s in enumerate(ctx.sentences):
        if _COUNT_COLUMN.search(s.text) is None:
            continue
        rows = [
            (g, r) for g in GPU_RE.finditer(s.text) if (r := _ROW_COUNT.match(s.text, g.end())) is not None
        ]
        if not rows or len(rows) > _MAX_ROWS:
            continue
        if not any(_OURS.search(later.text) for later in ctx.sentences[i : i + 3]):
            continue
        gid = resolve_gpu(rows[0][0].group("gpu"))
        counts = [int(r.group("n")) for g, r in rows if resolve_gpu(g.group("gpu")) == gid]
        total = sum(counts)
        ev = (
            f"node listing: {len(counts)} rows of {rows[0][0].group(0)} ({' + '.join(map(str, counts))} GPUs)"
        )
        ctx.add(s, "owned_gpu", gid, ev, "stated", rows[0][0].start())
        ctx.add(s, "owned_gpu_count", total, ev, "inferred", rows[0][0].start())
        return
