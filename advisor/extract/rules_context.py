"""Cadence, utilisation and horizon, and inference serving rules (data location: rules_location.py)."""

from __future__ import annotations

import re

from advisor.extract import units_text as U
from advisor.extract.regex_keys import keyed
from advisor.extract.rules_cadence_forms import in_the_past
from advisor.extract.rules_ctx import PROTOTYPE, Ctx, Gated, I, q
from advisor.extract.rules_text import (
    APPROX,
    NUMBER,
    PER_PERIOD_COUNT,
    TOKENS_PER_S,
    TOKENS_PER_S_KEYS,
    parse_count,
    parse_number,
    share_fraction,
)
from advisor.extract.sentence_memo import read_once
from tools.units import tokens_per_s_to_ms_per_token

# a batch of items processed, not people connected: "every night we summarise ~18k calls"
_BATCH_WORDS = re.compile(
    r"\b(?:batch|offline|backfill|every\s+night|nightly|each\s+night|overnight|summari[sz]e|classify|label"
    r"|transcripts?)\b",
    I,
)


def _batch_text(ctx: Ctx) -> bool:
    """Whether the text describes a batch job (its counted calls or chats are items, not open streams)."""
    return any(_BATCH_WORDS.search(s.text) for s in ctx.sentences)


# =========================================================================== cadence, utilisation
_RUN_NOUN = (
    r"(?:experiments?|runs?|training runs?|fine[\s-]?tun(?:es|ing runs?)|jobs?|retrains?|re-trains?"
    r"|iterations)"
)
_CADENCE_NUM = Gated(
    re.compile(
        rf"(?P<num>{NUMBER})\s*(?:\w+\s+){{0,2}}?{_RUN_NOUN}\s*(?:a|per|each|every|/)\s*(?P<per>day|week"
        rf"|month"
        rf"|quarter|year)\b",
        I,
    ),
    "day",
    "week",
    "month",
    "quarter",
    "year",
)
_CADENCE_TIMES = Gated(
    re.compile(
        rf"\b(?P<times>once|twice|thrice|(?:{NUMBER})\s+times)\s+(?:a|per|each|every)\s+(?P<per>day|week"
        rf"|month"
        rf"|quarter|year)\b",
        I,
    ),
    "once",
    "twice",
    "thrice",
    "times",
)
_CADENCE_ADV = Gated(
    re.compile(
        r"\b(?P<adv>daily|nightly|weekly|biweekly|bi-weekly|fortnightly|monthly|quarterly|every (?:day|night"
        r"|week|month|quarter|other week|two weeks))\b",
        I,
    ),
    "ly",
    "every",
)
_ADV: dict[str, tuple[float, str]] = {
    "daily": (1, "day"), "nightly": (1, "day"), "every day": (1, "day"), "every night": (1, "day"),
    "weekly": (1, "week"), "every week": (1, "week"), "biweekly": (0.5, "week"), "bi-weekly": (0.5, "week"),
    "fortnightly": (0.5, "week"), "every other week": (0.5, "week"), "every two weeks": (0.5, "week"),
    "monthly": (1, "month"), "every month": (1, "month"),
    "quarterly": (1, "quarter"), "every quarter": (1, "quarter"),
}  # fmt: skip
_VOLUME_PER = Gated(
    re.compile(
        rf"(?P<num>{NUMBER})\s*(?:[kmbt]|thousand|million|billion|bn)?\s*(?:new\s+|fresh\s+)?tok(?:en)?s?\s+"
        r"(?:a|per|each|every|/)\s*(?P<per>week|month|quarter)\b",
        I,
    ),
    "week", "month", "quarter",
)  # fmt: skip
_BATCH_JOB = re.compile(
    r"\b(?:re-?score|score|label|classify|summari[sz]|translat|backfill|batch|job|re-?run|re-?process)\w*"
    r"|\b(?:each|per|every)\s+run\b",  # "Weekly re-summarisation ...: each run generates ~50M" (evals v16)
    I,
)
_TRAIN_WORD = keyed(r"\b(?:re-?train\w*|train\w*|fine[\s-]?tun\w*|experiments?|runs?|jobs?|lora|qlora)\b", I)


