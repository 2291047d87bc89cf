"""Budget (currencies, FX) and deadline (relative, weekday, calendar date, duration) rules."""

from __future__ import annotations

import datetime as dt
import re

from advisor.extract import units_text as U
from advisor.extract.regex_keys import keyed
from advisor.extract.rules_ctx import Ctx, Gated, I, q
from advisor.extract.rules_dates import MORNING_HOUR, NOON_HOUR, before_then, date_of, event_date
from advisor.extract.rules_numeric_dates import BY_ORDINAL, NUMERIC_DATE, month_days, numeric_date
from advisor.extract.rules_text import (
    APPROX,
    MONEY_NUM,
    MULT,
    MULTIPLIERS,
    NUMBER,
    RANGE_FROM,
    parse_money,
    parse_number,
    parse_scaled,
)
from advisor.extract.sentence_memo import read_once

# =========================================================================== money and time
_CUR_SYM = {"$": "USD", "us$": "USD", "€": "EUR", "£": "GBP"}
_CUR_WORD = {
    "usd": "USD", "dollars": "USD", "dollar": "USD", "bucks": "USD",
    "eur": "EUR", "euro": "EUR", "euros": "EUR", "k€": "EUR",
    "gbp": "GBP", "pounds": "GBP", "pound": "GBP", "chf": "CHF",
}  # fmt: skip
_MONEY = Gated(
    re.compile(
        rf"(?P<sym>us\$|\$|€|£|\bchf\s?|\beur\s?|\busd\s?|\bgbp\s?)\s*(?P<num>{MONEY_NUM}"
        rf"|{NUMBER})\s*(?P<mult>{MULT})?"
        rf"|(?P<num2>{MONEY_NUM}|{NUMBER})\s*(?P<mult2>{MULT})?\s*(?P<word>usd|dollars?|bucks|eur|euros?"
        rf"|gbp|pounds?|chf"
        rf"|k€|€|\$)(?!\w)"
        rf"|(?P<num3>{NUMBER})\s+(?P<grand>grand)\b",  # "about twelve grand": thousands of dollars
        I,
    ),
    "$",
    "€",
    "£",
    "usd",
    "eur",
    "gbp",
    "chf",
    "dollar",
    "euro",
    "pound",
    "buck",
    "grand",
)
_RATE = re.compile(r"^\s*(?:/|per\s|an?\s+(?:hour|month|day|year|gpu)|each\b|hourly|monthly)", I)
# money per training run is the job's budget, not a rate: "spend capped at $3,000 per run", "$5k/job" (rd15)
_PER_RUN = re.compile(
    r"^\s*(?:/\s*|per\s+|a\s+|each\s+|for\s+(?:each|every|the|one)\s+)(?:training\s+)?(?:run|job)\b", I
)
# a budget word after a company figure's word takes the amount back: "ARR $4M, budget $6k" (rd15)
_BUDGET_AGAIN = re.compile(r"\b(?:budget\w*|spend(?:ing)?|cap(?:ped)?|ceiling|afford|limit)\b", I)
_BUDGET_CUE = keyed(
    r"\b(?:budget\w*|afford|spend|spending|grant|funding|cap|capped|limit|approved|allocated|have|got|PO|"
    r"purchase\s+order|not[\s-]to[\s-]exceed|ceiling|(?:shall|must|will|may|should)\s+not\s+exceed"
    r"|(?:not|n't)\s+cost\s+more\s+than|"
    r"under|max(?:imum)?|at most|up to|no more than|less than|below|within|around|about)\b|~|≈",
    I,
    min_chars=1,
)
_NOT_BUDGET = keyed(
    r"\b(?:cost(?:s|ing)? (?:is|was|of)|egress|price[sd]?|charges?|paid|quote[sd]?(?: at)?|saves?"
    r"|series\s+[a-e]|(?:we\s+)?raised\s+(?:a\s+|our\s+)?(?:series|seed|round|pre-seed)|funding\s+round|round"
    r"|valuation|revenue|arr)\b",
    I,
)

