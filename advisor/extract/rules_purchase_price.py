"""A price the user states for hardware they weigh buying (purchase_usd_per_gpu).

"Should we buy an 8x H100 server (~$250k) or rent?" (expert review 7, R20: the $250k was read as a budget
and the catalog's $312,000 used as the purchase instead): the amount said with the machine to buy is its
price, server included, so the buy-vs-rent timeline starts from it (tools/recommend/purchase.py). Read as
price / GPUs in the machine. Said as "buy an 8x H100 server (~$250k)", "an 8x H100 box for ~$250k, buy
or rent?", "a quote of $250k for an 8x H100 node", "the 8x H100 server costs $250k". Not a budget for
renting ("we have $250k for 8x H100 rentals"), nor a rate ("8x H100 at $2.50/h").
"""

from __future__ import annotations

import re

from advisor.extract import units_text as U
from advisor.extract.regex_keys import keyed
from advisor.extract.rules_claims import _claim_hardware
from advisor.extract.rules_ctx import QUOTED_PENALTY, Ctx, I
from advisor.extract.rules_fleet import machine_gpus
from advisor.extract.rules_models import GPU_RE, resolve_gpu
from advisor.extract.rules_money_time import _CUR_SYM, _CUR_WORD, _MONEY, _RATE
from advisor.extract.rules_text import MULTIPLIERS, NUMBER, Sentence, parse_money, parse_number

_GPUS = r"(?P<count>" + NUMBER + r")\s*(?:x|×)\s*(?P<gpu>[a-z]?\d{2,4}[a-z]?(?:\s?(?:sxm|pcie|nvl))?)"
_MACHINE = r"(?:\s+(?:server|node|box|system|machine|chassis|rig))?"
_BUY = (
    r"\b(?:buy(?:ing)?|purchas(?:e|ing)|order(?:ing)?|get(?:ting)?\s+our\s+own)\s+(?:an?\s+|one\s+|the\s+)?"
)
# the machine to buy, then its price: "buy an 8x H100 server (~$250k)", "buy 8x H100 for about $250k"
_BUY_THEN_PRICE = keyed(
    _BUY + _GPUS + _MACHINE + r"\s*(?:\(\s*|,\s*|for\s+|at\s+)?(?:about\s+|around\s+|roughly\s+|~\s*|≈\s*)?",
    I,
)
# the machine with a price verb: "an 8x H100 box for ~$250k, buy or rent?", "the 8x H100 server costs $250k"
_PRICED = keyed(
    r"\b" + _GPUS + _MACHINE + r"\s+(?:costs?|is|for|at|quoted\s+at|priced\s+at|runs)\s+"
    r"(?:about\s+|around\s+|roughly\s+|~\s*|≈\s*)?",
    I,
)
_QUOTE_OF = keyed(r"\bquote(?:d)?\s+(?:of\s+|for\s+)?(?:about\s+|~\s*)?", I)
_FOR_GPUS = keyed(r"\s+for\s+(?:an?\s+|one\s+|the\s+)?" + _GPUS, I)
_BUY_WORD = keyed(r"\b(?:buy\w*|purchas\w*|own(?:ing)?|capex|quote\w*)\b", I)
# a system bought by name, its price said later in the sentence (evals v16): "buy a DGX B200; the quote we got
# is $515,000 for the system (8 GPUs)", "purchasing an HGX H200 box, vendor quote $390k", "buy a 4x L40S
# server; it costs $60,000". A DGX or HGX system with no count said holds 8 GPUs.
_SYSTEM_GPUS = 8  # NVIDIA DGX B200, DGX H100/H200, DGX A100 and HGX 8-GPU datasheets: 8 GPUs per system
_BUY_SYSTEM = keyed(
    _BUY + r"(?:(?:nvidia\s+)?(?P<sys>dgx|hgx)[\s-]+(?P<sgpu>[a-z]\d{3}[a-z]?)\b|" + _GPUS + _MACHINE + r")",
    I,
)
_PRICE_CUE = re.compile(
    r"\b(?:quote[ds]?|quotation|costs?|priced|price(?:\s+tag)?|list\s+price)\b[^.;!?$€£\d]{0,30}$", I
)
_COUNT_AFTER = re.compile(r"^[^.;!?\d]{0,30}?\(?\s*(?P<n>\d{1,3})\s*(?:x\s*)?gpus?\b", I)


# a budget for buying hardware once: "Capex budget EUR 250k" (expert review 7, R02: it was compared with one
# month of serving), "capital expenditure of $300k", "hardware budget: $200k", "one-off budget of EUR 250k"
_CAPEX = keyed(
    r"\b(?:capex|cap-ex|capital\s+(?:expenditure|budget|spend)|hardware\s+(?:purchase\s+)?budget"
    r"|purchase\s+budget|one[\s-](?:off|time)\s+(?:budget|purchase|spend|investment))\b",
    I,
)


