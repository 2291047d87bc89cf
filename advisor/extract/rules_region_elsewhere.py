"""Where the hardware must be, outside the US and the EU (region_asked), and whether bought hardware would be
colocated (colocation); expert review 18.

- R19 "Need inference for Llama 3.1 8B hosted in Japan (users in Tokyo, latency matters)" was dropped
  silently, and P19b "Must be hosted in Asia (Tokyo region)" was listed as not understood. The forms: a
  verb or noun that places the GPUs, then the place ("hosted in Japan", "servers located in Singapore",
  "must run in India", "deploy it within Australia"), the place before a region word ("Tokyo region",
  "an APAC region", "Japanese data centre"), or residency ("data must stay in Japan"). The value is the
  place as written ("Japan", "Tokyo"); tools/recommend/regions.py says what the catalog knows of it.
  Not read: where people are ("users in Tokyo", "our team is based in Seoul"), a negation ("not in
  Japan"), the US and the EU (us_only, eu_only).
- P06 "We have no data centre, we would need colocation": the buy side's TCO left out colocation. The
  forms: colocation named as what the team would use ("we'd need colocation", "we'd colocate it", "in a
  colo", "rent rack space"), or a team with no facility of its own ("we have no data centre", "we don't
  have a server room"). Not read: colocation refused ("no colocation", "we don't want colo").
"""

from __future__ import annotations

import re

from advisor.extract.regex_keys import keyed
from advisor.extract.rules_ctx import Ctx, I, negated, q

# places outside the US and the EU a provider may have data centres in (countries, cities, regions)
_PLACES = (
    r"japan|tokyo|osaka|korea|south\s+korea|seoul|singapore|india|mumbai|bangalore|bengaluru|chennai|hyderabad"
    r"|delhi|australia|sydney|melbourne|asia|apac|asia[\s-]pacific|southeast\s+asia|hong\s+kong|taiwan|taipei"
    r"|indonesia|jakarta|malaysia|thailand|bangkok|vietnam|philippines|china|uae|dubai|abu\s+dhabi|saudi\s+arabia"
    r"|riyadh|qatar|middle\s+east|israel|tel\s+aviv|south\s+africa|johannesburg|brazil|s[aã]o\s+paulo|mexico"
    r"|canada|toronto|montreal|new\s+zealand|auckland|switzerland|zurich|norway|oslo|uk|united\s+kingdom|london"
)
_ADJECTIVES = {
    "japanese": "Japan", "korean": "South Korea", "indian": "India", "australian": "Australia",
    "singaporean": "Singapore", "canadian": "Canada", "brazilian": "Brazil", "swiss": "Switzerland",
    "norwegian": "Norway", "british": "UK", "asian": "Asia",
}  # fmt: skip
_PLACE_RE = rf"(?P<place>{_PLACES})"
_ELSEWHERE = keyed(
    # a verb that places the GPUs (or the model, the service), then the place
    r"\b(?:host(?:ed|ing)?|locat(?:ed|ion)|deploy(?:ed|ing)?|run(?:s|ning)?|serv(?:ed|ing)|provision(?:ed)?"
    r"|servers?|gpus?|nodes?|instances?|capacity|compute|data\s+(?:must|has\s+to|needs\s+to|should)\s+(?:stay|remain)"
    r"|(?:stay|remain|reside|kept|keep\s+it|live)s?)\b"
    rf"(?:\s+(?!(?:and|but|or)\b)[\w-]+){{0,3}}?\s+(?:in|within|inside)\s+(?:the\s+)?{_PLACE_RE}\b"
    # the place before a region word: "Tokyo region", "an APAC region", "Japan-based hosting"
    # (not "Sydney DC" nor "our Tokyo data centre": where hardware already is, an inventory's column)
    rf"|\b(?P<place2>{_PLACES})[\s-]+(?:region|based\s+(?:hosting|servers?|gpus?|capacity)|hosting|only)\b"
    rf"|\b(?P<adj>{'|'.join(_ADJECTIVES)})\s+(?:region|hosting|cloud\s+region)\b",
    I,
)
# where the team's own machines are: "our 4 servers are in Sydney", "we have 2 nodes located in Tokyo"
_OWN_BEFORE = re.compile(r"\b(?:our|my|we\s+(?:have|own|run))\s+(?:[\w-]+\s+){0,3}$", I)
_NOT_HERE = re.compile(r"(?:\b(?:not|never|outside|except|excluding|anywhere\s+but)\b|n't\b)[^.;]{0,25}$", I)

