"""A provider the team holds a compliance agreement with, said as where the work can run (issue 12, evals v10
and v14): "on AWS (our BAA is there)", "We have one with AWS and one with Google Cloud, either works" after
"provider with a signed BAA". A business associate agreement is what lets health data (PHI) onto a
provider at all (HIPAA, 45 CFR 164.502(e)), so the providers it is held with are required, not preferred
(providers_required, ranked first as the other requirements are).

The agreement must be the team's: "our BAA", "we have/signed a BAA with", or "have one with X" right after a
sentence that names the BAA. Not a provider that merely offers one ("AWS offers BAAs"), one the team has no
agreement with ("we don't have a BAA with RunPod"), nor a sentence without a provider.
"""

from __future__ import annotations

import re

from advisor.extract.rules_ctx import Ctx, I, negated, q
from advisor.extract.rules_models import PROVIDER_RE, find_providers

_BAA = r"(?:baas?|business\s+associate\s+agreements?)"
# the team's own agreement in the sentence: "our BAA is there", "we have a BAA with AWS", "signed BAA"
_OURS = re.compile(
    rf"\b(?:our|we\s+(?:have|hold|signed)\s+(?:an?|the)|existing|signed)\s+(?:\w+\s+){{0,2}}?{_BAA}\b", I
)
# the agreement named in the sentence before and taken up here: "We have one with AWS and one with GCP"
_BAA_NAMED = re.compile(rf"\b{_BAA}\b", I)
_ONE_WITH = re.compile(r"\b(?:we|i)\s+(?:have|hold|signed)\s+(?:one|it|them|those)\s+(?:with|at)\b", I)


def rule_baa_provider(ctx: Ctx) -> None:
    """providers_required (and preferred) for the providers the team holds a BAA with (module docstring)."""
    before = ""
    for s in ctx.sentences:
        t = s.text
        cue = _OURS.search(t)
        if cue is None and _BAA_NAMED.search(before) is not None:
            cue = _ONE_WITH.search(t)
        before = t
        if cue is None or PROVIDER_RE.search(t) is None:
            continue
        for pid, a, b in find_providers(t):
            if negated(t, a):
                continue
            ev = f'"{q(cue)}" ... {t[a:b]}: the team\'s BAA, so only the providers it is held with are priced'
            ctx.add(s, "providers_required", [pid], ev, "stated", a)
            ctx.add(s, "providers_preferred", [pid], ev, "stated", a)
