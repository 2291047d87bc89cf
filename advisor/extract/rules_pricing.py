"""Pricing rules: the pricing a user rules out ("no spot", "can't deal with preemptions", "reserved only").

`pricing_excluded` lists tools.vocabulary.OptionPricing values: spot, on_demand, reserved, owned. A
negation right before a pricing word excludes it ("no spot instances", "no on-demand"); "X only" or
"only ... X" excludes every other kind ("reserved only": spot, on-demand and owned hardware). Saying
spot was fine ("we used spot before and it was fine") excludes nothing.
"""

from __future__ import annotations

import re

from advisor.extract.rules_ctx import Ctx, Entry, Gated, I, negated, q
from advisor.extract.rules_text import Sentence

_SPOT = r"spot(?![\s-]?check)|pre-?empt(?:ible|able)s?|interruptibles?|low[\s-]priority"
_ON_DEMAND = r"on[\s-]demand|pay[\s-]as[\s-]you[\s-]go|payg"
_RESERVED = (
    r"reserved|reservations?|(?:long[\s-]term\s+)?commit(?:ments?|ted use)"
    r"|(?:long[\s-]term|multi[\s-]year|annual|yearly)\s+contracts?"
)
_KINDS: tuple[tuple[str, str], ...] = (("spot", _SPOT), ("on_demand", _ON_DEMAND), ("reserved", _RESERVED))
_ALL_KINDS: tuple[str, ...] = ("spot", "on_demand", "reserved", "owned")

