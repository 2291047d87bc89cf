"""Capacity the team rents now, described with what it costs, and the providers a price for the same
capacity is asked at (expert review 19, R19/P19).

"Finance question: we're spending ~$40k/month on 8x H100 on-demand at AWS for training. What would the same
capacity cost at Lambda or Nebius, and with a 1-year reservation?" was read as "required providers
(nothing else) aws" (the opposite of the question), "$40" unused and no answer without a model. The
sentence describes the fleet: where it runs is not a requirement, its GPUs are not a wish, its spend is no
budget. Read as:
- current_gpu, current_gpu_count, current_provider, current_pricing and current_usd_per_month from a
  counted GPU and a monthly amount said with a present spending cue: "we're spending ~$40k/month on 8x
  H100", "we pay about $40,000 a month for 8 H100s on AWS", "our AWS bill for 8x H100 is ~$40k per
  month", "8x H100 on-demand at AWS costs us $40k monthly", "we currently rent 16 A100s on GCP for ~$35k a
  month"; the provider and pricing when said in the same sentence. Not a budget or a plan ("we can spend
  $40k/month on 8x H100", "budget: $40k a month"), nor money spent once ("we spent $40k last month");
- utilization 1.0 from "running all month", "24/7", "around the clock" said of that fleet;
- providers_asked from the price question that follows: "what would the same capacity cost at Lambda or
  Nebius?", "how much would that be on CoreWeave?", "compare it with Nebius"; reserved_months_asked from
  its reserved term ("and with a 1-year reservation?" -> 12). The term is the price asked, not a planning
  horizon, so the horizon read from the same words is dropped.
A fleet said without its cost ("Currently renting 1x L40S on RunPod", "we're renting two H100s at Lambda
right now") gives current_gpu, current_gpu_count and current_provider alone, from a present renting cue
("currently/now/already renting", "we're renting"; in a question only "keep renting the/our") just before
a counted GPU: what the team rents now is
what a purchase question ("would buying 2 L40S be cheaper than keeping renting?", expert review 20, R18)
is weighed against (tools.recommend.keep_renting). Its other findings stand (nothing was spent to take
back). Not a plan or a question ("we rent 64x H100 for 3 months to pretrain", "could we rent 8x H100?").
The findings the fleet sentence gave other rules (providers_required/preferred for its provider,
gpus_wanted for its GPU, a budget for its spend) are taken back; a requirement said elsewhere ("our policy
is AWS only") stands. tools/capacity_price.py prices the capacity at each provider.
"""

from __future__ import annotations

import re

from advisor.extract import units_text as U
from advisor.extract.regex_keys import keyed
from advisor.extract.rules_ctx import QUOTED_PENALTY, Ctx, I, q
from advisor.extract.rules_models import GPU_RE, find_providers, resolve_gpu
from advisor.extract.rules_money_time import _CUR_SYM, _CUR_WORD, _MONEY
from advisor.extract.rules_reserved_question import rule_reserved_question
from advisor.extract.rules_text import MULTIPLIERS, NUMBER, Sentence, parse_money, parse_number

