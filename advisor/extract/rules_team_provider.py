"""The team's provider said as its situation (expert review 15, R09): "We are on CoreWeave.", "Our provider
is CoreWeave.", "we're hosted with Lambda", "we run everything on Nebius". Such a team rents where it
already is: providers_required (and ranked first), the evidence saying it was read as the team's provider
(rules_constraints reads "CoreWeave only", "can't use anything but AWS"). Not a provider named with
something else after it ("we are on CoreWeave's waitlist", "we're on AWS credits until June"), a past one
("we were on Lambda"), a negation ("we are not on AWS"), one the team is "already on" (a reason to prefer it,
tests/extract/test_provider_list_only.py), nor one said with a wish or an opening ("we're on Azure and
would like to stay there", "our provider is CoreWeave but we're open to others": rules_constraints reads a
preference)."""

from __future__ import annotations

import re

from advisor.extract.rules_ctx import Ctx, I
from advisor.extract.rules_models import PROVIDER_RE, find_providers

# the words right before the provider's name
_TEAM_ON = re.compile(
    r"\b(?:we(?:'re|\s+are)\s+(?:all\s+|currently\s+|fully\s+|entirely\s+)?(?:on|with"
    r"|hosted\s+(?:on|at|with|in)|running\s+on|a\s+customer\s+of)"
    r"|our\s+(?:cloud\s+|gpu\s+|compute\s+|current\s+|only\s+)?(?:provider|cloud|vendor|host)\s+(?:is|=|:)"
    r"|we\s+(?:run|host|deploy)\s+(?:everything\s+|all\s+(?:of\s+)?our\s+\w+\s+|it\s+all\s+)?(?:on|at|with|in))"
    r"\s+$",
    I,
)
# ... and the clause ends right after it
_CLAUSE_END = re.compile(r"\s*(?:[.,;!?)]|$|\s+(?:so|now|today)\b|\s+-)", I)
# ... and the rest of the sentence does not make it a wish: "We're on Azure and would like to stay there"
# (a preference, tests/extract/test_reading_v5.py)
_SOFT = re.compile(
    r"\b(?:would\s+like|'d\s+like|prefer\w*|ideally|if\s+possible|happy|open\s+to|rather)\b", I
)


def rule_team_provider(ctx: Ctx) -> None:
    """providers_required (and preferred) from the team's provider said as its situation (module docstring),
    when no provider was required yet."""
    if ctx.has("providers_required"):
        return
    for s in ctx.sentences_with(PROVIDER_RE):  # a finding needs a provider named (find_providers)
        t = s.text
        for pid, a, b in find_providers(t):
            cue = _TEAM_ON.search(t[max(0, a - 60) : a])
            if cue is None or _CLAUSE_END.match(t, b) is None or t[b : b + 2] == "'s" or _SOFT.search(t, b):
                continue
            said = t[a - len(cue.group(0)) : b].strip()
            ev = f'"{said}": the team\'s provider, so only {t[a:b]} is priced (say if others will do)'
            ctx.add(s, "providers_required", [pid], ev, "stated", a)
            ctx.add(s, "providers_preferred", [pid], ev, "stated", a)
