"""A sizing someone else made, reported with its count and how long it runs, and asked to be checked (expert
review 17, R14): "they need 64x H100 for 3 months to pre-train a 7B model on 2T tokens. Is that sized
right?", "Is 64x H100 for 3 months enough to pre-train ...?", "the vendor spec'd 32 A100s for six weeks;
sized right?". The cards, their count and the term are a claim (claimed_gpu, claimed_gpu_count,
claimed_hours) that tools.recommend checks, as "we were told 8x H100 do it in 6 hours" is
(advisor/extract/rules_claims.py, which reads no term in months and no "for <term>" with "need").

Not a claim: the count and term with no sizing question ("we rent 64x H100 for 3 months, what does it
cost?"), a question that is not about the sizing ("not sure about the 3 months of H100 we need")."""

from __future__ import annotations

import re

from advisor.extract import units_text as U
from advisor.extract.rules_ctx import Ctx, I
from advisor.extract.rules_models import GPU_RE, resolve_gpu
from advisor.extract.rules_text import NUMBER, parse_number

# the count right before the cards: "64x H100", "64 H100s", "32 x A100"
_COUNT_BEFORE = re.compile(rf"(?:^|[\s(])(?P<num>{NUMBER})\s*(?:x\s*|×\s*)?(?:nvidia\s+)?$", I)
# the term right after the cards: "for 3 months", "for about six weeks", "for 90 days"
_TERM_AFTER = re.compile(
    rf"s?(?:\s*\d+\s*gb)?(?:\s+(?:gpus?|cards?))?\s+for\s+(?:about\s+|around\s+|roughly\s+|~\s*)?"
    rf"(?P<num>{NUMBER})\s*(?P<unit>months?|weeks?|days?|hours?|hrs?)\b",
    I,
)
# the sizing asked to be checked, in the sentence or the one after it
_SIZING_ASKED = re.compile(
    r"\b(?:(?:sized|spec(?:ced|'d)|scoped)\s+(?:right|correctly|properly|ok)|right[\s-]sized"
    r"|(?:over|under)[\s-]?(?:sized|provisioned|kill)"
    r"|(?:is|are|was)\s+(?:that|this|it|they|those)\s+(?:really\s+|actually\s+)?(?:enough|sufficient|adequate"
    r"|reasonable|realistic|right|correct|too\s+(?:much|many|few|little))"
    r"|(?:enough|sufficient|adequate)\s+(?:to|for)\b)",
    I,
)
_UNIT = {"mo": "month", "we": "week", "da": "day"}


def rule_claim_term(ctx: Ctx) -> None:
    """claimed_gpu, claimed_gpu_count and claimed_hours of a reported sizing asked to be checked."""
    if ctx.has("claimed_gpu"):
        return
    for i, s in enumerate(ctx.sentences):
        t = s.text
        nxt = ctx.sentences[i + 1] if i + 1 < len(ctx.sentences) else None
        asked_here = _SIZING_ASKED.search(t) is not None
        if not asked_here and (nxt is None or _SIZING_ASKED.search(nxt.text) is None):
            continue
        for g in GPU_RE.finditer(t):
            count = _COUNT_BEFORE.search(t[max(0, g.start() - 12) : g.start()])
            term = _TERM_AFTER.match(t, g.end())
            if count is None or term is None:
                continue
            said = t[g.start() - len(count.group(0).lstrip(" (")) : term.end()].strip()
            amount = parse_number(term.group("num"))
            hours = U.hours_from(amount, _UNIT.get(term.group("unit").lower()[:2], "hour")).value
            ctx.add(s, "claimed_gpu", resolve_gpu(g.group("gpu")), said, "stated", g.start())
            ctx.add(s, "claimed_gpu_count", int(parse_number(count.group("num"))), said, "stated", g.start())
            unit_is_hours = term.group("unit").lower().startswith("h")
            ctx.add(s, "claimed_hours", hours, said, "stated" if unit_is_hours else "inferred", term.start())
            ctx.claim_sentences.add(s.start)
            if not asked_here and nxt is not None:
                ctx.claim_sentences.add(nxt.start)  # "Is that sized right?": answered by the claim check
            return