@read_once
def rule_cadence(ctx: Ctx) -> None:
    """runs_per_month from training cadence ("20 experiments a month", "weekly retrain")."""
    # a finding needs one of these to match
    for s in ctx.sentences_with(_CADENCE_NUM, _CADENCE_TIMES, _CADENCE_ADV, _VOLUME_PER):
        t = s.text
        if in_the_past(t):
            continue  # "we used to retrain monthly": not the plan's cadence (rules_cadence_forms)
        if (
            ctx.workload == "inference"
            and not re.search(r"re-?train|fine[\s-]?tun|experiment", t, I)
            and not _BATCH_JOB.search(t)  # "every night we re-score the previous day's reviews"
        ):
            continue
        for m in _CADENCE_NUM.finditer(t):
            per = m.group("per").lower()
            conv = U.runs_per_month_from(parse_number(m.group("num")), per)
            monthly = per == "month"
            ev = q(m) if monthly else f'"{q(m)}": {conv.how}'
            ctx.add(s, "runs_per_month", conv.value, ev, "stated" if monthly else "inferred", m.start())
        if not _TRAIN_WORD.search(t) and not _BATCH_JOB.search(t):
            continue
        for m in _CADENCE_TIMES.finditer(t):
            times = m.group("times").lower()
            n = {"once": 1.0, "twice": 2.0, "thrice": 3.0}.get(times) or parse_number(times.split()[0])
            per = m.group("per").lower()
            conv = U.runs_per_month_from(n, per)
            status = "stated" if per == "month" else "inferred"
            ev = q(m) if status == "stated" else f'"{q(m)}": {conv.how}'
            ctx.add(s, "runs_per_month", conv.value, ev, status, m.start())
        for m in _CADENCE_ADV.finditer(t):
            n, per = _ADV[m.group("adv").lower()]
            conv = U.runs_per_month_from(n, per)
            ctx.add(s, "runs_per_month", conv.value, f'"{q(m)}": {conv.how}', "inferred", m.start())
        # a training volume per period ("about 2B tokens a month" of continuous fine-tunes): the dataset is
        # one period's worth, trained that often
        for m in _VOLUME_PER.finditer(t):
            conv = U.runs_per_month_from(1.0, m.group("per").lower())
            ev = f'"{q(m)}": the data of one {m.group("per").lower()}, {conv.how}'
            ctx.add(s, "runs_per_month", conv.value, ev, "inferred", m.start(), rank=-1)


_PERCENT = Gated(re.compile(r"(?P<num>\d{1,3}(?:\.\d+)?)\s*(?:%|percent)", I), "%", "percent")
_UTIL_CUE = keyed(
    r"\b(?:utili[sz](?:ation|ed)|busy|in use|loaded|occupied|duty cycle|of the time|usage|used"
    r"|(?:average|avg|mean|sustained)\s+load)\b"
    r"|\b24\s*/\s*7\s+(?:at|,)\s|\b(?:running|run|runs)\s+at\s+\d",  # "24/7 at 60%": the load over the week
    I,
)
_FRACTION_TIME = Gated(
    re.compile(
        r"\b(?P<frac>half|a third|a quarter|two thirds|three quarters|most|all)\s+(?:of\s+)?the\s+time\b", I
    ),
    "the time",
)
_IN_USE = re.compile(r"\b(?:gpus?|cluster|servers?|nodes?|use[sd]?|usage|busy|utili\w*|running|run)\b", I)
_FRACTIONS = {"half": 0.5, "a third": 1 / 3, "a quarter": 0.25, "two thirds": 2 / 3, "three quarters": 0.75,
              "most": 0.8, "all": 1.0}  # fmt: skip
