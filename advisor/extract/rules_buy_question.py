"""A purchase question in the words teams use (expert review 19, R13/P13): buy_asked, and the buy-vs-rent
default horizon when none was said.

"Is it worth buying an 8x H100 server?" was answered "Yes: ... it fits" (a fit check on the cards named)
and "Would buying our own 8x H100 server be cheaper than renting?" was listed as a question left open,
while "buy or rent?" (advisor/extract/rules_horizon.py rule_buy_or_rent_horizon) got its buy-vs-rent
block. A $300k purchase question is the most expensive one a buyer asks; its common forms:
- worth: "is it worth buying 8x H100?", "is buying our own server worth it?", "worth purchasing?";
- cheaper or better than renting: "would buying our own 8x H100 server be cheaper than renting?", "is it
  cheaper to own?", "would owning save us money?", "is purchasing more cost-effective than the cloud?";
- should: "should we buy instead of renting?", "should we just buy our own H100s?", "should we purchase
  a DGX?", "buy or keep renting?" with any words between ("buy an 8x H100 server or keep renting?");
- makes sense or pays off: "does owning make sense for us?", "would it make sense to buy?", "would a
  purchase pay for itself?", "does buying pay off at our usage?";
- weighed: "we're considering buying a server instead of renting", "thinking about purchasing 8 H200s".
Not a purchase question: hardware already bought ("we bought 8 H100s last year": owned, rules_gpus), a
rental product bought ("buy reserved capacity", "buy credits", "purchase a savings plan"), which GPU to buy
once buying is settled ("which GPU should we buy?"), or renting weighed alone ("is it worth renting?").

buy_asked makes the recommender weigh buying against renting (tools.recommend.buy_rent.wanted) and open the
answer with the verdict of that block (tools.recommend.buy_verdict), never with a bare "Yes: it fits".
"""

from __future__ import annotations

import re

from advisor.extract.regex_keys import keyed
from advisor.extract.rules_ctx import QUOTED_PENALTY, Ctx, I, q
from advisor.extract.rules_horizon import BUY_OR_RENT_DEFAULT_HOW
from advisor.extract.rules_purchase_price import _cards_bought
from advisor.extract.rules_text import Sentence
from tools.recommend.buy_rent import DEFAULT_HORIZON_MONTHS

_BUYING = r"(?:buy(?:ing)?|purchas(?:e|ing)|own(?:ing)?|get(?:ting)?\s+our\s+own)"
_RENT = r"(?:rent\w*|leas\w*|(?:the\s+)?cloud|on[\s-]demand|renting)"
_FORMS = keyed(
    # worth: "is it worth buying ...", "is buying our own server worth it", "worth purchasing?"
    r"\bworth\s+(?:it\s+)?(?:to\s+)?(?:buy(?:ing)?|purchas(?:e|ing)|own(?:ing)?|getting\s+our\s+own)\b"
    r"|\b(?:buying|purchasing|owning)\b[^.?!;]{0,60}?\bworth\s+(?:it|the\s+(?:money|investment|cost))\b"
    # cheaper, better, saves money (than renting): "would buying our own ... be cheaper than renting?"
    r"|\b(?:buying|purchasing|owning|getting\s+(?:our|my)\s+own|a\s+purchase)\b[^.?!;]{0,60}?\b(?:cheaper"
    r"|less\s+expensive"
    r"|more\s+cost[\s-]effective|more\s+economical|better\s+value|save\s+(?:us\s+)?(?:money|costs?))\b"
    r"|\b(?:cheaper|less\s+expensive|more\s+cost[\s-]effective|more\s+economical)\s+(?:for\s+us\s+)?to\s+"
    r"(?:buy|own|purchase)\b"
    # should we buy: "should we buy instead of renting?", "should we just buy our own H100s?"
    r"|\bshould\s+(?:we|i)\s+(?:just\s+|rather\s+|instead\s+|now\s+|finally\s+)?(?:buy|purchase|own|invest\s+in)\b"
    r"(?P<should>)"
    # buy ... or (keep) renting, with any words between: "buy an 8x H100 server or keep renting?"
    rf"|\b{_BUYING}\b[^.?!;]{{0,60}}?\b(?:or|vs\.?|versus)\s+(?:just\s+|keep\s+|still\s+|continue\s+(?:to\s+)?"
    rf"|stick\s+(?:to|with)\s+|stay\s+(?:with|on|in)\s+|go\s+on\s+)?{_RENT}\b"
    # makes sense, pays off: "does owning make sense for us?", "would a purchase pay for itself?"
    r"|\b(?:buying|purchasing|owning|a\s+purchase|the\s+purchase)\b[^.?!;]{0,60}?\b(?:make\s+sense"
    r"|makes\s+sense|pays?\s+(?:for\s+)?(?:itself\s+)?off|pay\s+for\s+itself|break\s+even)\b"
    r"|\bmakes?\s+(?:more\s+)?sense\s+(?:for\s+us\s+)?to\s+(?:buy|own|purchase)\b"
    # weighed aloud: "we're considering buying a server instead of renting"
    r"|\b(?:consider(?:ing)?|thinking\s+(?:about|of)|weighing|evaluating|debating|contemplating)\s+"
    r"(?:whether\s+to\s+)?(?:buy(?:ing)?|purchas(?:e|ing)|own(?:ing)?)\b(?P<weighed>)",
    I,
)
# what is bought is a rental, not hardware: "buy reserved capacity", "purchase a savings plan", "buy credits"
_RENTAL_BOUGHT = re.compile(
    r"\s*(?:some\s+|more\s+|a\s+|an\s+|the\s+)?(?:reserved|reservations?|capacity|credits?|spot|savings\s+plans?"
    r"|commit\w*|a\s+commitment|licen[cs]es?|support|subscriptions?|storage|tokens|api|the\s+api|time\s+on"
    r"|hours|a\s+block|capacity\s+blocks?)\b",
    I,
)
# which or what to buy, once buying is settled: "which GPU should we buy?", "what should we purchase?"
_WHICH_BEFORE = re.compile(r"\b(?:which|what)\b[^.?!;,]{0,40}$", I)
# hardware named, or renting weighed, in the sentence: a bare "should we buy?" about hardware
_HARDWARE = keyed(
    r"\b(?:gpus?|cards?|servers?|nodes?|box(?:es)?|hardware|machines?|cluster|rigs?|dgx|hgx|our\s+own"
    r"|(?:[ahlb]\d{2,3}|mi\d{3}|gb\d{3}|gh\d{3}|rtx)\w*|on[\s-]?prem\w*)\b"
    rf"|\b{_RENT}\b",
    I,
)
# a question, or a purchase being weighed: the sentence asks, or says it is wondering
_ASKS = re.compile(r"\?|\b(?:whether|wonder\w*|want\s+to\s+know|not\s+sure|unsure|debat\w*)\b", I)


