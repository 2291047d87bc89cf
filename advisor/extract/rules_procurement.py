"""Procurement-style briefs (RFQ, tender; issue 12, gap 1): the hardware a vendor is asked to supply.

- "1. The vendor shall provide 16 NVIDIA H100 SXM GPUs (2 nodes of 8)", "The supplier must deliver
  2 nodes of 8x H100", "Bidders shall quote for 32 x H200", "Quantity: 16 x H100 SXM": gpus_wanted is the
  GPU named (its catalog family) and max_gpus the quantity requested (inferred: the buyer asks for that
  many, so a pick needing more is not what the tender buys). "N nodes of M" counts N x M GPUs.
- Not read: a quantity of something else ("The vendor shall provide 24/7 support", "shall deliver 2
  racks"), a GPU the vendor may not offer ("shall not provide"), a vendor's own claim with no obligation
  ("the vendor has 16 H100s").
- A team's own ask in chat (ext22): "We want 16 H100 SXM GPUs", "we'd like to rent 8x H200", "Looking for 32
  H100s" read the same way (the reply's "most GPUs 16"); "Capacity: 16 H100 SXM" in an RFQ too. Not: "we
  have 16 H100s" (owned: rules_gpus), a question ("do we need 16 H100s?", rules_claims).
"""

from __future__ import annotations

import re

from advisor.extract.regex_keys import keyed
from advisor.extract.rules_ctx import Ctx, I
from advisor.extract.rules_gpus import _in_catalog, family_ids
from advisor.extract.rules_models import GPU_RE
from advisor.extract.rules_text import parse_count

_PARTY = r"(?:the\s+)?(?:vendor|supplier|bidder|contractor|provider|offeror|respondent|seller|tenderer)s?"
_OBLIGED = r"(?:shall|must|will|is\s+(?:required\s+)?to|are\s+(?:required\s+)?to)"
_SUPPLY = r"(?:provide|supply|deliver|furnish|offer|quote(?:\s+for)?|make\s+available)"
# the quantity then the GPU: "16 NVIDIA H100 SXM GPUs", "32 x H200", "2 nodes of 8x H100", "2 x 8 H100"
_QUANTITY = (
    r"(?:a\s+total\s+of\s+|at\s+least\s+|up\s+to\s+)?(?P<n>\d{1,4})\s*(?:x|×)?\s*"
    r"(?:(?:nodes?|servers?|systems?)\s+(?:of|with)\s+(?P<per>\d{1,2})\s*(?:x|×)?\s*|(?:x|×)\s*(?P<per2>\d{1,2})\s+)?"
)
_GPU_NEXT = r"(?=(?:nvidia\s+|amd\s+)?(?:[ahbl]\d{2,3}|rtx|mi\d{3}|gaudi|l4\b|l40))"
_NODES_AFTER = re.compile(
    r"(?:\s*gpus?)?\s*\(\s*\d{1,4}\s*(?:nodes?|servers?|systems?)\s+(?:of|x|×)\s*\d{1,2}\s*\)", I
)
_ASKED = (  # keyed: a tuple's patterns are not among the module-level ones rules.py keys (speed8)
    keyed(rf"\b{_PARTY}\s+{_OBLIGED}\s+{_SUPPLY}\s+{_QUANTITY}{_GPU_NEXT}", I),
    keyed(rf"\b(?:quantity|qty|capacity)\s*[:=]\s*{_QUANTITY}{_GPU_NEXT}", I),
)
# a team asking for a count in chat (ext22 gap 1): "We want 16 H100 SXM GPUs", "we'd like to rent 8x H200",
# "Looking for 32 H100s"; not "we have 16 H100s" (owned), "will 16 H100s do?" (a claim, rules_claims)
_WE_ASK = re.compile(
    r"\b(?:(?:we|i)(?:'d|\s+would|\s+really|\s+also|\s+only|\s+just)?\s+(?:want|need|(?<=['l]d\s)like"
    r"|require|plan\s+(?:to|on)|intend\s+to|are\s+(?:looking\s+for|asking\s+for|after|planning\s+(?:to|on)))"
    r"|(?:we'?re|i'?m)\s+(?:looking\s+for|asking\s+for|after|planning\s+(?:to|on))|looking\s+for)"
    r"\s+(?:(?:to\s+)?(?:rent|reserve|book|use|get|buy|lease|have)(?:ing)?\s+)?" + _QUANTITY + _GPU_NEXT,
    I,
)


def rule_procurement(ctx: Ctx) -> None:
    """gpus_wanted and max_gpus from a tender's obligation to supply GPUs (module docstring)."""
    for s in ctx.sentences_with(*_ASKED, _WE_ASK):  # a finding needs one of them to match
        for ours, m in ((rx is _WE_ASK, m) for rx in (*_ASKED, _WE_ASK) for m in rx.finditer(s.text)):
            if s.text.rstrip().endswith("?") or s.start in ctx.claim_sentences:
                # "we need 16 H100s?", "my vendor says we need 4x H100": a claim (rules_claims,
                # rules_reported_need), checked rather than a count asked for
                continue
            g = GPU_RE.match(s.text, m.end())
            if g is None:
                continue
            ids = [i for i in family_ids(g.group("gpu")) if _in_catalog(i)]
            per = m.group("per") or m.group("per2")
            n = parse_count(m.group("n")) * (parse_count(per) if per else 1)
            nodes = _NODES_AFTER.match(s.text, g.end())  # "16 H100 SXM GPUs (2 nodes of 8)"
            said = " ".join(s.text[m.start() : nodes.end() if nodes else g.end()].split())
            if ids:
                ctx.add(s, "gpus_wanted", ids, said, "stated", m.start())
            if 1 <= n <= 100_000:
                whose = "the count you asked for" if ours else "the quantity the tender asks for"
                ev = f'"{said}" -> at most {int(n)} GPUs ({whose})'
                ctx.add(s, "max_gpus", int(n), ev, "inferred", m.start())