_OF_THEM = re.compile(r"\bof\s+(?:them|those|these)\b", I)
_NOT_NEEDED = re.compile(
    r"\b(?:don't|do not|doesn't|does not|won't|will not|no)\s+(?:\w+\s+){0,3}$|\bnot\s+$", I
)
_ALWAYS_ON = Gated(
    re.compile(
        r"\b24\s*[/x×]\s*7\b|\baround the clock\b|\bround the clock\b|\balways[\s-]on\b|\bcontinuously\b", I
    ),
    "24",
    "clock",
    "always",
    "continuous",
)
_SCHEDULE = Gated(
    re.compile(
        rf"(?P<h>{NUMBER})\s*(?:hours?|h|hrs?)\s*(?:a|per|/)\s*day(?:\s*(?:on|,)?\s*(?P<wk>weekdays"
        rf"|work ?days"
        rf"|business days|"
        rf"(?P<d>{NUMBER})\s*days\s*(?:a|per)\s*week))?",
        I,
    ),
    "day",
)
# in use during the working day only ("business hours only is fine", "during office hours"); a stated
# schedule ("10 hours a day") is read by _SCHEDULE instead
_OFFICE_HOURS = Gated(
    re.compile(
        r"\b(?:business|office|working|work)\s+hours\b(?!\s+(?:a|per)\s+(?:day|week))"
        r"|\b(?:9|nine)(?:\s*[-–]\s*|[\s-]+to[\s-]+)(?:5|five)\b"
        r"(?!\s*(?:%|x\b|gpus?|days?|hours?|h\b|k\b|m\b|b\b|bn\b|million|billion|thousand|tok\w*|years?|months?))",
        I,
    ),
    "hours", "9", "nine",
)  # fmt: skip
# the service itself is up that long (not its load: "busy 12 hours a day" runs around the clock)
_UP_FOR = re.compile(
    r"\b(?:runs?|running|(?:is\s+)?(?:online|up|available|open|live|on)|needed|operates?|operating)\s+(?:for\s+|only\s+)?$",
    I,
)
OFFICE_HOURS_PER_DAY = 9.0  # 9 to 6, the usual office day
NINE_TO_FIVE_HOURS_PER_DAY = 8.0  # "9 to 5" said: 09:00 to 17:00 (evals v11: it was read as 9 h)
OFFICE_DAYS_PER_WEEK = 5.0


@read_once
def rule_utilisation(ctx: Ctx) -> None:
    """utilization ("busy 80% of the time", schedules, 24/7); horizon: advisor/extract/rules_horizon.py."""
    # a finding needs one of these to match
    for s in ctx.sentences_with(_PERCENT, _FRACTION_TIME, _SCHEDULE, _OFFICE_HOURS, _ALWAYS_ON):
        t = s.text
        for m in _PERCENT.finditer(t):
            window = t[max(0, m.start() - 40) : m.end() + 30]
            if not _UTIL_CUE.search(window) or re.search(
                r"\b(?:mfu|discount|premium|cheaper|savings?)\b|%\s*off\b", window, I
            ):
                continue
            v = float(m.group("num")) / 100
            if 0 < v <= 1:
                ctx.add(s, "utilization", v, window.strip(), "stated", m.start())
        for m in _FRACTION_TIME.finditer(t):
            window = t[max(0, m.start() - 80) : m.end()]
            if _IN_USE.search(window):
                ctx.add(
                    s, "utilization", _FRACTIONS[m.group("frac").lower()], f'"{q(m)}"', "inferred", m.start()
                )
        for m in _SCHEDULE.finditer(t):
            h = parse_number(m.group("h"))
            days = (
                5.0
                if m.group("wk") and not m.group("d")
                else (parse_number(m.group("d")) if m.group("d") else 7.0)
            )
            if 0 < h <= 24 and re.search(r"\b(?:run|use|serv|inference|busy|online|up)\w*", t, I):
                conv = U.utilization_from_schedule(h, days)
                ctx.add(s, "utilization", conv.value, f'"{q(m)}": {conv.how}', "inferred", m.start())
                if h < 24 and ctx.workload == "inference" and (up := _UP_FOR.search(t, 0, m.start())):
                    # "The service runs 12 hours a day": off the other hours, so rented GPUs stop (evals v18)
                    ev = f'"{q(up)}{q(m)}": up only those hours, rented GPUs stopped outside them'
                    ctx.add(s, "serving_scheduled", True, ev, "inferred", m.start())
        for m in _OFFICE_HOURS.finditer(t):
            said = m.group(0)[:1].isdigit() or m.group(0).lower().startswith("nine")
            day = NINE_TO_FIVE_HOURS_PER_DAY if said else OFFICE_HOURS_PER_DAY
            conv = U.utilization_from_schedule(day, OFFICE_DAYS_PER_WEEK)
            # the assumed office day loses to any share of time the text states ("office hours, which
            # is roughly a third of the time")
            ctx.add(s, "utilization", conv.value, f'"{q(m)}": {conv.how}', "inferred", m.start(), rank=-1)
        for m in _ALWAYS_ON.finditer(t):
            if _NOT_NEEDED.search(t[max(0, m.start() - 40) : m.start()]):
                continue  # "we don't need it 24/7 - only office hours"
            if ctx.workload == "inference" or re.search(
                r"\b(?:serv|inference|service|endpoint|runs?)\w*", t, I
            ):
                ctx.add(s, "utilization", 1.0, f'"{q(m)}" -> in use all the time', "inferred", m.start())