_NEG = (
    r"(?:no|not|never|without|avoid|zero|can't use|cannot use|can not use|won't use|will not use"
    r"|don't want|do not want|not allowed(?: to use)?|mustn't use|can't rely on"
    # a tender's wording: "shall not use spot", "shall not enter into reserved-capacity commitments"
    r"|(?:must|shall|will|may|should)\s+not\s+(?:use|enter\s+into|rely\s+on|buy|sign\s+(?:up\s+for|for)?)"
    # what the capacity may not be (expert review 10, R11): "it must not be spot", "can't be on spot"
    r"|(?:must\s*not|mustn't|shall\s+not|should\s*not|shouldn't|can't|cannot|can\s+not|could\s*not|couldn't"
    r"|may\s+not)\s+(?:be|run|go)(?:\s+(?:on|in))?"
    r"|cannot rely on|rule out|ruling out|except|anything but|other than"
    # "nothing preemptible", "we can't do spot", "won't go with spot"
    r"|nothing(?=\s+(?:pre-?empt|interrupt|spot\b(?!-)))"
    r"|(?:can't|cannot|can not|won't|will not|don't|do not)\s+(?:do|go\s+(?:with|for)|take)"
    r"|(?:won't|will not|refuses? to|don't|do not) (?:sign|accept|take|buy|approve|commit)"
    r"(?: (?:up )?(?:to|for))?"
    # a negation without its auxiliary, as non-native writers put it (expert review 17, R06): "we not use
    # spot", "we no want spot"; "not need" is left out ("we do not need spot" excludes nothing)
    r"|(?:not|no|never)\s+(?:use|want|accept|allow|take|like)s?"
    # the same in the Spanish and German a bilingual writer mixes in (evals v18): "nada de spot", "sin spot",
    # "kein Spot"
    r"|nada\s+de|sin|kein(?:e|en)?)"
)
_NOUN = (
    r"(?:\s*/\s*[\w-]+)?"  # "interruptible / low-priority VMs"
    r"(?:\s+(?:instances?|capacity|pricing|nodes|gpus|vms|machines|servers|plans?|commitments?))?"
)
_EXCLUDED = {
    kind: Gated(
        re.compile(
            # "not on spot", "never using spot"
            rf"\b{_NEG}[\s-]+(?:(?:on|in|using|with)\s+)?(?:any\s+|the\s+|an?\s+)?(?:(?:\d+[\s-](?:years?|months?)|one[\s-]year|multi[\s-]year"
            rf"|long(?:[\s-]term)?|or|and)\s+){{0,4}}(?:{rx}){_NOUN}\b(?!\s+(?:budget|funds?|money|amount|line)\b)"
            # "pre-emptible (spot) capacity is not permitted": a gloss in brackets
            rf"|\b(?:{rx})(?:\s*\([^()]{{0,20}}\))?{_NOUN}\s+(?:is|are)\s+"
            r"(?:not (?:an option|allowed|permitted|acceptable|ok)"
            r"|out|off the table|a no-go|unacceptable|forbidden|prohibited|banned|disallowed"
            r"|not permitted)\b"
            # the kind first, then the refusal (evals v16): "Spot instances we do not want."
            rf"|\b(?:{rx}){_NOUN}\s+(?:we|i)\s+(?:really\s+)?(?:do\s+not|don'?t|won'?t|will\s+not|cannot|can'?t)\s+"
            r"(?:want|use|accept|take|do)\b(?![^.;]{0,20}\bbut\b)"
            # a key and its answer: "Spot: no", "spot's a no from security", "spot ❌" (rd12)
            rf"|\b(?:{rx}){_NOUN}(?:(?:\s*[:\u2013\u2014-]\s*|'s\s+a\s+)(?:no\b(?=\s*(?:[,.;:)!?]|$)|\s+(?:from|for|by|per)\b)|not\s+(?:ok|allowed)\b)"
            r"|\s*:?\s*[❌✗✘🚫⛔])",
            I,
        ),
        *keys,
    )
    for (kind, rx), keys in zip(
        _KINDS,
        (("spot", "empt", "interrupt", "priority"), ("demand", "pay"), ("reserv", "commit", "contract")),
        strict=True,
    )
}
# preemptions the user cannot absorb: spot is out whatever it is called
_NO_PREEMPTION = Gated(
    re.compile(
        r"\b(?:can't|cannot|can not|won't|don't|do not|unable to|couldn't)\s+(?:\w+\s+)?(?:deal with|handle"
        r"|tolerate|afford|accept|live with|risk|survive|cope with)\s+(?:\w+\s+){0,2}?(?:pre-?emptions?"
        r"|interruptions?|evictions?|being (?:pre-?empted|interrupted|evicted))\b"
        r"|\b(?:must|can)(?:\s+not|n't)\s+be\s+(?:pre-?empted|interrupted|evicted)\b"
        r"|\bno\s+(?:pre-?emptions?|interruptions?|evictions?)\b"
        r"|\b(?:pre-?emptions?|interruptions?) (?:is|are) (?:not (?:acceptable|an option|ok)|unacceptable"
        r"|a no-go)\b",
        I,
    ),
    "empt",
    "interrupt",
    "evict",
)
_ONLY = {
    kind: Gated(
        re.compile(
            rf"\b(?:{rx}){_NOUN}[\s-]only\b|\bonly\s+(?:\w+\s+){{0,2}}?(?:{rx})\b"
            rf"|\bnothing\s+(?:but|except|other\s+than)\s+(?:{rx})\b",
            I,
        ),
        *keys,
    )
    for (kind, rx), keys in zip(_KINDS, (("spot",), ("demand", "pay"), ("reserv",)), strict=True)
}


# renting on a reservation the team means to sign: "on a 1-year reservation", "a 1-year reserved setup",
# "we'll go with a 1-year reservation" (reserved only); said as a permission ("reserved instances for 1 year
# are fine", "open to a 1-year reservation") it rules nothing out. A reservation the team already holds is
# its own capacity (advisor/extract/rules_reservation.py), not a pricing wish.
_TERM = r"(?:\d+|one|two|three|a)[\s-](?:years?|yrs?|months?)"
_RESERVE_INTENT = Gated(
    re.compile(
        rf"\bon\s+an?\s+{_TERM}\s+(?:reservation|commitment|reserved\s+(?:term|plan|contract|instances?"
        rf"|capacity))\b"
        rf"|\b{_TERM}\s+reserved\s+(?:set-?up|instances?|capacity|pricing|plan|deal|term|contract|nodes?"
        rf"|gpus?)\b"
        rf"|\b(?:we(?:'ll|\s+will|\s+plan\s+to|\s+want\s+to|'d|\s+would)|go(?:ing)?\s+with|sign(?:ing)?)\s+"
        rf"(?:an?\s+)?(?:reserve|{_TERM}\s+(?:reservation|commitment))\b",
        I,
    ),
    "reserv",
    "commit",
)
_PERMISSION = re.compile(
    r"^[^.;]{0,40}?\b(?:are|is|would\s+be|'d\s+be)\s+(?:also\s+)?(?:fine|ok|okay|acceptable|an\s+option"
    r"|possible)\b",
    I,
)
_PERMISSION_BEFORE = re.compile(
    r"\b(?:open\s+to|happy\s+(?:to|with)|fine\s+with|ok(?:ay)?\s+with|could|might|maybe|or|if)\s+"
    r"(?:\w+\s+){0,3}$",
    I,
)


