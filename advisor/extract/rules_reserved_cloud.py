"""The cloud a held reservation is at, and staying there (issue 12; evals v14 read as development data):

- owned_provider from the region named in the reservation's sentence ("the committed-use reservation of
  32 H100s (a3-highgpu, us-central1)": us-central1 is a GCP region, read by rules_context), when the
  sentence names no provider itself;
- providers_required = that provider when the text rules out leaving it: "please don't suggest moving to
  another cloud", "we have to stay on our current cloud", "switching clouds is not an option". A move that
  is welcome ("happy to move to another cloud if cheaper") or a question is not a requirement.
"""

from __future__ import annotations

import re

from advisor.extract.rules_ctx import Ctx, I, q

_STAY = re.compile(
    r"\b(?:don'?t|do\s+not|never|can'?t|cannot|won'?t)\s+(?:\w+\s+){0,2}?(?:mov|switch|migrat|go)\w*\s+(?:to\s+)?"
    r"(?:an(?:other)?|a\s+different|other|new)\s+(?:cloud|provider|vendor|hyperscaler)s?\b"
    r"|\bstay\s+(?:on|with|in)\s+(?:our|the\s+same|this|the\s+current|our\s+current)\s+(?:cloud|provider|account)\b"
    r"|\b(?:switching|moving|migrating)\s+(?:clouds?|providers?)\s+(?:is|isn'?t)\s+(?:not\s+)?(?:an\s+option|possible)\b",
    I,
)


def rule_reserved_cloud(ctx: Ctx) -> None:
    """owned_provider from the reservation sentence's region; providers_required when leaving is ruled out."""
    reserved = next((f for f in ctx.findings if f.field == "owned_reserved" and f.value), None)
    provider = next((f.value for f in ctx.findings if f.field == "owned_provider"), None)
    if reserved is not None and provider is None:
        s = next((x for x in ctx.sentences if x.start <= reserved.position <= x.start + len(x.text)), None)
        region = next((f for f in ctx.findings if f.field == "data_region"), None)
        location = next((f for f in ctx.findings if f.field == "data_location"), None)
        if (
            s is not None
            and region is not None
            and location is not None
            and (s.start <= region.position <= s.start + len(s.text))
        ):
            said = f"{region.evidence} -> {location.value} (the reservation's region)"
            ctx.add(s, "owned_provider", location.value, said, "inferred", region.position - s.start)
            provider = location.value
    if provider is None and ctx.prior is not None:
        provider = ctx.prior.owned_provider
    if provider is None or ctx.has("providers_required"):
        return
    for s in ctx.sentences:
        if (m := _STAY.search(s.text)) is not None:
            said = f"{q(m)} (stay at {provider}, the reservation's cloud)"
            ctx.add(s, "providers_required", [provider], said, "inferred", m.start())
            return