# =========================================================================== inference serving
_CONC = Gated(
    re.compile(
        rf"(?P<num>{NUMBER})\s*(?P<mult>k)?\+?\s*(?:(?:concurrent|simultaneous|parallel|active|live)\s+(?:\w+\s+)?(?:users?"
        rf"|requests?|sessions?|"
        rf"sequences?|connections?|streams?|chats?|conversations?|calls)|(?:[a-z]\w*\s+)?(?:users?|requests?|sessions?"
        rf"|streams|calls|chats|conversations"
        rf"|people|employees|analysts|agents|developers|devs|engineers|customers|handlers|lawyers|staff|seats"
        rf"|clinicians|doctors|nurses|students|reps|operators|translators|writers|members|colleagues"
        # more people a service has at once (evals v18: "~60 guests chatting at once")
        rf"|guests|visitors|clients|patients|players|learners|shoppers|buyers|viewers|callers|officers|citizens"
        rf"|residents|tenants|subscribers|attendees|participants|pupils|teachers|partners"
        # people by their job ("25 radiologists at once", "60 of them hit the bot at the same time")
        rf"|[a-z]{{3,}}(?:ists|ians|ers|ors|ants|ents)|of\s+(?:them|those|these))\s+"
        rf"(?:\w+\s+){{0,4}}?"
        rf"(?:at\s+(?:the\s+same|any|one|a)\s+time|concurrently|simultaneously|in\s+parallel|at\s+once"
        rf"|(?:at|during|in)\s+(?:the\s+)?(?:peak|busy\s+(?:times?|hours?))\b"
        rf"|at\s+any\s+(?:given\s+)?(?:moment|one\s+time|point))|"
        # "~25 active at once" (expert review 7, R11)
        rf"(?:concurrent|simultaneous|parallel)(?:ly)?\b|(?:(?:active|online)\s+)?(?:at\s+the\s+same\s+time|at\s+once))"
        rf"|\b(?:concurrency\s*(?:of|:|=|is)?"
        # a key and its value, as a table row reads (rd12): "concurrent users (peak): 350"
        rf"|(?:concurrent|simultaneous|parallel)\s+(?:users?|requests?|sessions?|streams?|connections?|chats?"
        rf"|conversations?)(?:\s*\([^()]{{0,20}}\))?\s*(?::|=|\bis\b|\bare\b))\s*(?P<num2>{NUMBER})",
        I,
    ),
    "concurren",
    "simultan",
    "parallel",
    "same time",
    "at once",
    "active",
    "live",
    "at a time",
    "peak",
    "busy",
)
# the share of the users active at once, said after them: "a fifth of them active at once", "10% online"
_ACTIVE_SHARE = re.compile(
    r"\b(?P<share>a\s+fifth|a\s+quarter|a\s+third|a\s+tenth|half|\d{1,2}(?:\.\d+)?\s*%|one\s+in\s+"
    r"(?:three|four|five|ten|\d+))\s+(?:of\s+(?:them|those|these|the\s+\w+)\s+)?(?:are\s+|is\s+|will\s+be\s+"
    r"|being\s+)?(?:active|online|concurrent(?:ly)?|simultaneous(?:ly)?|at\s+once|at\s+the\s+same\s+time"
    r"|at\s+peak|at\s+any\s+(?:one\s+)?time|using\s+it\s+at\s+once)",
    I,
)