# the amount is someone's price, not the user's budget: "the $38k is his quote", "$612k is their asking price"
_QUOTE_AFTER = re.compile(
    r"\s*(?:is|was)\s+(?:just\s+)?(?:his|her|their|its|a|the|an?\s+\w+'s|the\s+\w+'s)\s+(?:\w+\s+)?"
    r"(?:quote|price|offer|estimate|asking\s+price|list\s+price)\b",
    re.I,
)
# the company's figures, not a budget: "~$12M ARR", "$40M Series B", "$3M in revenue"
_FINANCIALS_AFTER = re.compile(
    r"\s*(?:in\s+)?(?:ARR|MRR|revenue|turnover|valuation|series\s+[a-e]|seed\s+round|round|raise|funding)\b"
    # a deal's value, not the compute budget (evals v16 CRM: "Amount: $480,000 (3-year contract value)")
    r"|\s*\(?\s*(?:[\w-]+\s+){0,2}?(?:contract|deal|booking|lifetime)\s+value\b|\s*\(?\s*(?:TCV|ACV)\b"
    # an amount said to be for something else: "Team offsite budget €12k (not compute)" (evals v16)
    r"|\s*[,;(]?\s*not\s+(?:for\s+)?(?:compute|gpus?|this\s+(?:job|project|run))\b",
    re.I,
)
_CEILING = re.compile(
    r"\b(?:ceiling|cap|limit|max(?:imum)?|not[\s-]to[\s-]exceed|no\s+more\s+than|at\s+most|below|under|exceed"
    r"|go\s+(?:above|over|beyond|past)"  # "can't go above $2k/mo" (rd15)
    r"|less\s+than|up\s+to|within|(?:shall|must|will|may|should)\s+not\s+exceed)\b",
    re.I,
)
# the ceiling said after the period: "~$10k per month max", "$8k a month tops", "$5k/month or less"
_CEILING_AFTER = re.compile(
    r"^\s*(?:/\s*(?:mo|month)\b|per\s+month\b|a\s+month\b|monthly\b)\s*,?\s*(?:max(?:imum)?|tops|at\s+(?:the\s+)?most"
    r"|or\s+less|ceiling|cap|hard\s+cap|limit)\b",
    re.I,
)
# an amount that opens a range: "$2-3k", "€40 – 50k" (the multiplier said once, after the high end)
_RANGE_LOW = re.compile(r"\s*(?:-|–|to)\s*[$€£]?\s*\d", re.I)
# money held as credits is money to spend: "paid from the $6,000 of AWS credits on the grant"
_CREDITS_AFTER = re.compile(r"\s*(?:of|in)\s+(?:[\w-]+\s+){0,2}credits?\b", re.I)
_USED_UP = re.compile(r"\b(?:spent|used(?:\s+up)?|burn(?:ed|t)|blew|consumed|wasted)\b", re.I)
# a monthly figure that restates a total: "GBP 30,000 over the term (equivalent to GBP 2,500 per month)"
_RESTATED = re.compile(r"(?:equivalent\s+to|i\.e\.,?|that'?s|which\s+is|or|=|≈)\s*(?:about\s+|~\s*)?$", re.I)
_BUDGET_WORD = keyed(r"\bbudget\b", I)
_PER_YEAR = re.compile(r"^\s*(?:/\s*(?:yr|year)|per\s+(?:year|annum)|an?\s+year|annually|yearly|p\.a\.)", I)
# a verb of spending before a monthly amount: "we can spend €8k a month", "we have 10 grand a month" (rd15)
_SPEND_BEFORE = re.compile(
    r"\b(?:spend|afford|have(?!\s+an?\s)|got|allocat\w*|approved)\b[^.;$€£\d]{0,12}$", I
)
_PER_MONTH = re.compile(r"^\s*(?:/\s*(?:mo|month)\b|per\s+month\b|a\s+month\b|monthly\b)", I)
_BUDGET_BARE = keyed(  # "budget is 5000": an amount without a currency
    rf"\bbudget\s*(?:is|of|:|=|around|about|~)?\s*(?P<num>{NUMBER})\s*(?P<mult>{MULT})?(?!\s*[%\w$€£])", I
)
# the same with words between the cue and the amount, or the cue after it: "our budget is around 10k",
# "budget was 10k, sorry I meant 15k", "Spend cap: 20k", "~7k budget"; a multiplier is required (a bare
# "budget was 3" is too little to read as money)
_BARE_FILL = (
    r"(?:\s*(?:is|was|of|:|=|around|about|roughly|approx\.?|~|only|just|max(?:imum)?|at\s+most|up\s+to|now"
    r"|still))*"
)
_BUDGET_BARE_K = keyed(
    rf"\b(?:budget|spend(?:ing)?\s+(?:cap|limit|ceiling)|max(?:imum)?\s+spend|cap\s+on\s+spend(?:ing)?)\b"
    # a range's upper end, as for "$5k-$8k": "budget 5-8k", "budget: 5 to 8k" (rd15)
    rf"{_BARE_FILL}\s*(?:{NUMBER}\s*(?:-|–|to)\s*)?(?P<num>{NUMBER})\s*(?P<mult>k|m)\b(?!\s*[%$€£]|\s*\w)"
    rf"|(?<![\w$€£.,])~?\s*(?P<num2>{NUMBER})\s*(?P<mult2>k|m)\s+(?:total\s+|overall\s+)?budget\b",
    I,
)
# money already spent, not money to spend: "Last year we spent $40k on the vendor API", "$12k so far"
_SPENT_BEFORE = re.compile(
    r"(?:\b(?:spent|paid|burn(?:ed|t)|blew)\s+|\bcost\s+(?:us\s+)?"
    # an earlier project's figure: "last year's project cost 45.000 USD", "the previous run was $8k"
    r"|\b(?:last|previous|prior)\s+(?:year|quarter|month|project|run|time)'?s?\b[^.;,$€£]{0,30}?)"
    r"(?:about\s+|around\s+|~\s*|roughly\s+|over\s+)?$",
    I,
)
_SPENT_AFTER = re.compile(r"\s*(?:so\s+far|to\s+date|last\s+(?:year|quarter|month)|already)\b", I)


