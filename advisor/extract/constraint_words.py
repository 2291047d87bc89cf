"""Words that state a constraint on the pick by themselves, grouped by the fact they state, for the input's
accounting (advisor/extract/accounting.py, issue 12: a clause with a policy word is never dropped silently).

A policy word alone ("must", "only", "no") is a modifier: beside a fact it is part of the phrase the fact
was read from ("Data [must stay within the EU]"). The words here name the fact itself: where the data may
be (EU, Germany, eu-central-1), how capacity is bought (spot, on-demand, reserved), where the hardware runs
(on-prem, air-gapped) and by when the work is due ("by Friday", "end of the month"). Such a word left
uncovered by every finding of a clause that gave other facts is a fact nobody read ("fine-tune Mistral 7B
on 20M tokens with data staying in Germany": the model and tokens were read, the residency was not), so it
is listed as not used. Synonyms of one fact form a class: "EU only (Germany preferred)" read as eu_only
has read the class, and "Germany" is not listed again.

Vocabulary sources: the profile's constraint fields (tools/profile.py: eu_only, pricing_excluded,
deployment_preference, deadline_hours), the region names of the providers' own docs (AWS "eu-central-1",
GCP "europe-west4", Azure "westeurope": https://docs.aws.amazon.com/global-infrastructure/latest/regions/
aws-regions.html, https://cloud.google.com/compute/docs/regions-zones, read 2026-11-27) and the dev eval
sets' wording (evals/cases*, "nothing reserved", "stay in GCP", "no later than the 25th").
"""

from __future__ import annotations

import re

from advisor.extract.regex_keys import keyed

I = re.I  # noqa: E741

# class -> words; the class names are internal (dedupe of synonyms within one clause)
_CLASSES: dict[str, str] = {
    "location": (
        # country and region names, not their adjectives: "German", "French", "Dutch" are mostly languages
        # ("translate into German"), unless they qualify infrastructure ("German data centres")
        # a region code first, so "eu-central-1" is one word, not "eu"
        r"\b(?:eu|us|ap|ca|me|sa|af|il|europe|asia|northamerica|southamerica|australia)-[a-z]+-?\d\b|"
        r"\b(?:eu|eea|e\.u\.|europe|european|gdpr|schrems|germany|deutschland|france|ireland|netherlands|"
        r"sweden|finland|switzerland|uk|britain|nordics?|in[- ]country|in[- ]region|onshore|offshore|"
        r"cross[- ]border|"
        r"data[- ](?:residency|sovereignty|locality)|residen(?:cy|t)|sovereign(?:ty)?|jurisdiction)\b"
        r"|\b(?:german|french|dutch|swiss|irish|british|nordic|american)[- ]"
        r"(?:data[- ]?cent(?:er|re)s?|dcs?|regions?|clouds?|providers?|hosters?|hosting|soil|infrastructure|"
        r"servers?|jurisdiction|law)\b"
        r"|\b(?:west|north|central|east)(?:europe|us)\d?\b"
    ),
    "interruptible": r"\b(?:spot|pre-?empt(?:ible|ed|ions?)?|interrupt(?:ible|ed|ions?)|"
    r"evict(?:ed|ions?|able)|low[- ]priority)\b",
    "on_demand": r"\bon[- ]?demand\b|\bpay[- ]as[- ]you[- ]go\b|\bpayg\b",
    "reserved": r"\b(?:reserved|reservations?|committed[- ]use|commitments?|savings[- ]plans?|"
    r"\d[- ]?(?:yr|year)[- ](?:term|commit|deal))\b",
    # a certification the provider must hold (a provider filter the profile has no field for)
    "compliance": r"\b(?:soc ?2|hipaa|baa|iso ?27001|fedramp|bsi c5|c5 attestation|pci[- ]dss|itar|hds|"
    r"tisax|ens high)\b",
    "on_prem": r"\b(?:on[- ]?prem(?:ise|ises)?|air[- ]?gapped|in[- ]house (?:hardware|servers?|cluster)|"
    r"our own (?:hardware|servers?|cluster|data ?cent(?:er|re))|"
    r"(?:hardware|servers?|gpus|machines|boxes) (?:that )?we (?:physically )?own)\b",
    "deadline": (
        r"\b(?:by|before|until|till|til|due|no later than|latest)\s+(?:(?:next|this|the|end of)\s+)?"
        r"(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?\b"
        r"|\bend of (?:the |this |next )?(?:day|week|month|quarter|year|sprint|q[1-4])\b"
        r"|\b(?:by |before )?(?:tomorrow|tmrw|tonight|eod|eow|eom|asap)\b"
        # an event as the due date ("before the Christmas code freeze", "by launch")
        r"|\b(?:by|before|until|ahead of)\s+(?:the\s+|our\s+)?(?:christmas|xmas|new year|thanksgiving|easter|"
        r"holidays?|launch|go[- ]live|code freeze|release|demo|conference|board meeting)\b"
    ),
}
# the cities providers name their regions after ("AWS Frankfurt"), not after a postcode ("75004 Paris"); not
# in a heading or signature line ("Data team, Madrid")
_CITY = (
    r"(?<!\d\s)(?<!\d)\b(?:frankfurt|paris|dublin|amsterdam|stockholm|zurich|london|milan|madrid|warsaw|"
    r"oslo|helsinki)\b"
)
_CLASSES["location"] += "|" + _CITY
_CLASS_RE = {name: re.compile(pattern, I) for name, pattern in _CLASSES.items()}
# "US" and "U.S." only in capitals ("us" is a pronoun); "US-only", "US region", "in the US"
_US = re.compile(r"(?<![\w.])(?:US|USA|U\.S\.(?:A\.)?)(?![\w])")
_ALL = keyed("|".join(f"(?:{p})" for p in _CLASSES.values()), I)
_CITY_RE = re.compile(_CITY, I)
# the negations and scopes a policy is written with, beyond accounting.py's _POLICY words
_NEGATION = keyed(
    # a bare "nothing", "neither", "without" is as often a shrug ("nothing huge", "without breaking the
    # bank"): only the policy forms
    r"\bnothing (?:\w+ )?(?:leaves?|else|outside|off[- ]site|overnight)\b|\b(?:except|exclusively|banned?|"
    r"off the table|out of the question|no[- ]go|deal[- ]?breaker|unless)\b",
    I,
)
# an unused clause only: how it is to be hosted ("so managed or simple setups preferred") and the
# obligation "has to" ("trained on hardware we own"); beside a read fact they are part of its phrase
_DEPLOYMENT_OR_DUTY = keyed(
    r"\b(?:managed (?:services?|endpoints?|offerings?|inference|platforms?|setups?|or)|serverless|"
    r"bare[- ]metal|colo(?:cation)?|self[- ]host(?:ed|ing)?|ha(?:s|ve) to)\b",
    I,
)
_DEADLINE_NOUN = keyed(r"\b(?:deadlines?|due date|hard stop|cut-?off date)\b", I)
# "nothing fancy", "none yet": a shrug, not a policy
_SHRUG = re.compile(r"\b(?:nothing (?:fancy|special|urgent|else to add|much)|none (?:yet|so far))\b", I)