_PER_PERIOD_AFTER = re.compile(PER_PERIOD_COUNT, I)
_USERS = Gated(
    re.compile(
        rf"\b(?:for|serve|serving|support|handle|to)\s+(?:(?:all\s+)?(?:our|the|its|their)\s+)?{APPROX}"
        rf"(?P<num>{NUMBER})\s*(?P<mult>k)?\+?\s*"
        rf"(?:(?:internal|active|daily|external|paying|concurrent|simultaneous)\s+)?(?:users"
        rf"|requests|customers|clients|people|employees|staff|analysts|engineers|developers|devs|agents|lawyers"
        rf"|colleagues|clinicians|doctors|nurses|students|seats)\b|(?P<num2>{NUMBER})\s+users\b"
        rf"|(?P<num3>{NUMBER})\s+(?:people|employees|staff|analysts|engineers|developers|devs|agents|lawyers"
        rf"|clinicians|students)\s+"
        rf"(?:will\s+|would\s+|can\s+)?(?:use|chat|query|ask|access)\w*",
        I,
    ),
    "user",
    "request",
    "customer",
    "client",
    "people",
    "employee",
    "staff",
    "analyst",
    "engineer",
    "developer",
    "agent",
    "lawyer",
    "colleague",
    "devs",
    "clinician",
    "doctor",
    "nurse",
    "student",
    "seats",
)
# a population counted on its own, whose active share the same sentence gives (see _ACTIVE_SHARE)
_POPULATION = re.compile(
    rf"(?P<num>{NUMBER})\s*(?P<mult>k)?\+?\s+(?:\w+\s+)?(?:users|devs|developers|engineers|employees|staff|people"
    r"|clinicians|students|agents|analysts|seats|customers)\b",
    I,
)
# "40 streams at peak", "up to 64 calls": for a serving workload, streams or calls open together
_STREAMS = Gated(
    re.compile(rf"(?P<num>{NUMBER})\s*(?P<mult>k)?\+?\s+(?:\w+\s+)?(?:streams|calls|voice\s+sessions)\b", I),
    "stream", "call", "session",
)  # fmt: skip
# "20 tokens per stream per second", "30 tok per user per sec": a speed each stream needs (a latency)
_RATE_PER_STREAM = Gated(
    re.compile(
        rf"(?P<num>{NUMBER})\+?\s*(?:output\s+)?(?:tokens?|toks?)\s*(?:/|per|a|an|each)\s*(?:stream|user|session"
        r"|call|caller|conversation|request|chat)\s*(?:/|per|a|an|each)\s*s(?:ec(?:ond)?)?\b"
        # the other order: "30 tokens per second per chat"
        rf"|(?P<num2>{NUMBER})\+?\s*(?:output\s+)?{TOKENS_PER_S}"
        r"\s*(?:(?:/|per|a|an|each|for\s+each|in\s+each)\s*(?:stream|user|session|call|caller|conversation|request"
        r"|chat)\b|each\b)",
        I,
    ),
    *TOKENS_PER_S_KEYS,
)
_LATENCY = Gated(
    re.compile(
        rf"(?P<num>{NUMBER})\s*(?:ms|milliseconds?)\s*(?:/|per|between|for\s+each|each)\s*(?:generated\s+|output\s+)?"
        rf"tok(?:en)?s?\b"  # "<=30ms/tok" (evals v12 Slack one-liner)
        rf"|(?:(?<!first[\s-]token\s)latency|tpot|itl|time per (?:output )?token"
        rf"|inter-token latency)\b[^.]{{0,30}}?(?P<num2>{NUMBER})\s*(?:ms|milliseconds?)\b(?!\s*(?:to|for)\s+"
        rf"(?:the\s+)?first)",
        I,
    ),
    "ms",
    "millisec",
)
_PER_TOKEN_WORD = re.compile(r"\b(?:tpot|itl|per\s+(?:output\s+)?token|inter-token|between\s+tokens)\b", I)
_RATE_TOKENS = Gated(
    re.compile(
        rf"(?P<num>{NUMBER})\s*(?P<mult>k|thousand)?\s*(?:output\s+|generated\s+|new\s+)?{TOKENS_PER_S}"
        rf"(?=(?P<tail>[^.;]{{0,30}}))",  # a look-ahead: a second rate in the tail is read on its own
        I,
    ),
    *TOKENS_PER_S_KEYS,
)
# "~400 users at peak, each should get at least 25 tok/s": the rate is each one's
# a rate the team had or has, not the one asked for: "last year we did 500 tok/s", "the old cluster
# peaked at 900 tokens/s", "we're currently getting ~300 t/s" (no clause break between cue and figure)
_PAST_RATE = re.compile(
    r"\b(?:last\s+(?:year|quarter|month|week)|previously|used\s+to|(?:we|it|they)\s+(?:did|had|got|managed|hit)"
    r"|(?:old|previous|current|existing)\s+(?:setup|cluster|system|deployment|stack|box|server)"
    r"|peaked|currently|right\s+now|today\s+(?:we|it))\b"
    r"(?:(?!\b(?:need|want|target|requir|must|should|and)\w*)[^.;,\d]){0,30}$",  # "currently need 1200 tok/s"
    I,
)
# "40 users x 50 tok/s", "100 sessions @ 20 t/s": a count times each one's speed (rd15)
_COUNT_TIMES = re.compile(r"\b(?:users?|streams?|sessions?|seats?|people|customers|agents)\s*[x×*@]\s*$", I)
_EACH_GETS = re.compile(
    # any one of them ("each shopper should see text at 30 tokens per second"), not a time ("every night")
    r"\b(?:each|every)\s+(?:(?!(?:night|day|week|month|hour|morning|evening|run|batch|job)\b)[a-z][\w-]*)?\s*"
    r"(?:should|must|shall|will|needs?|gets?|wants?)\b[^.;]{0,25}$",
    I,
)
_PER_USER = keyed(
    r"^\W*(?:or\s+(?:faster|more|better|above|higher)\s+)?(?:for\s+)?(?:(?:per|each|every|a|/"
    # "100 tok/s for one user", "for a single user", "single-stream" (expert review 7, R15)
    r"|one|1|(?:a\s+)?single[\s-]*)\s*(?:user|sequence"
    r"|request|stream|session|conversation|chat|call"
    r"|person|reader|customer|caller)"
    r"|each\b)",
    I,
)