def buy_question(s: Sentence) -> re.Match[str] | None:
    """The purchase question of sentence `s` (module docstring), or None."""
    t = s.text
    for m in _FORMS.finditer(t):
        if _RENTAL_BOUGHT.match(t, m.end()):
            continue  # "is it worth buying reserved capacity?"
        bare = m.group("should") is not None
        if bare and (_WHICH_BEFORE.search(t[: m.start()]) or _HARDWARE.search(t) is None):
            continue  # "which GPU should we buy?"; "should we buy the book?"
        if m.group("weighed") is None and _ASKS.search(t) is None:
            continue  # a statement: "buying our own would be cheaper, so we will" is no question
        return m
    return None


_OWNED_FIELDS = ("owned_gpu", "owned_gpu_count", "owned_gpus_per_node", "owned_fabric")


def _not_owned(ctx: Ctx, s: Sentence, at: int) -> None:
    """Cards named after the purchase question's words are the ones weighed, not cards had: "should we
    purchase our own DGX H100?" (an owned-hardware rule reads "our own DGX H100"); cards said before it
    stay the team's ("we own 8 A100s; should we buy H100s?")."""
    lo = s.start - (QUOTED_PENALTY if s.quoted else 0)
    start, end = lo + at, lo + len(s.text)
    weighed = [f for f in ctx.findings if f.field in _OWNED_FIELDS and start <= f.position <= end]
    ctx.findings[:] = [f for f in ctx.findings if f not in weighed]


def rule_buy_question(ctx: Ctx) -> None:
    """buy_asked from a purchase question (module docstring); with no horizon said in this text or stated
    before, the default horizon for weighing a purchase (inferred, an estimate the reply names)."""
    for s in ctx.sentences:
        if (m := buy_question(s)) is None:
            continue
        ctx.add(s, "buy_asked", True, q(m), "stated", m.start())
        _not_owned(ctx, s, m.start())
        _cards_bought(ctx, s)  # "would buying our own 8x H100 server be cheaper?": those cards are weighed
        prior = ctx.prior
        # an earlier horizon not assumed (one without provenance, built in code, counts as said)
        said_before = prior is not None and prior.horizon_months is not None
        said_before = said_before and prior is not None and prior.status_of("horizon_months") != "assumed"
        if ctx.has("horizon_months") or said_before:
            return
        ev = f'"{q(m)}": {DEFAULT_HORIZON_MONTHS:g} months, {BUY_OR_RENT_DEFAULT_HOW}'
        ctx.add(s, "horizon_months", DEFAULT_HORIZON_MONTHS, ev, "inferred", m.start(), estimate=True)
        return