# a present spending cue: the amount is what the fleet costs now
_SPENDING = keyed(
    r"\b(?:we(?:'re|\s+are)\s+(?:currently\s+|now\s+)?(?:spending|paying|burning|billed)"
    r"|we\s+(?:currently\s+|now\s+)?(?:spend|pay|rent|run|use)\b"
    r"|(?:our|the)\s+(?:\w+\s+){0,2}?(?:bill|invoice|spend|cost)s?\s+(?:is|are|runs?|comes?\s+to|of|for)"
    r"|costs?\s+us|costing(?:\s+us)?|currently\s+(?:costs?|runs?|rent\w*|spend\w*|pay\w*))",
    I,
)
# a budget or a plan, not a bill: "we can spend", "budget", "up to", "max"
_NOT_A_BILL = re.compile(
    r"\b(?:can|could|would|will|may|might|plan\w*\s+to|want\s+to|budget\w*|up\s+to|max(?:imum)?|at\s+most"
    r"|afford|cap(?:ped)?|spent|paid|last\s+(?:month|year|quarter))\b",
    I,
)
_MONTHLY = re.compile(
    r"\s*(?:/\s*(?:mo|month)\b|per\s+month\b|a\s+month\b|an?\s+mo\b|monthly\b|each\s+month\b)", I
)
_COUNT_BEFORE = re.compile(rf"(?P<num>{NUMBER})\s*(?:x\s*|×\s*)?(?:nvidia\s+)?$", I)
_PRICING = (
    ("on_demand", re.compile(r"\bon[\s-]?demand\b", I)),
    ("reserved", re.compile(r"\breserv\w*|\bcommitted\b|\bsavings\s+plan\b", I)),
    ("spot", re.compile(r"\bspot\b", I)),
)
_ALL_MONTH = keyed(
    r"\b(?:running|run|on|used|busy|up)\s+(?:all|the\s+whole|the\s+entire|every\s+hour\s+of\s+the)\s+month"
    r"|\b24\s*/\s*7\b|\baround\s+the\s+clock\b|\bround[\s-]the[\s-]clock\b|\bnon[\s-]?stop\b",
    I,
)
# the price question on the same capacity: "what would the same capacity cost at Lambda?"
_PRICE_ASKED = keyed(
    r"\b(?:what|how\s+much)\b[^.?!]{0,60}?\b(?:cost|be|run|pay|charge|price)\w*\b"
    r"|\b(?:same|equivalent|comparable|similar)\s+(?:capacity|setup|set-up|cluster|instances?|fleet|nodes?"
    r"|boxes|gpus|hardware|config\w*)\b"
    r"|\b(?:compare|cheaper|price|quote)\w*\b[^.?!]{0,40}?\b(?:at|on|with|from|elsewhere)\b",
    I,
)
# a later turn's short question on the same capacity: "And at Lambda?", "what about CoreWeave?"
_FOLLOWUP = re.compile(r"\W*(?:and|what\s+about|how\s+about|also)\b[^.!]{0,60}\?", I)
_TERM = keyed(
    rf"\b(?P<num>{NUMBER}|an?|one|two|three)[\s-]*(?P<unit>years?|yr|months?)[\s-]+(?:reserv\w*|commit\w*"
    r"|term|contract|savings\s+plan)"
    rf"|\breserv\w*\s+(?:for\s+)?(?:a\s+|one\s+)?(?P<num2>{NUMBER}|an?|one|two|three)?[\s-]*(?P<unit2>years?|months?)\b",
    I,
)
_WORD_NUMBERS = {"a": 1.0, "an": 1.0, "one": 1.0, "two": 2.0, "three": 3.0}
# a present renting cue with no amount: "currently renting", "we're renting", "we rent ... right now"
_RENTING_NOW = keyed(
    r"\b(?:currently|now|already|presently)\s+(?:renting|rent|using|running\s+on)\b"
    r"|\bwe(?:'re|\s+are)\s+(?:currently\s+|now\s+|already\s+|presently\s+)?renting\b"
    # "Right now we rent two A100 80GB on Lambda", "At the moment, we rent ...": a time word makes it today's
    r"|\b(?:right\s+now|at\s+the\s+moment|at\s+present|these\s+days|today)\s*,?\s+we\s+rent\b",
    I,
)
# the same said inside the purchase question: "than keeping renting the one L40S?", "keep renting our 2 H100s"
_KEEP_RENTING = keyed(r"\bkeep(?:ing)?\s+(?:on\s+)?rent(?:ing)?\s+(?:the|our)\b", I)
_RENT_COUNT = re.compile(rf"\s*(?:(?P<num>{NUMBER})\s*(?:x\s*|×\s*)?|a\s+single\s+|an?\s+)(?:nvidia\s+)?$", I)


def rule_current_fleet(ctx: Ctx) -> None:
    """The capacity rented now, its cost, and the price question on it (module docstring); then a reserved
    term asked about the work itself when no fleet question took it (rules_reserved_question)."""
    _current_fleet(ctx)
    rule_reserved_question(ctx)


def _current_fleet(ctx: Ctx) -> None:
    for i, s in enumerate(ctx.sentences):
        if _fleet(ctx, s):
            _asked(ctx, ctx.sentences[i:])
            return
    for i, s in enumerate(ctx.sentences):
        if _rented_now(ctx, s):
            _asked(ctx, ctx.sentences[i:])
            return
    if ctx.prior is not None and ctx.prior.current_gpu is not None:
        # a later turn about the fleet read before: "And at Lambda?", "what about a 3-year term?"
        _asked(ctx, ctx.sentences, followup=True)