MAX_BUDGET_AMOUNTS_PER_SENTENCE = 8
"""A sentence naming more amounts than this is a price list or noise, not a budget: only its last ones are
weighed (20,000 characters of '€5 ' made 6,667 budget findings, a third of the whole read)."""


def rule_budget(ctx: Ctx) -> None:
    """budget_usd from amounts with a budget cue (or a short ask); rates such as $/hr are skipped."""
    _budgets(ctx, len(ctx.sentences) <= 3)


@read_once
def _budgets(ctx: Ctx, short: bool) -> None:
    """rule_budget's reading of each sentence (`short`: a text of three sentences at most, a short ask)."""
    # a finding needs one of these to match
    for s in ctx.sentences_with(_MONEY, _BUDGET_BARE, _BUDGET_BARE_K, _CALL_IT):
        t = s.text
        budget_word = _BUDGET_WORD.search(t) is not None  # once per sentence: linear in its length
        amounts = list(_MONEY.finditer(t))
        for m in amounts[-MAX_BUDGET_AMOUNTS_PER_SENTENCE:]:  # the last said wins among equals
            if _RANGE_LOW.match(t, m.end()):
                continue  # "$2-3k": the low end of a range, not $2 (rules_budget_forms reads the range)
            rate = _RATE.match(t[m.end() : m.end() + 40])  # a bounded window: '/hr', 'per month'
            if rate is not None and _PER_RUN.match(t[m.end() : m.end() + 40]):
                rate = None  # "$3,000 per run": one job's budget
            monthly = rate is not None and _PER_MONTH.match(t[m.end() : m.end() + 40]) is not None
            yearly = rate is not None and _PER_YEAR.match(t[m.end() : m.end() + 40]) is not None
            ceiling = (monthly or yearly) and (
                _CEILING.search(t[max(0, m.start() - 30) : m.start()]) is not None
                or _CEILING_AFTER.match(t[m.end() : m.end() + 40]) is not None
                or _SPEND_BEFORE.search(t[max(0, m.start() - 30) : m.start()]) is not None
            )
            periodic = monthly or yearly
            if rate and not (periodic and (budget_word or ceiling) and ctx.workload == "inference"):
                continue  # a serving budget "$3k/month" is the budget its monthly cost is held to
            sym_g, word_g, num_g, num2_g, mult_g, mult2_g = m.group(
                "sym", "word", "num", "num2", "mult", "mult2"
            )
            sym = (sym_g or "").strip().lower()
            word = (word_g or "").lower()
            cur = (
                _CUR_SYM.get(sym) or _CUR_WORD.get(sym) or _CUR_SYM.get(word) or _CUR_WORD.get(word) or "USD"
            )
            num = num_g or num2_g or m.group("num3")
            mult = mult_g or mult2_g or m.group("grand")
            if word == "k€":
                mult, cur = "k", "EUR"
            before = t[max(0, m.start() - 60) : m.start()]
            credits = _CREDITS_AFTER.match(t, m.end()) is not None and not _USED_UP.search(before[-30:])
            if not (budget_word or short or credits or _BUDGET_CUE.search(before)):  # the regex last: costly
                continue
            if (
                monthly
                and _RESTATED.search(before)
                and any(f.field == "budget_usd" and f.position >= s.start for f in ctx.findings)
            ):
                continue  # the total said again per month: the total stands
            not_budget = _NOT_BUDGET.search(before[-25:])
            tail_25 = before[-25:]
            if not_budget is not None and (
                _CEILING.search(tail_25, not_budget.end()) or _BUDGET_AGAIN.search(tail_25, not_budget.end())
            ):
                not_budget = None  # "firm fixed price, not to exceed EUR 60,000": the ceiling is the budget
            if (
                (not_budget is not None and not credits)
                or _SPENT_BEFORE.search(before)
                or _SPENT_AFTER.match(t, m.end())
                or _QUOTE_AFTER.match(t, m.end())
                or _FINANCIALS_AFTER.match(t, m.end())
            ):
                continue
            amount = parse_money(num) * (MULTIPLIERS[mult.lower()] if mult else 1.0)
            conv = U.usd_from(amount, cur)
            status = "stated" if cur == "USD" else "inferred"
            ev = q(m) if cur == "USD" else f'"{q(m)}": {conv.how}'
            if monthly:  # the words as written ("$2,000 a month"), the conversion after them if any
                per = _PER_MONTH.match(t[m.end() : m.end() + 40])
                said = t[m.start() : m.end() + (per.end() if per else 0)].strip()
                ev = said if cur == "USD" else f'"{said}": {conv.how}'
            if yearly:  # a serving budget per year: its monthly twelfth, the cost the pick is held to (rd15)
                yr = _PER_YEAR.match(t[m.end() : m.end() + 40])
                said = t[m.start() : m.end() + (yr.end() if yr else 0)].strip()
                how = "" if cur == "USD" else f" ({conv.how})"
                conv, status = U.Converted(conv.value / 12, ""), "inferred"
                ev = f'"{said}"{how} / 12 months = ${conv.value:,.0f} a month'
            ctx.add(s, "budget_usd", conv.value, ev, status, m.start())
        # "budget is 5000" without a currency: read as USD
        for m in _BUDGET_BARE.finditer(t):
            amount = parse_scaled(m.group("num"), m.group("mult"))
            if amount >= 10:
                ctx.add(
                    s,
                    "budget_usd",
                    amount,
                    f'"{q(m)}": no currency given, read as USD',
                    "inferred",
                    m.start(),
                )
        for m in _BUDGET_BARE_K.finditer(t):
            key = "" if m.group("num") else "2"
            amount = parse_scaled(m.group("num" + key), m.group("mult" + key))
            if amount >= 100:
                ev = f'"{q(m)}": no currency given, read as USD'
                ctx.add(s, "budget_usd", amount, ev, "inferred", m.start("num" + key))
        # a budget restated as what is left: "so call it twenty thousand for compute" (words first, speed4)
        restated = list(_CALL_IT.finditer(t))
        if restated and any(f.field == "budget_usd" and f.position >= s.start for f in ctx.findings):
            for m in restated:
                amount = parse_scaled(m.group("num"), m.group("mult"))
                if amount >= 10:
                    ctx.add(s, "budget_usd", amount, f'"{q(m)}": the budget restated', "stated", m.start())