_COLO = keyed(
    r"\b(?:(?:we|i)(?:'d|\s+would|'ll|\s+will)?\s+(?:need|have|want|plan|use|go\s+with|rent)\s+(?:to\s+(?:use|rent|find)\s+)?"
    r"(?:a\s+|some\s+)?(?:colocation|co-location|colo)\b"
    r"|(?:we|i)(?:'d|\s+would|'ll|\s+will)?\s+(?:colocate|co-locate)\b"
    r"|\bin\s+(?:a\s+)?(?:colocation|co-location|colo)(?:\s+(?:facility|centre|center|site|space|provider))?\b"
    r"|\brent(?:ing)?\s+(?:some\s+)?rack\s+space\b"
    r"|\b(?:we|i)\s+(?:have|own|run)\s+no\s+(?:own\s+)?(?:data\s*cent(?:er|re)|dc|server\s+room)\b"
    r"|\b(?:we|i)\s+(?:do\s+not|don'?t)\s+(?:have|own|run)\s+(?:an?\s+|our\s+own\s+)?(?:data\s*cent(?:er|re)|dc"
    r"|server\s+room)\b)",
    I,
)
_REFUSED = re.compile(r"\b(?:no|not|never|without|don'?t\s+want|won'?t)\s+(?:\w+\s+){0,2}$", I)


def rule_region_elsewhere(ctx: Ctx) -> None:
    """region_asked from a place outside the US and the EU said as where the GPUs must be."""
    if ctx.has("region_asked"):
        return
    for s in ctx.sentences_with(_ELSEWHERE):  # a finding needs it to match
        for m in _ELSEWHERE.finditer(s.text):
            before = s.text[max(0, m.start() - 30) : m.start()]
            if _NOT_HERE.search(s.text[max(0, m.start() - 30) : m.start() + 1]) or _OWN_BEFORE.search(before):
                continue  # "anywhere but Japan"; "our servers are in Sydney" (where owned hardware is)
            if m.group("adj"):
                place = _ADJECTIVES[m.group("adj").lower()]
            else:
                said = " ".join((m.group("place") or m.group("place2")).split())
                place = said.upper() if said.lower() in ("uk", "uae", "apac") else said.title()
            ev = f'"{q(m)}": the GPUs\' place, outside the US and the EU'
            ctx.add(s, "region_asked", place, ev, "stated", m.start())
            return


def rule_colocation(ctx: Ctx) -> None:
    """colocation True from colocation named as the team's, or a team with no data centre of its own (each
    clause that says so, so "We have no data centre, we would need colocation" is read whole)."""
    for s in ctx.sentences_with(_COLO):  # a finding needs it to match
        for m in _COLO.finditer(s.text):
            low = m.group(0).lower()
            refused = _REFUSED.search(s.text, max(0, m.start() - 25), m.start()) is not None
            if negated(s.text, m.start()) or (refused and not low.startswith(("we", "i "))):
                continue  # "no colocation", "we don't want to be in a colo"
            facility = "no " in low or "don" in low or "do not" in low
            ev = f'"{q(m)}": hardware bought would be hosted in a colocation facility' if facility else q(m)
            ctx.add(s, "colocation", True, ev, "inferred" if facility else "stated", m.start())