def rule_capex_budget(ctx: Ctx) -> None:
    """budget_capex (and the on-premises deployment it buys, inferred) from a budget said as capex."""
    budgets = [f for f in ctx.findings if f.field == "budget_usd"]
    for s in ctx.sentences_with(_CAPEX):  # a finding needs it to match
        if (m := _CAPEX.search(s.text)) is None:
            continue
        end = s.start + len(s.text)
        if not any(s.start - QUOTED_PENALTY <= f.position <= end for f in budgets):
            continue
        ev = f'"{m.group(0)}": a one-off purchase, not a monthly spend'
        ctx.add(s, "budget_capex", True, ev, "inferred", m.start())
        if not ctx.has("deployment_preference"):
            ev = f'"{m.group(0)}": a capital budget buys hardware to run on premises'
            ctx.add(s, "deployment_preference", "on_prem", ev, "inferred", m.start())
        return


# a switch to buying asked as a what-if (expert review 10, R19 turn 3): "What if we buy the GPUs instead of
# renting?", "how about buying our own instead?", "instead of renting, what if we bought them?" asks for the
# purchase to be sized, where "buy or rent?" weighs both (the recommender then shows both)
_BUY_INSTEAD = keyed(
    r"\b(?:what\s+if|how\s+about|and\s+if|suppose|say)\s+(?:we\s+)?(?:just\s+)?"
    r"(?:buy|bought|buying|purchas\w+|owned)\b[^.?!]{0,40}?\binstead\b(?!\s+of\s+buy)"
    r"|\binstead\s+of\s+rent\w*,?\s+(?:what\s+if\s+|how\s+about\s+)?(?:we\s+)?(?:buy|bought|buying|purchas\w+)\b"
    # the purchase of counted cards asked as a what-if without "instead" (expert review 18, R17 in other
    # words): "what if we bought 16 H100s?", "suppose we purchase our own 2x 8 H200 nodes", "how about buying
    # 8 B200s outright"; not a rental bought: "what if we buy reserved capacity / spot / credits"
    r"|\b(?:what\s+if|how\s+about|and\s+if|suppose|say)\s+(?:we\s+)?(?:just\s+|instead\s+)?(?:buy|bought|buying"
    r"|purchas\w+)\s+(?:our\s+own\s+|outright\s+)?(?:an?\s+|one\s+|two\s+|four\s+|eight\s+|sixteen\s+)?\d*\s*"
    r"(?:x\s*|×\s*)?(?:\d+\s*(?:x\s*|×\s*)?)?(?:nvidia\s+)?(?:[ahlb]\d{2,3}|rtx|dgx|hgx|mi\d{3}|gb\d{3}|gh\d{3})",
    I,
)


# buying preferred over renting, said as a statement (expert review 17, R19 turn 3): "we'd prefer to buy
# hardware rather than rent", "we'd rather buy our own GPUs than rent", "buy, not rent"; not a question that
# weighs the two ("should we buy rather than rent?", "is it cheaper to buy than rent?": both are shown)
_BUY_OVER_RENT = keyed(
    r"\b(?:buy|buying|purchas\w+|own)\b[^.?!]{0,40}?(?:\brather\s+than|\binstead\s+of|\bover|\bnot|,\s*not|\bthan)"
    r"\s+(?:to\s+)?(?:rent\w*|leas\w*|(?:the\s+)?cloud)\b",
    I,
)
_WEIGHED = re.compile(r"\b(?:should\s+(?:we|i)|whether|is\s+it|would\s+it|cheaper|better|or)\b|\?", I)


def rule_buy_instead(ctx: Ctx) -> None:
    """deployment_preference on_prem from a what-if that switches from renting to buying (with buy_what_if:
    the purchase is sized and weighed against renting, the cheaper over the horizon the pick; expert review
    18, R17), or a stated preference to buy rather than rent."""
    if ctx.has("deployment_preference"):
        return
    for i, s in enumerate(ctx.sentences):
        if (m := _BUY_INSTEAD.search(s.text)) is not None:
            ctx.add(s, "deployment_preference", "on_prem", m.group(0), "stated", m.start())
            ctx.add(s, "buy_what_if", True, m.group(0), "stated", m.start())
            _cards_bought(ctx, s)
            return
        if (m := _BUY_OVER_RENT.search(s.text)) is not None and _WEIGHED.search(s.text) is None:
            ctx.add(s, "deployment_preference", "on_prem", m.group(0), "stated", m.start())
            after = ctx.sentences[i + 1] if i + 1 < len(ctx.sentences) else s
            _purchase_budget(ctx, s, after.start + len(after.text), m.group(0))
            return