def _fleet(ctx: Ctx, s: Sentence) -> bool:
    t = s.text
    cue = _SPENDING.search(t)
    if cue is None:
        return False
    money = next((m for m in _MONEY.pattern.finditer(t) if _MONTHLY.match(t, m.end())), None)
    gpu = next((g for g in GPU_RE.finditer(t) if _count_before(t, g.start())), None)
    if money is None or gpu is None:
        return False
    first = min(cue.start(), money.start())
    if _NOT_A_BILL.search(t, max(0, first - 40), max(cue.end(), money.start())):
        return False  # "we can spend $40k/month", "budget: $40k a month", "we spent $40k last month"
    count = _count_before(t, gpu.start())
    assert count is not None
    n = int(parse_number(count.group("num")))
    gid = resolve_gpu(gpu.group("gpu"))
    if n < 1:
        return False
    usd = _usd(money)
    said = money.group(0).strip()
    ctx.add(s, "current_gpu", gid, f"{n}x {gpu.group('gpu')}: the GPUs you rent now", "stated", gpu.start())
    ctx.add(s, "current_gpu_count", n, count.group(0) + gpu.group("gpu"), "stated", gpu.start())
    period = _MONTHLY.match(t, money.end())
    ev = f'"{said}{period.group(0) if period else ""}": what that capacity costs you now'
    status = "inferred" if usd != _amount(money) else "stated"  # another currency: converted
    ctx.add(s, "current_usd_per_month", usd, ev, status, money.start())
    providers = find_providers(t)
    if providers:
        pid, a, b = providers[0]
        ctx.add(s, "current_provider", pid, f'"{t[a:b]}": where it runs now, not a requirement', "stated", a)
    for pricing, rx in _PRICING:
        if (m := rx.search(t)) is not None:
            ctx.add(s, "current_pricing", pricing, q(m), "stated", m.start())
            break
    if (m := _ALL_MONTH.search(t)) is not None and not ctx.has("utilization"):
        ctx.add(s, "utilization", 1.0, f'"{q(m)}": all 730 hours of the month', "inferred", m.start())
    _take_back(ctx, s, {pid for pid, _a, _b in providers}, gid, money.start())
    return True


_RULE_WORDS = re.compile(r"\b(?:must|only|required?|policy|have\s+to|has\s+to|stay)\b", re.I)


def _rented_now(ctx: Ctx, s: Sentence) -> bool:
    """A fleet said without its cost: "Currently renting 1x L40S on RunPod" (module docstring)."""
    t = s.text
    if ctx.has("current_gpu"):
        return False
    cues = [*_KEEP_RENTING.finditer(t)] + ([] if t.rstrip().endswith("?") else [*_RENTING_NOW.finditer(t)])
    for cue in cues:
        gpu = GPU_RE.search(t, cue.end(), min(len(t), cue.end() + 24))
        if gpu is None:
            continue
        count = _RENT_COUNT.fullmatch(t, cue.end(), gpu.start())
        if count is None:
            continue
        num = count.group("num")
        n = int(parse_number(num)) if num else 1
        if n < 1:
            return False
        gid = resolve_gpu(gpu.group("gpu"))
        said = t[cue.start() : gpu.end()]
        ctx.add(s, "current_gpu", gid, f'"{said}": the GPUs you rent now', "stated", gpu.start())
        ctx.add(s, "current_gpu_count", n, f'"{said}"', "stated", gpu.start())
        providers = find_providers(t[gpu.end() :])
        if providers:
            pid, a, b = providers[0]
            at = gpu.end() + a
            ctx.add(s, "current_provider", pid, f'"{t[at : gpu.end() + b]}": where it runs now', "stated", at)
        # "Currently renting 1x L40S on RunPod" says where the fleet runs, not that nothing else is allowed;
        # a rule in the same sentence ("..., and we must stay on RunPod") keeps what it says
        if _RULE_WORDS.search(t) is None:
            _take_back(ctx, s, {pid for pid, _a, _b in providers}, gid, None)
        return True
    return False


def _count_before(t: str, at: int) -> re.Match[str] | None:
    return _COUNT_BEFORE.search(t[max(0, at - 12) : at])


