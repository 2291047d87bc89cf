"""US hosting said as where the GPUs are to be, without "only" (expert review 13, R08, a voice-dictated
request): "what GPUs should we get in the US", "we want to rent H100s in the United States", "servers in
the US", "US-based hosting". It was neither read nor listed as unused; rules_constraints._US_ONLY reads
"US only" and "must be in the US". Not a place said of someone else ("our users are in the US", "we're a
US company") and not a negation ("not in the US", "outside the US")."""

from __future__ import annotations

from advisor.extract.regex_keys import keyed
from advisor.extract.rules_ctx import Ctx, I, q

_US = r"(?:(?-i:US|U\.S\.?|USA)|united\s+states)"
_US_HOSTING = keyed(
    # a verb that places the GPUs: "get/rent/run/host/deploy ... in the US"
    r"\b(?:get|rent|buy|run|host|deploy|put|keep|provision|spin\s+up|use|need|want|find)\b(?:\s+[\w-]+){0,5}?"
    rf"\s+in\s+(?:the\s+)?{_US}\b(?!-)"
    # the capacity named with the place: "GPUs in the US", "servers hosted in the United States"
    r"|\b(?:gpus?|servers?|nodes?|instances?|capacity|hosting|clusters?|machines?|compute|boxes)"
    rf"(?:\s+(?:hosted|located|based|running))?\s+in\s+(?:the\s+)?{_US}\b(?!-)"
    rf"|\b{_US}[\s-]based\s+(?:gpus?|servers?|hosting|capacity|compute|data\s?cent(?:er|re)s?)\b",
    I,
)
_NOT_HERE = keyed(r"(?:\b(?:not|never|outside|except|excluding|anywhere\s+but)\b|n't\b)[^.;]{0,25}$", I)


def rule_us_hosting(ctx: Ctx) -> None:
    """us_only from US hosting said as the GPUs' place (module docstring), when nothing read it yet."""
    if ctx.has("us_only") or ctx.has("eu_only"):
        return
    for s in ctx.sentences:
        m = _US_HOSTING.search(s.text)
        if m is None or _NOT_HERE.search(s.text[max(0, m.start() - 30) : m.end() - 2]):
            continue
        ev = f'"{q(m)}" -> US regions (the GPUs\' place, said as where to get them; say if any will do)'
        ctx.add(s, "us_only", True, ev, "inferred", m.start())
        return
