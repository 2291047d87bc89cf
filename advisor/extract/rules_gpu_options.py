"""GPU options written as a clause of their own (issue 12; evals v13, read as development data): "One node
only, 8x H200 or 8x B200, no multi-node inference", "- 4x L40S or 2x H100 -": a list of counted GPUs joined
by "or" and standing alone between clause marks is the hardware the team will take (gpus_wanted). It is a
requirement list's item, not a story ("last year we used 8x H100 or 8x A100" has a verb before it), a
question ("8x H100 or 8x H200?") or a claim (rule_claims marks those sentences)."""

from __future__ import annotations

import re

from advisor.extract.rules_ctx import Ctx, I, negated
from advisor.extract.rules_gpus import family_ids
from advisor.extract.rules_models import GPU_RE, _catalog
from advisor.extract.rules_text import NUMBER

_COUNTED = rf"(?:{NUMBER}\s*[x×]\s*|[x×]\s*{NUMBER}\s+)"
_OPTION = re.compile(rf"{_COUNTED}{GPU_RE.pattern}", I)
_OR = re.compile(r"\s*(?:,\s*)?(?:\bor\b|/)\s*", I)
_CLAUSE_START = re.compile(r"(?:^|[,;:(\u2022-])\s*$")
_CLAUSE_END = re.compile(r"\s*(?:$|[,;.)\u2022])")


def rule_gpu_options(ctx: Ctx) -> None:
    """gpus_wanted from a clause that is only counted GPU options joined by "or" ("8x H200 or 8x B200")."""
    cat = _catalog()
    for s in ctx.sentences:
        t = s.text
        if s.start in ctx.claim_sentences or t.rstrip().endswith("?"):
            continue
        if " or " not in t.lower() and "/" not in t:
            continue  # no options joined by "or" or "/": nothing to scan for
        for first in _OPTION.finditer(t):
            if not _CLAUSE_START.search(t[max(0, first.start() - 3) : first.start()]):
                continue
            if negated(t, first.start()):
                continue
            options = [first]
            pos = first.end()
            while (join := _OR.match(t, pos)) is not None and (nxt := _OPTION.match(t, join.end())):
                options.append(nxt)
                pos = nxt.end()
            if len(options) < 2 or not _CLAUSE_END.match(t, pos):
                continue
            ids = [i for o in options for i in family_ids(o.group("gpu")) if cat is None or cat.has_gpu(i)]
            if ids:
                ctx.add(s, "gpus_wanted", ids, t[first.start() : pos], "stated", first.start())