def topic_class(text: str) -> str | None:
    """The class of the first constraint word in `text` ("spot" -> "interruptible"), or None."""
    best: tuple[int, str] | None = None
    for name, pattern in _CLASS_RE.items():
        m = pattern.search(text)
        if m and (best is None or m.start() < best[0]):
            best = (m.start(), name)
    us = _US.search(text)
    if us and (best is None or us.start() < best[0]):
        best = (us.start(), "location")
    return best[1] if best else None


def topic_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of every constraint word in `text`, sorted."""
    found = [(m.start(), m.end()) for m in _ALL.finditer(text)]
    found += [(m.start(), m.end()) for m in _US.finditer(text)]
    return sorted(found)


def classes_in(text: str) -> set[str]:
    """Every class named in `text` (the words a clause's findings already covered)."""
    out = {name for name, pattern in _CLASS_RE.items() if pattern.search(text)}
    if _US.search(text):
        out.add("location")
    return out


def states_constraint(text: str, heading: bool = False) -> bool:
    """Whether an unused clause states a constraint beyond accounting's policy words: a constraint word
    ("Spot OK", "data stays in Frankfurt", "by Friday"), a policy negation ("nothing leaves the building")
    or, unless the clause is a heading ("## Deadline"), the deadline itself named ("deadline got pulled
    in"; beside a read date the noun is part of its phrase, so it is no leftover signal)."""
    words = [m.group() for m in _ALL.finditer(text)]
    if _US.search(text) or (words and not (heading and all(_CITY_RE.fullmatch(w) for w in words))):
        return True
    if not heading and (_DEADLINE_NOUN.search(text) or _DEPLOYMENT_OR_DUTY.search(text)):
        return True
    return bool(_NEGATION.search(text)) and not _SHRUG.search(text)


SENTENCE_CHARS = 400  # how far a clause's sentence is looked for, each side
_SENTENCE_ENDS = ".!?\n"


def sentence_bounds(text: str, start: int, end: int) -> tuple[int, int]:
    """(lo, hi) of the sentence around text[start:end]: from after the last ".", "!", "?" or line break
    before it to the first after it, at most SENTENCE_CHARS each side."""
    floor = max(0, start - SENTENCE_CHARS)
    lo = max(floor, *(text.rfind(ch, floor, start) + 1 for ch in _SENTENCE_ENDS))
    ends = [e for ch in _SENTENCE_ENDS if (e := text.find(ch, end, end + SENTENCE_CHARS)) >= 0]
    return lo, min(ends, default=min(len(text), end + SENTENCE_CHARS))