_CALL_IT = keyed(
    rf"\b(?:so\s+)?call\s+it\s+{APPROX}(?:us\$|\$|€|£)?\s*(?P<num>{NUMBER})\s*(?P<mult>{MULT})?"
    r"(?=\s*(?:usd|dollars|eur|euros?)?\s*(?:for\s+(?:the\s+)?(?:compute|gpus?|hardware|the\s+job|training"
    r"|cloud)|[.,;]|$))",
    re.I,
)
_WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
_MON = r"(?P<mon>jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?"  # noqa: E501
_MON3 = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)"  # a date follows: _BY_DATE reads it
_BY_WEEKDAY = Gated(
    re.compile(
        r"\b(?:by|before|until|till|due|on|for)\s+(?:(?:eod|cob|end\s+of\s+(?:the\s+)?day)\s+(?:on\s+)?)?"
        r"(?:this\s+|next\s+|the\s+)?(?P<day>"
        + "|".join(_WEEKDAYS)
        + r"|(?<=by\s|od\s|ob\s)(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)\.?"
        + r")(?!,?\s+(?:the\s+)?(?:\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?"
        + _MON3
        + r"|"
        + _MON3
        + r"\w*\.?\s+\d))"
        + r"(?:\s+(?P<when>morning|first\s+thing|am\b|noon|midday|lunch(?:time)?"
        + r"|(?:at\s+)?\d{1,2}(?::\d\d)?\s*(?:am|pm)))?\b",
        I,
    ),
    "day", "by mon", "by tue", "by wed", "by thu", "by fri", "by sat", "by sun", "od fri", "od mon", "od tue",
    "od wed", "od thu", "ob fri",
)  # fmt: skip
_BY_DATE = keyed(
    rf"\b(?:by|before|until|till|within|due(?:\s+on)?|deadline(?:\s+is)?[:,]?|no\s+later\s+than|due\s+date:?"
    rf"|on)\s+(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day,?\s+)?(?:the\s+)?(?:{_MON}\s+(?P<d1>\d{{1,2}})(?:st|nd|rd|th)?"
    rf"|(?P<d2>\d{{1,2}})(?:st|nd|rd"
    rf"|th|\.)?\s+(?:of\s+)?{_MON.replace('?P<mon>', '?P<mon2>')})(?:,?\s+(?P<year>20\d\d))?\b"
    r"|\b(?:by|before|until|due(?:\s+on)?|deadline(?:\s+is)?:?|no\s+later\s+than|due\s+date:?)\s+"
    r"(?P<iso>20\d\d-\d\d-\d\d)\b",
    I,
)
_NO_DEADLINE = re.compile(
    r"\bno\s+(?:hard\s+|real\s+|fixed\s+|firm\s+)?(?:deadline|date\s+pressure|time\s+pressure|rush)\b"
    r"|\bnot\s+(?:urgent|time[\s-]critical)\b",
    re.I,
)
_BY_END = Gated(
    re.compile(
        r"\b(?:by|before|deadline(?:\s+is)?:?|due(?:\s+by)?|until)\s+(?:the\s+)?end\s+of\s+(?:the\s+|this\s+"
        r"|(?P<next>next)\s+)?(?P<what>week|month|quarter|year)\b"
        r"|\bby (?:tomorrow|tmrw|tmr|2moro)\b|\bby tonight\b",
        I,
    ),
    "end of",
    "tomorrow",
    "tmr",
    "2moro",
    "tonight",
)
_WITHIN = Gated(
    re.compile(
        rf"\b(?:within(?:\s+the\s+next)?|in(?:\s+under)?|in\s+the\s+next|under|inside\s+of|no\s+later\s+than|less\s+than"
        rf"|have|got|"
        rf"deadline\s*(?:is|:|of)?|due\s+in|turnaround\s*(?:of|is|:)?|time\s?line\s*(?:is|:|of)?"
        rf"|time\s?frame\s*(?:is|:|of)?"
        rf"|need(?:ed)?\s+(?:it\s+)?(?:done\s+)?in)\s+{APPROX}"
        rf"{RANGE_FROM}(?P<num>{NUMBER})[\s-]*(?:calendar\s+)?(?P<unit>hours?|hrs?|h|days?|weeks?|wks?|months?"
        rf"|fortnights?)\b",
        I,
    ),
    "fortnight",
    "hour",
    "hr",
    "h",
    "day",
    "week",
    "wk",
    "month",
)
# a time-of-day window a batch job must fit in: "the window between midnight and 6 am", "from 10pm to 6am"
_CLOCK = r"(?:midnight|noon|\d{1,2}(?::\d\d)?\s*(?:am|pm|h)?)"
_CLOCK_WINDOW = Gated(
    re.compile(
        rf"\bwindow\s+(?:\w+\s+)?(?:between|from|is|:)\s*(?P<a>{_CLOCK})\s*(?:and|to|until|-|–)\s*(?P<b>{_CLOCK})"
        # "between 1 and 5am": a bare hour before one with its am / pm takes the same half of the day (rd12)
        rf"|\b(?:between|from)\s+(?P<a2>midnight|\d{{1,2}}\s*(?:am|pm)|\d{{1,2}}:\d\d"
        rf"|\d{{1,2}}(?=\s+(?:and|to|until|-|–)\s+\d{{1,2}}\s*(?:am|pm)\b))\s+(?:and|to|until|-|–)"
        rf"\s+(?P<b2>\d{{1,2}}\s*(?:am|pm)|midnight|\d{{1,2}}:\d\d)\b",
        I,
    ),
    "window", "midnight", "am", "pm", ":",  # "between 01:00 and 05:00" holds no word: its colon
)  # fmt: skip