def _cards_bought(ctx: Ctx, s: Sentence) -> None:
    """claimed_gpu and claimed_gpu_count of the counted cards a buy what-if names ("what if we bought our own
    16 H100s instead of renting?"): the purchase is sized and weighed on those cards (expert review 18, R17:
    the count was dropped, so 8 RTX 5090s were priced to buy); not when a claim of the sentence named them."""
    end = s.start + len(s.text)
    if any(f.field == "claimed_gpu" and s.start <= f.position <= end for f in ctx.findings):
        return
    for gpu in GPU_RE.finditer(s.text):
        counted = _COUNTED.search(s.text[max(0, gpu.start() - 14) : gpu.start()]) is not None
        if counted or machine_gpus(s.text, gpu.start()) is not None:
            _claim_hardware(ctx, s, gpu, mark=False)
            return


_COUNTED = re.compile(rf"{NUMBER}\s*(?:x\s*|×\s*)?$", I)


def _purchase_budget(ctx: Ctx, s: Sentence, end: int, said: str) -> None:
    """budget_capex for a budget said in the sentence that chooses buying or the one after it ("we'd prefer
    to buy hardware rather than rent, budget $400k"): it pays for the purchase, not one month of serving
    (expert review 17, R19); a budget said per period ("$20k a month") stays periodic."""
    budget = next((f for f in ctx.findings if f.field == "budget_usd" and s.start <= f.position <= end), None)
    if budget is None or ctx.has("budget_capex") or _PERIODIC.search(budget.evidence or ""):
        return
    ev = f'"{said}": the budget buys the hardware, held against the purchase price'
    ctx.add(s, "budget_capex", True, ev, "inferred", budget.position - s.start)


_PERIODIC = re.compile(
    r"\b(?:per|a|an|each|every)\s+(?:month|year|week)\b|/\s*(?:mo|month|yr|year)\b|\bmonthly\b", I
)


def rule_purchase_price(ctx: Ctx) -> None:
    """purchase_usd_per_gpu from a price said with the machine to buy; that amount is then no budget."""
    for s in ctx.sentences:
        t = s.text
        if _BUY_WORD.search(t) is None:
            continue
        for pat in (_BUY_THEN_PRICE, _PRICED):
            for m in pat.finditer(t):
                money = _MONEY.pattern.match(t, m.end())
                if money is None or _RATE.match(t[money.end() : money.end() + 40]):
                    continue
                _add(ctx, s, m.group("count"), m.group("gpu"), money)
                return
        for m in _QUOTE_OF.finditer(t):  # "a quote of $250k for an 8x H100 node"
            money = _MONEY.pattern.match(t, m.end())
            gpus = _FOR_GPUS.match(t, money.end()) if money is not None else None
            if money is not None and gpus is not None:
                _add(ctx, s, gpus.group("count"), gpus.group("gpu"), money)
                return
        if _system_then_price(ctx, s):
            return


def _system_then_price(ctx: Ctx, s: Sentence) -> bool:
    """A system to buy, then a price cue and an amount later in the sentence (see _BUY_SYSTEM)."""
    t = s.text
    for m in _BUY_SYSTEM.finditer(t):
        for money in _MONEY.pattern.finditer(t, m.end()):
            if not _PRICE_CUE.search(t[m.end() : money.start()]):
                continue
            if _RATE.match(t[money.end() : money.end() + 40]):
                continue  # "$2.50/h": a rental rate
            said = _COUNT_AFTER.match(t[money.end() :])
            system = str(_SYSTEM_GPUS) if m.group("sys") else None
            count = said.group("n") if said else m.group("count") or system
            if count is None:
                continue
            gpu = m.group("sgpu") or m.group("gpu")
            _add(ctx, s, count, gpu, money)
            return True
    return False


def _add(ctx: Ctx, s: Sentence, count_said: str, gpu_said: str, money: re.Match[str]) -> None:
    count = int(parse_number(count_said))
    if count < 1:
        return
    sym = (money.group("sym") or "").strip().lower()
    word = (money.group("word") or "").lower()
    cur = _CUR_SYM.get(sym) or _CUR_WORD.get(sym) or _CUR_SYM.get(word) or _CUR_WORD.get(word) or "USD"
    num = money.group("num") or money.group("num2") or money.group("num3")
    mult = money.group("mult") or money.group("mult2") or money.group("grand")
    usd = U.usd_from(parse_money(num) * (MULTIPLIERS[mult.lower()] if mult else 1.0), cur).value
    per_gpu = usd / count
    said = money.group(0).strip()
    ev = f'"{said}" for {count}x {gpu_said}: ${usd:,.0f} / {count} GPUs = ${per_gpu:,.0f} per GPU with server'
    # the amount is the machine's price, not a budget (rule_budget read it first, at the same place)
    at = s.start + money.start() - (QUOTED_PENALTY if s.quoted else 0)
    ctx.findings[:] = [f for f in ctx.findings if not (f.field == "budget_usd" and f.position == at)]
    ctx.add(s, "purchase_usd_per_gpu", per_gpu, ev, "inferred", money.start())
    if gid := resolve_gpu(gpu_said):
        ctx.add(s, "purchase_gpu", gid, f"{count}x {gpu_said}", "stated", money.start())