# one stream at a time: "at 100 tok/s for one user", "for a single user", "single-user speed" (expert
# review 7, R15): a concurrency of 1, not the 8 sequences assumed (not "one user per day", "a single
# user-facing app")
_ONE_USER = keyed(
    r"\b(?:(?:for|with|by|to|serving|serve)\s+(?:just\s+|only\s+)?(?:one|a\s+single|1|a\s+lone)\s+"
    r"(?:user|person|stream|request|conversation|chat|session|caller)|single[\s-](?:user|stream))\b"
    r"(?![\s-]*(?:facing|base|interface|per\b|a\s+(?:day|week|month)|each|every|at\s+a\s+time\s+per))",
    I,
)


# a request count per period inside a concurrency match: an arrival rate ("100 requests per minute at peak",
# expert review 19, R09), which rules_serving_io reads and tools/recommend/rate_load.py turns into the
# requests in flight (Little's law); not a number of requests open at once
_REQUEST_RATE_IN = re.compile(rf"\b(?:requests?|reqs?|queries|calls|prompts)(?:{PER_PERIOD_COUNT})", I)
# people working on the project together are a team, not concurrent users of a service
_TEAM_AT_WORK = re.compile(r"\b(?:work(?:s|ing)?|collaborat\w*|contribut\w*)\s+(?:on|together|in)\b", I)
_USE_VERB = re.compile(r"\b(?:use|using|uses|query|querying|chat\w*|hit|call\w*|ask\w*|send\w*)\b", I)


