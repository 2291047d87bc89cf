"""A provider required by a rule against every other one (expert review 18, R10: "We're an AWS shop
(us-east-1, security does not allow other clouds)" was read as AWS preferred, and the alternatives went
to Spheron, Nebius, GCP and Azure).

The forms: the other clouds refused ("security does not allow other clouds", "other providers are not
allowed", "no other clouds allowed", "we can't use any other cloud", "other vendors are off limits"), or the
named one excepted from a ban ("nothing outside AWS", "we may not use anything but Azure"). The provider
required is the one named in the sentence, else the one the text already named as the team's
(providers_preferred, providers_required, or the cloud the data lives in).

Not required: other clouds allowed or weighed ("other clouds are fine", "we'd consider other providers"),
a fact about the others ("no other cloud has H200s in stock"), or a ban with no provider named anywhere
(the input's accounting names it as a constraint not understood).
"""

from __future__ import annotations

import re

from advisor.extract.rules_ctx import Ctx, I
from advisor.extract.rules_models import find_providers

_OTHERS = r"(?:clouds?|providers?|vendors?|hyperscalers?|platforms?|csps?)"
_NO_OTHER = re.compile(
    r"\b(?:(?:does|do|did|will|would)\s+not|doesn'?t|don'?t|won'?t|wouldn'?t|never)\s+(?:allow|permit|accept"
    rf"|approve|let\s+us\s+(?:use|go\s+to))\s+(?:us\s+(?:to\s+use\s+)?)?(?:any\s+)?other\s+{_OTHERS}\b"
    rf"|\bno\s+other\s+{_OTHERS}(?:\s+(?:are\s+|is\s+)?(?:allowed|permitted|approved|please)\b|\s*(?=[.,;)]|$))"
    rf"|\b(?:any\s+)?other\s+{_OTHERS}\s+(?:are|is)\s+(?:not\s+(?:allowed|permitted|approved|an\s+option|ok)"
    r"|forbidden|prohibited|banned|off[\s-]limits|out\s+of\s+the\s+question|a\s+no[\s-]go)\b"
    r"|\b(?:can(?:'t|not|\s+not)|may\s+not|must\s+not|(?:are|am)\s*(?:n'?t|\s+not)\s+allowed\s+to|not\s+allowed\s+to)"
    rf"\s+(?:use|go\s+to|touch|move\s+to)\s+(?:any\s+)?other\s+{_OTHERS}\b"
    # the named one excepted: "nothing outside AWS", "not allowed to use anything but Azure"
    r"|\bnothing\s+(?:outside(?:\s+of)?|but|except|other\s+than|beyond)\s+(?=\S)"
    r"|\b(?:can(?:'t|not|\s+not)|may\s+not|must\s+not|not\s+allowed\s+to)\s+use\s+(?:anything|any\s+(?:cloud|provider))\s+"
    r"(?:but|except|other\s+than|besides)\s+(?=\S)",
    I,
)
_TEAM_FIELDS = ("providers_required", "providers_preferred")
_CLOUD_OF_DATA = ("aws", "gcp", "azure")


def rule_other_clouds(ctx: Ctx) -> None:
    """providers_required (and preferred) from a ban on every other provider (module docstring)."""
    for s in ctx.sentences_with(_NO_OTHER):  # a finding needs it to match
        m = _NO_OTHER.search(s.text)
        if m is None:
            continue
        named = [pid for pid, _, _ in find_providers(s.text)]
        if m.group(0).lower().startswith(("nothing", "can", "may", "must", "not")) and m.end() < len(s.text):
            named = [pid for pid, a, _ in find_providers(s.text) if a == m.end()] or named
        if not named:
            named = _team_provider(ctx)
        if not named:
            continue
        said = m.group(0).strip()
        ctx.add(s, "providers_required", list(dict.fromkeys(named)), said, "stated", m.start())
        ctx.add(s, "providers_preferred", list(dict.fromkeys(named)), said, "stated", m.start())


def _team_provider(ctx: Ctx) -> list[str]:
    """The provider the text named as the team's before: its preferred or required providers, or the cloud
    its data lives in."""
    for field in _TEAM_FIELDS:
        for f in reversed(ctx.findings):
            if f.field == field and isinstance(f.value, list) and f.value:
                return [str(v) for v in f.value]
    loc = next((f.value for f in reversed(ctx.findings) if f.field == "data_location"), None)
    return [str(loc)] if loc in _CLOUD_OF_DATA else []