def _reserve_intent(ctx: Ctx) -> None:
    """pricing_excluded for a reservation the team means to sign (above): every kind but reserved."""
    if ctx.has("owned_reserved"):
        return
    for s in ctx.sentences_with(_RESERVE_INTENT):
        t = s.text
        m = _RESERVE_INTENT.search(t)
        if m is None or _PERMISSION.match(t[m.end() :]) or _PERMISSION_BEFORE.search(t, 0, m.start()):
            continue
        if negated(t, m.start()):
            continue  # "not on a 1-year reservation": read by the exclusion rule
        others = [k for k in _ALL_KINDS if k != "reserved"]
        ctx.add(s, "pricing_excluded", others, f'"{q(m)}" -> reserved pricing only', "inferred", m.start())
        return


_BUT_WORD = re.compile(r"(?:except|anything but|other than)\b", I)
# a negation just before "anything but" / "other than" / "except": a double negative, the kind is the only one
_NEGATED_BEFORE = re.compile(
    r"\b(?:can'?t|cannot|can not|won'?t|mustn'?t|not allowed to|may not|don'?t|nothing|no)\b[^.;,]{0,25}$", I
)


# the same negation carried over a list: "no spot or reserved", "not on spot or on reserved", "no spot nor
# on-demand"; not to a kind kept ("no spot, and on-demand only", "no reserved, or spot is fine")
_LIST_NEXT = {
    kind: re.compile(
        rf",?\s*(?:/|\bor\b|\bnor\b|\band\b)\s*(?:(?:on|in)\s+)?(?:{rx}){_NOUN}\b"
        r"(?![\s-]+only\b|\s+(?:is|are)\s+(?:fine|ok|okay|acceptable))",
        I,
    )
    for kind, rx in _KINDS
}


def _listed_after(ctx: Ctx, s: Sentence, excluded: str, end: int) -> None:
    """pricing_excluded for the kinds listed right after an excluded one (the negation carries over)."""
    for kind, rx in _LIST_NEXT.items():
        if kind != excluded and (m := rx.match(s.text, end)) is not None:
            ctx.add(s, "pricing_excluded", [kind], q(m).lstrip(" ,/"), "stated", m.start())
            _listed_after(ctx, s, kind, m.end())
            return


# the exclusion taken back as soft in the same sentence: "We'd rather avoid spot, ..., but it's not a hard
# no", "no spot ideally, not a must"
_SOFTENED = re.compile(
    r"\b(?:not\s+a\s+(?:hard|strict|firm)\s+(?:no|rule|requirement|constraint|line)|not\s+a\s+(?:must"
    r"|deal[\s-]?breaker|blocker|requirement)|not\s+(?:strictly\s+)?(?:mandatory|required)|not\s+strict)\b",
    I,
)


# spot welcomed (expert review 8, R20: "We're fine with spot for this one", "Can spot help?" were unused):
# "fine with spot", "spot is OK", "happy to use preemptible", "we can live with spot"; a question whether
# spot helps asks to weigh it (inferred). Not "we used spot before and it was fine" (a past run).
_SPOT_OK = re.compile(
    rf"\b(?:fine|ok(?:ay)?|happy|comfortable|good|cool)\s+(?:with|to\s+(?:use|go\s+with))\s+(?:using\s+)?(?:{_SPOT})"
    rf"|\b(?:{_SPOT}){_NOUN}\s+(?:is|are|would\s+be)\s+(?:totally\s+|perfectly\s+)?(?:fine|ok(?:ay)?|acceptable"
    # "Spot instances is no problem, we save checkpoint" (evals v16)
    rf"|allowed|welcome|(?:really\s+)?no\s+(?:problem|issue)|not\s+(?:a\s+problem|an\s+issue))\b"
    r"(?!\s+for\s+(?:them|others|him|her|other\s+teams?)\b)"
    rf"|\b(?:can|could)\s+(?:use|live\s+with|tolerate|handle)\s+(?:{_SPOT})"
    # the kind and its verdict with no verb (evals v18): "Spot OK.", "still spot OK", "Spot / Preemptible |
    # allowed", "Spot can, no problem" (Malaysian English), "Spot is lekker" (South African: good); not a
    # question ("spot acceptable?")
    rf"|\b(?:{_SPOT}){_NOUN}(?:\s*[:|=\u2013\u2014-]\s*|\s+(?:is|are)\s+|\s+)(?:ok(?:ay)?|fine|allowed|acceptable"
    r"|permitted|zulässig|erlaubt|lekker|can(?=\s*[,.;!]|\s*$))\b(?!\s*\?)",
    I,
)
_SPOT_HELP = re.compile(rf"\b(?:can|could|would|does|will)\s+(?:{_SPOT}){_NOUN}\s+help\b", I)