def _amount(money: re.Match[str]) -> float:
    num = money.group("num") or money.group("num2") or money.group("num3")
    mult = money.group("mult") or money.group("mult2") or money.group("grand")
    return parse_money(num) * (MULTIPLIERS[mult.lower()] if mult else 1.0)


def _usd(money: re.Match[str]) -> float:
    sym = (money.group("sym") or "").strip().lower()
    word = (money.group("word") or "").lower()
    cur = _CUR_SYM.get(sym) or _CUR_WORD.get(sym) or _CUR_SYM.get(word) or _CUR_WORD.get(word) or "USD"
    return U.usd_from(_amount(money), cur).value


def _take_back(ctx: Ctx, s: Sentence, providers: set[str], gpu: str, money_at: int | None) -> None:
    """Drop the findings other rules read from the fleet sentence: its provider required or preferred, its
    GPU wanted, its spend as a budget (module docstring); `money_at` None: a fleet said without its bill."""
    lo = s.start - (QUOTED_PENALTY if s.quoted else 0)
    hi = lo + len(s.text)
    spend_at = None if money_at is None else lo + money_at

    def keep(f: object) -> bool:
        field, at, value = getattr(f, "field"), getattr(f, "position"), getattr(f, "value")  # noqa: B009
        if not lo <= at <= hi:
            return True
        if field in ("providers_required", "providers_preferred"):
            return not set(value if isinstance(value, list) else [value]) <= providers
        if field in ("gpus_wanted", "pricing_excluded"):
            return False  # the GPUs and pricing of the fleet described, not a wish or a rule
        return not (field == "budget_usd" and at == spend_at)

    ctx.findings[:] = [f for f in ctx.findings if keep(f)]


def _asked(ctx: Ctx, after: tuple[Sentence, ...], followup: bool = False) -> None:
    """providers_asked and reserved_months_asked from the price question in the fleet sentence or after it;
    the horizon read from the term's words is dropped (the term is a price asked, not the plan's length)."""
    for s in after:
        t = s.text
        if _PRICE_ASKED.search(t) is None and not (followup and _FOLLOWUP.match(t)):
            continue
        current = {f.value for f in ctx.findings if f.field == "current_provider"}
        if followup and ctx.prior is not None and ctx.prior.current_provider:
            current.add(ctx.prior.current_provider)
        found = list(dict.fromkeys(pid for pid, _a, _b in find_providers(t)))
        named = [pid for pid in found if pid not in current] or found  # the current one alone: its price
        if named:
            said = ", ".join(dict.fromkeys(named))
            ctx.add(s, "providers_asked", list(dict.fromkeys(named)), f"{said}: priced for the same capacity",
                    "stated", 0)  # fmt: skip
            _drop_required(ctx, s, set(named))
        if (m := _TERM.search(t)) is not None:
            num = m.group("num") or m.group("num2") or "1"
            value = _WORD_NUMBERS.get(num.lower()) or parse_number(num)
            unit = (m.group("unit") or m.group("unit2") or "year").lower()
            months = value * 12.0 if unit.startswith("y") else value
            status = "stated" if unit.startswith("mo") else "inferred"
            ctx.add(s, "reserved_months_asked", months, q(m), status, m.start())
            lo = s.start - (QUOTED_PENALTY if s.quoted else 0)
            span = (lo + m.start() - 2, lo + m.end() + 2)
            hi = lo + len(t)
            # the term is a price asked: no planning horizon, and no rule against on-demand or spot either
            ctx.findings[:] = [
                f
                for f in ctx.findings
                if not (f.field == "horizon_months" and span[0] <= f.position <= span[1])
                and not (f.field == "pricing_excluded" and lo <= f.position <= hi)
            ]
        if named or m is not None:
            return


def _drop_required(ctx: Ctx, s: Sentence, asked: set[str]) -> None:
    """A provider a price is asked at is not thereby required: "what would it cost at Lambda?" (the
    provider rules read 'at Lambda' after a GPU as the place it must run)."""
    lo = s.start - (QUOTED_PENALTY if s.quoted else 0)
    hi = lo + len(s.text)
    ctx.findings[:] = [
        f
        for f in ctx.findings
        if not (
            f.field in ("providers_required", "providers_preferred")
            and lo <= f.position <= hi
            and set(f.value if isinstance(f.value, list) else [f.value]) <= asked
        )
    ]