def _clock_hour(text: str | None) -> float | None:
    """Hour of the day of 'midnight', 'noon', '6 am', '22:30', '10pm'; None when not a time of day."""
    if text is None:
        return None
    t = text.strip().lower()
    if t == "midnight":
        return 0.0
    if t == "noon":
        return 12.0
    m = re.fullmatch(r"(\d{1,2})(?::(\d\d))?\s*(am|pm|h)?", t)
    if m is None:
        return None
    hour = int(m.group(1)) % 12 if m.group(3) in ("am", "pm") else int(m.group(1))
    if m.group(3) == "pm":
        hour += 12
    if m.group(3) is None and hour > 23 or hour > 24:
        return None
    return hour + (int(m.group(2)) / 60 if m.group(2) else 0.0)


_DURATION_LABEL = Gated(
    re.compile(
        rf"(?P<num>{NUMBER})[\s-]*(?P<unit>hours?|hrs?|days?|weeks?|months?)[\s-]+(?:timeline|deadline"
        rf"|turnaround"
        rf"|window|time ?frame|schedule|sprint)\b"
        # the time a relaxed asker grants: "no rush, two weeks is fine", "3 days would be OK"
        rf"|(?P<num2>{NUMBER})[\s-]*(?P<unit2>hours?|hrs?|days?|weeks?|months?)\s+(?:is|are|would\s+be|will\s+be)\s+"
        r"(?:totally\s+|perfectly\s+|still\s+)?(?:fine|ok|okay|acceptable|enough)\b",
        I,
    ),
    "timeline",
    "deadline",
    "turnaround",
    "window",
    "frame",
    "schedule",
    "sprint",
    "fine",
    " ok",
    "okay",
    "acceptable",
    "enough",
)
_BARE_DURATION = Gated(
    re.compile(rf"(?P<num>{NUMBER})[\s-]*(?P<unit>hours?|hrs?|days?|weeks?)\b", I),
    "hour",
    "hr",
    "day",
    "week",
)
_DEADLINE_CUE = keyed(
    r"\b(?:deadline|due|need|needs|needed|finish|finished|done|ready|deliver|turnaround|have)\b", I
)
_UNIT = {
    "h": "hour", "hr": "hour", "hrs": "hour", "hour": "hour", "hours": "hour", "day": "day", "days": "day",
    "week": "week", "weeks": "week", "wk": "week", "wks": "week", "month": "month", "months": "month",
    "fortnight": "fortnight", "fortnights": "fortnight",
}  # fmt: skip