def _spot_ok(ctx: Ctx, s: Sentence) -> None:
    """spot_ok from a sentence that welcomes spot capacity (not negated, not a past run)."""
    t = s.text
    if (m := _SPOT_OK.search(t)) is not None and not negated(t, m.start()) and not _PAST.search(t) and not (
        _EXCLUDED["spot"].search(t)  # "spot OK for this rule only; the cpt rule must NOT run on spot": whose?
    ):
        ctx.add(s, "spot_ok", True, q(m), "stated", m.start())
    elif (h := _SPOT_HELP.search(t)) is not None:
        ctx.add(s, "spot_ok", True, f'"{q(h)}": spot weighed as asked', "inferred", h.start())


_PAST = re.compile(r"\b(?:before|last\s+(?:time|year|run)|previously|used\s+to)\b", I)


# on-demand asked for as the kind of the set-up ("Cheapest on-demand setup with US providers?", expert review
# 16, R10): on-demand pricing only, as "on-demand only" reads
_ON_DEMAND_ASKED = Gated(
    re.compile(
        r"\b(?:cheapest|best|fastest|an?|the|which|what)\s+on[\s-]?demand\s+(?:set[\s-]?ups?|options?"
        r"|instances?|clusters?|config(?:uration)?s?|deployments?|rentals?)\b",
        I,
    ),
    "demand",
)


def rule_pricing(ctx: Ctx) -> None:
    """pricing_excluded: the kinds each sentence rules out, with the words as evidence; spot_ok."""
    _reserve_intent(ctx)
    # each step below needs one of these to match the sentence (or a slice of it)
    entries: tuple[Entry, ...] = (_SPOT_OK, _SPOT_HELP, *_EXCLUDED.values(), _NO_PREEMPTION, *_ONLY.values())
    entries += (_ON_DEMAND_ASKED,)
    for s in ctx.sentences_with(*entries):
        t = s.text
        _spot_ok(ctx, s)
        for kind, rx in _EXCLUDED.items():
            for m in rx.finditer(t):
                if _BUT_WORD.match(m.group(0)) and _NEGATED_BEFORE.search(t, 0, m.start()):
                    # "we can't use anything other than spot", "nothing but spot": that kind only
                    others = [k for k in _ALL_KINDS if k != kind]
                    ctx.add(s, "pricing_excluded", others, q(m), "stated", m.start())
                    continue
                if _SOFTENED.search(t, m.end()):
                    continue  # a wish, not a rule out
                ctx.add(s, "pricing_excluded", [kind], q(m), "stated", m.start())
                _listed_after(ctx, s, kind, m.end())
        pre = _NO_PREEMPTION.search(t)
        if pre:
            ev = f'"{q(pre)}" -> no spot (preemptible) capacity'
            ctx.add(s, "pricing_excluded", ["spot"], ev, "inferred", pre.start())
        for kind, rx in _ONLY.items():
            only = rx.search(t)
            if only:
                others = [k for k in _ALL_KINDS if k != kind]
                ctx.add(s, "pricing_excluded", others, q(only), "stated", only.start())
        if (asked := _ON_DEMAND_ASKED.search(t)) is not None and not _ONLY["on_demand"].search(t):
            others = [k for k in _ALL_KINDS if k != "on_demand"]
            ev = f'"{q(asked)}" -> on-demand pricing only'
            ctx.add(s, "pricing_excluded", others, ev, "inferred", asked.start())
