"""Who makes a claim the user reports (claim_source): "My vendor says we need 4x H100 ...", "our CTO thinks
one node will do it in a day", "according to the reseller, 8x H200 is the minimum", "we were told by our
integrator that ...", "a blog post claims 2x 4090 can do it". The reply then answers the claim as theirs
("your vendor's claim: ..."), never as the user's own ("you said": expert review 18, R08).

Read only in a sentence that holds a claim read by the claim rules (claimed_gpu, claimed_gpu_count,
claimed_gpu_bound or claimed_hours) and only for a named reporter before its reporting verb (or after
"according to" / "told by"): "We need 4x H100" (no reporter) and "the vendor has 4x H100 in stock" (no
claim read) set nothing. The value is the reporter as the reply should name them: "my / our vendor" ->
"your vendor", "the reseller" -> "the reseller", "a blog post" -> "a blog post".
"""

from __future__ import annotations

import re

from advisor.extract.regex_keys import keyed
from advisor.extract.rules_ctx import Ctx, I

_CLAIM_FIELDS = frozenset({"claimed_gpu", "claimed_gpu_count", "claimed_gpu_bound", "claimed_hours"})
_WHO = (
    r"(?P<who>vendor|supplier|reseller|integrator|(?:hardware\s+|cloud\s+)?partner|distributor|oem"
    r"|sales\s*(?:rep(?:resentative)?|person|people|team|guy|engineer)|salesperson|account\s+(?:manager|exec\w*)"
    r"|consultants?|contractor|boss|manager|cto|ceo|cfo|cio|vp|director|head\s+of\s+\w+"
    r"|(?:tech\s+|team\s+|ml\s+|ai\s+|engineering\s+)?lead|architect|colleagues?|co-?workers?|teammates?"
    r"|friends?|advis[eo]r|(?:cloud\s+)?provider|it\s+(?:team|department|dept)|procurement|finance"
    r"|blog(?:\s+post)?|article|paper|benchmark|datasheet|quote|someone|somebody|people\s+online)"
)
_OWNER = r"(?P<own>my|our|the|a|an|their|his|her|one\s+of\s+our)\s+(?:[\w-]+\s+){0,2}?"
_VERB = (
    r"(?:says?|said|claims?|claimed|insists?|insisted|thinks?|thought|reckons?|believes?|maintains?|swears?"
    r"|estimates?|estimated|quoted|quotes|recommends?|recommended|suggests?|suggested|proposes?|proposed"
    r"|promised?|assures?|assured|argues?|told\s+(?:us|me)|tells\s+(?:us|me)|expects?|is\s+(?:sure|convinced))"
)
_SOURCES = (
    # "my vendor says", "Our CTO (Dana) thinks", "the reseller, when asked, claimed"
    keyed(rf"\b{_OWNER}{_WHO}\b(?:\s*\([^)]{{0,30}}\))?,?\s+(?:\w+\s+)?{_VERB}\b", I),
    keyed(rf"\baccording\s+to\s+{_OWNER}{_WHO}\b", I),
    keyed(rf"\b(?:told|quoted|advised)\s+by\s+{_OWNER}{_WHO}\b", I),
)
_YOURS = frozenset({"my", "our", "one of our"})
# kept upper-case: "our ML lead", "the IT team", "our CTO"
_ACRONYMS = frozenset({"cto", "ceo", "cfo", "cio", "vp", "oem", "ml", "ai", "it"})


def source_words(m: re.Match[str]) -> str:
    """The reporter as the reply names them: 'my vendor' -> 'your vendor', 'the reseller' as written."""
    own = " ".join(m.group("own").lower().split())
    who = " ".join(w.upper() if w.lower() in _ACRONYMS else w.lower() for w in m.group("who").split())
    return f"your {who}" if own in _YOURS else f"{own} {who}"


def rule_claim_source(ctx: Ctx) -> None:
    """claim_source from the sentence of a claim the claim rules read (module docstring)."""
    claims = [f.position for f in ctx.findings if f.field in _CLAIM_FIELDS]  # once, not once per sentence
    if not claims:
        return
    for s in ctx.sentences_with(*_SOURCES):  # a sentence without a reporter has nothing to read
        end = s.start + len(s.text)
        if not any(s.start <= p <= end for p in claims):
            continue
        for rx in _SOURCES:
            if (m := rx.search(s.text)) is not None:
                ctx.add(s, "claim_source", source_words(m), m.group(0), "stated", m.start())
                return