def _end_of_day(d: dt.date, tz: dt.tzinfo | None) -> dt.datetime:
    return dt.datetime.combine(d + dt.timedelta(days=1), dt.time(0, 0), tzinfo=tz)


def _next_quarter_start(d: dt.date) -> dt.date:
    start = ((d.month - 1) // 3) * 3 + 1 + 3
    return dt.date(d.year + (start > 12), (start - 1) % 12 + 1, 1)


def rule_deadline(ctx: Ctx) -> None:
    """deadline_hours from weekdays, dates, "end of the month", durations ("within two weeks")."""
    _deadlines(ctx, any(_NO_DEADLINE.search(s.text) for s in ctx.sentences))


@read_once
def _deadlines(ctx: Ctx, no_deadline: bool) -> None:
    """rule_deadline's reading of each sentence (`no_deadline`: a sentence of the text says there is none)."""
    ref = ctx.reference_time
    for s in ctx.sentences:
        if s.start in ctx.claim_sentences:
            continue
        t = s.text
        for m in _BY_WEEKDAY.finditer(t):
            target = [d[:3] for d in _WEEKDAYS].index(m.group("day").lower()[:3])
            days = (target - ref.weekday()) % 7 or 7
            if re.search(r"\bnext\b", m.group(0), I) and days < 7:
                days += 7
            due = _end_of_day(ref.date() + dt.timedelta(days=days), ref.tzinfo)
            said = "end of that day"
            if m.group("when"):  # "by Monday morning": the start of that working day, not its end
                hour = MORNING_HOUR if re.match(r"morning|first|am", m.group("when"), I) else NOON_HOUR
                clock = _clock_hour(re.sub(r"^at\s+", "", m.group("when"), flags=I))  # "by Monday 9am"
                hour = int(clock) if clock is not None else hour
                due = due - dt.timedelta(days=1) + dt.timedelta(hours=hour)
                said = f"{hour:02d}:00 that day"
            conv = U.hours_until(ref, due, f'"{q(m)}" ({said})')
            ctx.add(s, "deadline_hours", conv.value, conv.how, "inferred", m.start())
        for m in _BY_DATE.finditer(t):
            if m.group(0).lower().startswith("on") and (no_deadline or event_date(t, m.start())):
                continue  # "the review board meets on 9 December, but there's no date pressure"
            if m.group("iso"):
                d = dt.date.fromisoformat(m.group("iso"))
            elif (named := date_of(m, ref.date())) is not None:
                d = named
            else:
                continue
            # "before 4 January", "starts on 7 December, so ... ready before then": its start
            at_start = m.group(0).lower().startswith("before") or before_then(t, m.start())
            due = _end_of_day(d - dt.timedelta(days=1) if at_start else d, ref.tzinfo)
            if due <= ref:
                continue
            conv = U.hours_until(ref, due, f'"{q(m)}" ({"start" if at_start else "end"} of that day)')
            ctx.add(s, "deadline_hours", conv.value, conv.how, "inferred", m.start())
        for m in NUMERIC_DATE.finditer(t):
            due_day = numeric_date(m, ref.date())
            if due_day is not None and _end_of_day(due_day, ref.tzinfo) > ref:
                how = f'"{q(m)}" (end of that day; read day/month)'
                conv = U.hours_until(ref, _end_of_day(due_day, ref.tzinfo), how)
                ctx.add(s, "deadline_hours", conv.value, conv.how, "inferred", m.start())
        for m in BY_ORDINAL.finditer(t):
            day = int(m.group("day"))
            on = next((x for x in month_days(ref.date(), day) if _end_of_day(x, ref.tzinfo) > ref), None)
            if on is not None:
                conv = U.hours_until(ref, _end_of_day(on, ref.tzinfo), f'"{q(m)}" (end of that day)')
                ctx.add(s, "deadline_hours", conv.value, conv.how, "inferred", m.start())
        for m in _BY_END.finditer(t):
            what = (m.group("what") or "").lower()
            d = ref.date()
            if m.group("next"):  # move into the next period, then take its end
                d = {
                    "week": d + dt.timedelta(days=7),
                    "month": dt.date(d.year + (d.month == 12), d.month % 12 + 1, 1),
                    "quarter": _next_quarter_start(d),
                    "year": dt.date(d.year + 1, 1, 1),
                }[what]
            if re.search(r"tomorrow|tmrw|tmr|2moro", m.group(0), re.I):
                d = d + dt.timedelta(days=1)
            elif what == "week":
                d = d + dt.timedelta(days=(4 - d.weekday()) % 7)  # Friday
            elif what == "month":
                nxt = dt.date(d.year + (d.month == 12), d.month % 12 + 1, 1)
                d = nxt - dt.timedelta(days=1)
            elif what == "quarter":
                q_end_month = ((d.month - 1) // 3 + 1) * 3
                nxt = dt.date(d.year + (q_end_month == 12), q_end_month % 12 + 1, 1)
                d = nxt - dt.timedelta(days=1)
            elif what == "year":
                d = dt.date(d.year, 12, 31)
            conv = U.hours_until(ref, _end_of_day(d, ref.tzinfo), f'"{q(m)}"')
            ctx.add(s, "deadline_hours", conv.value, conv.how, "inferred", m.start())
        spans: list[tuple[int, int]] = []
        for m in _WITHIN.finditer(t):
            after = t[m.end() : m.end() + 25]
            if re.match(
                # "3 days of training" is compute time; "within 3 days of training finishing" is a deadline
                r"\s*(?:a|per|/|each|every)\s*(?:day|week|month)\b"
                r"|\s+of\s+(?:compute|gpu|training)(?!\s+(?:finish\w*|end\w*|complet\w*|is\s+done|being\s+done))",
                after,
                I,
            ):
                continue
            if re.search(
                r"\b(?:pays?\s+off|break[\s-]?even|amorti[sz])", t[max(0, m.start() - 30) : m.start()], I
            ):
                continue
            if (
                re.search(r"\b(?:runs?|train(?:ing)?s?|experiments?|jobs?)\s+(?:takes?|took|lasts?)\b", t, I)
                and "have" in m.group(0).lower()
            ):
                continue
            unit = _UNIT[m.group("unit").lower()]
            conv = U.hours_from(parse_number(m.group("num")), unit)
            status = "stated" if unit == "hour" else "inferred"
            ctx.add(
                s,
                "deadline_hours",
                conv.value,
                q(m) if status == "stated" else f'"{q(m)}": {conv.how}',
                status,
                m.start(),
            )
            spans.append((m.start(), m.end()))
        for m in _CLOCK_WINDOW.finditer(t):
            start, end = (
                _clock_hour(m.group("a") or m.group("a2")),
                _clock_hour(m.group("b") or m.group("b2")),
            )
            if start is None or end is None:
                continue
            bare = m.group("a2") is not None and m.group("a2").strip().isdigit()
            pm = (m.group("b2") or "").strip().lower().endswith("pm")
            if bare and pm and start < 12 and start + 12 <= end:  # noqa: PLR2004 - noon
                start += 12  # "between 1 and 5pm": 13:00 to 17:00
            conv = U.hours_between_clock(start, end)
            ctx.add(s, "deadline_hours", conv.value, f'"{q(m)}": {conv.how}', "inferred", m.start())
            spans.append((m.start(), m.end()))
        for m in _DURATION_LABEL.finditer(t):
            key = "" if m.group("num") else "2"
            conv = U.hours_from(parse_number(m.group("num" + key)), _UNIT[m.group("unit" + key).lower()])
            ctx.add(s, "deadline_hours", conv.value, f'"{q(m)}": {conv.how}', "inferred", m.start())
            spans.append((m.start(), m.end()))
        if _DEADLINE_CUE.search(t):
            for m in _BARE_DURATION.finditer(t):
                if any(a <= m.start() < b for a, b in spans):
                    continue
                after = t[m.end() : m.end() + 20]
                before = t[max(0, m.start() - 20) : m.start()]
                if re.match(r"\s*(?:a|per|/|each|every|of\s+(?:gpu|compute|training))\b", after, I):
                    continue
                if re.search(
                    r"\b(?:in|takes?|took|for|over|on)\s+$|\b(?:hours?|hrs?|h|minutes?|mins?)\s+$", before, I
                ):
                    continue  # "8 hours a day": a schedule, not a deadline
                unit = _UNIT[m.group("unit").lower()]
                conv = U.hours_from(parse_number(m.group("num")), unit)
                ctx.add(s, "deadline_hours", conv.value, f'"{q(m)}": {conv.how}', "inferred", m.start())