def rule_serving(ctx: Ctx) -> None:
    """concurrency, latency_ms_per_token (also from per-user tokens/s), target_tokens_per_s."""
    # whether the text describes a batch job (_batch_text): a property of the whole text, read once
    _serving_sentences(ctx, _batch_text(ctx) if ctx.workload == "inference" else None)


@read_once
def _serving_sentences(ctx: Ctx, batch: bool | None) -> None:
    """rule_serving's reading of each sentence (`batch`: the text describes a batch job; None: not asked)."""
    # a finding needs one of these to match
    entries = (_CONC, _STREAMS, _USERS, _ONE_USER, _ACTIVE_SHARE, _RATE_PER_STREAM, _LATENCY, _RATE_TOKENS)
    for s in ctx.sentences_with(*entries):
        t = s.text
        conc_spans: list[int] = []
        for m in _CONC.finditer(t):
            num = m.group("num") or m.group("num2")
            if _OF_THEM.search(m.group(0)) and not any(c.isdigit() for c in num or ""):
                continue  # "a fifth of them active at once": a share, read below with its total
            if _TEAM_AT_WORK.search(t[m.start() : m.end() + 30]) and not _USE_VERB.search(m.group(0)):
                continue  # "4 people at the same time work on it": the team, not users (issue 12)
            if _REQUEST_RATE_IN.search(m.group(0)):
                continue  # "100 requests per minute at peak": a rate (rules_request_rate), not in flight
            v = (parse_count(num) if not m.group("mult") else parse_number(num)) * (
                1000 if m.group("mult") else 1
            )
            if v >= 1:
                ctx.add(s, "concurrency", int(v), q(m), "stated", m.start())
                conc_spans.append(m.start())
        if ctx.workload == "inference" and not conc_spans and not batch:
            for m in _STREAMS.finditer(t):
                if re.match(r"\s*(?:a|per|/|an)\s+(?:day|week|month|hour)", t[m.end() : m.end() + 12], I):
                    continue  # "5,000 calls a day": a volume, not streams open at once
                v = (parse_count(m.group("num")) if not m.group("mult") else parse_number(m.group("num"))) * (
                    1000 if m.group("mult") else 1
                )
                if v >= 1:
                    ev = f'"{q(m)}" read as streams open at once'
                    ctx.add(s, "concurrency", int(v), ev, "inferred", m.start())
                    conc_spans.append(m.start())
        if ctx.workload == "inference" and not conc_spans:
            for m in _USERS.finditer(t):
                if re.search(r"\b(?:employees|staff)\b", t[m.end() : m.end() + 15], I):
                    continue
                if _PER_PERIOD_AFTER.match(t, m.end()) or re.search(r"\bdaily\b", m.group(0), I):
                    continue  # "500 users per day", "2000 daily users": a day's count, not at once (review 7)
                num = m.group("num") or m.group("num2") or m.group("num3")
                v = (parse_count(num) if not m.group("mult") else parse_number(num)) * (
                    1000 if m.group("mult") else 1
                )
                share = _ACTIVE_SHARE.search(t, m.end())
                if share:  # "300 engineers, maybe a fifth of them active at once": 60 at once
                    f = share_fraction(share.group("share"))
                    ev = f'"{q(m)}" x "{q(share)}" = {v * f:,.0f} at once'
                    ctx.add(s, "concurrency", max(1, round(v * f)), ev, "inferred", m.start())
                    continue
                ctx.add(s, "concurrency", int(v), f'"{q(m)}" read as concurrent users', "inferred", m.start())
                conc_spans.append(m.start())
        if ctx.workload == "inference" and not conc_spans and (one := _ONE_USER.search(t)) is not None:
            ctx.add(s, "concurrency", 1, f'"{q(one)}" read as one stream at a time', "inferred", one.start())
            conc_spans.append(one.start())
        if ctx.workload == "inference" and not conc_spans and (share := _ACTIVE_SHARE.search(t)) is not None:
            # "1,200 devs, and at peak we see about 15% of them active at the same moment": 180 at once
            pop = [p for p in _POPULATION.finditer(t, 0, share.start())]
            if pop:
                m = pop[-1]
                v = parse_count(m.group("num")) * (1000 if m.group("mult") else 1)
                f = share_fraction(share.group("share"))
                ev = f'"{q(m)}" x "{q(share)}" = {v * f:,.0f} at once'
                ctx.add(s, "concurrency", max(1, round(v * f)), ev, "inferred", m.start())
        for m in _RATE_PER_STREAM.finditer(t):
            v = parse_number(m.group("num") or m.group("num2"))
            # a serving claim's per-user speed is the speed the check tests (review 7, R15)
            if v > 0 and (s.start not in ctx.claim_sentences or ctx.workload == "inference"):
                ms = tokens_per_s_to_ms_per_token(v)
                ev = f'"{q(m)}": 1000 ms / {v:g} tokens/s = {ms:.1f} ms/token'
                ctx.add(s, "latency_ms_per_token", ms, ev, "inferred", m.start())
        for m in _LATENCY.finditer(t):
            v = parse_number(m.group("num") or m.group("num2"))
            if m.group("num2") and v >= U.REQUEST_LATENCY_MIN_MS and not _PER_TOKEN_WORD.search(m.group(0)):
                continue  # "p95 latency under 800 ms": a request's latency (rules_serving_io's end to end)
            if v > 0:
                ctx.add(s, "latency_ms_per_token", v, q(m), "stated", m.start())
        for m in [] if PROTOTYPE.search(t) else _RATE_TOKENS.finditer(t):  # a prototype's speed: no target
            v = parse_number(m.group("num")) * (1000 if m.group("mult") else 1)
            tail = m.group("tail") or ""
            before = t[max(0, m.start() - 30) : m.start()]
            # "for one user at 100 tokens per second": one stream's rate is its user's speed
            per_user = bool(_PER_USER.match(tail) or _ONE_USER.search(before))
            if s.start in ctx.claim_sentences and not (per_user and ctx.workload == "inference"):
                continue  # a claim's rate is the claim's, except a serving claim's per-user speed (R15)
            if _PAST_RATE.search(t, max(0, m.start() - 45), m.start()):
                continue  # "last year we did 500 tok/s, now we need 2000 tok/s": the old rate is no target
            if (
                per_user
                or re.search(r"\b(?:per|each|every)\s+(?:user|sequence|request|stream)\b", tail[:20], I)
                or re.search(
                    r"\b(?:each|every|per)[\s-]+(?:user|person|stream|session)\b[^.;]{0,25}$", before, I
                )
                # "~400 users at peak, each should get at least 25 tok/s"
                or _EACH_GETS.search(t, max(0, m.start() - 60), m.start())
                or _COUNT_TIMES.search(before)
                # how fast the answer streams to a reader: "complain when it streams slower than ~15 tokens a
                # second", "it should stream at 30 tok/s"
                or re.search(r"\bstream(?:s|ing|ed)?\s+(?:\w+\s+){0,5}$", before, I)
            ):
                ms = tokens_per_s_to_ms_per_token(v)
                ev = f'"{q(m)}": 1000 ms / {v:g} tokens/s = {ms:.1f} ms/token'
                ctx.add(s, "latency_ms_per_token", ms, ev, "inferred", m.start())
            elif (
                re.search(
                    r"\b(?:aggregate|total|overall|throughput|in total|combined|across)\b",
                    tail + " " + before,
                    I,
                )
                or ctx.workload == "inference"
            ):
                ctx.add(s, "target_tokens_per_s", v, q(m), "stated", m.start())
