"""Data location, cadence, utilisation and horizon, inference serving, constraints (EU, operations,
objective, providers) and claim rules."""

from __future__ import annotations

import re

from advisor.extract import units_text as U
from advisor.extract.rules_ctx import Ctx, Gated, I, negated, q
from advisor.extract.rules_models import GPU_RE, HYPERSCALERS, find_providers, resolve_gpu
from advisor.extract.rules_text import (
    APPROX,
    NUMBER,
    RANGE_FROM,
    Sentence,
    parse_number,
)

# =========================================================================== data location
_LOCATIONS = (
    (
        re.compile(
            r"\b(?:s3|amazon s3|aws s3|s3 bucket)\b|\b(?:data|dataset|corpus|bucket)\b[^.]{0,30}\b(?:on"
            r"|in) aws\b",
            I,
        ),
        "aws",
    ),
    (
        re.compile(
            r"\b(?:gcs|google cloud storage|gs://)|\b(?:data|dataset|corpus|bucket)\b[^.]{0,30}\b(?:on"
            r"|in) (?:gcp|google cloud)\b",
            I,
        ),
        "gcp",
    ),
    (
        re.compile(
            r"\b(?:azure blob(?: storage)?|adls|azure data lake|azure storage)\b|\b(?:data|dataset"
            r"|corpus)\b[^.]{0,30}\b(?:on|in) azure\b",
            I,
        ),
        "azure",
    ),
    (
        re.compile(
            r"\b(?:on[\s-]?prem(?:ise|ises)?|our own (?:nas|servers?|storage|data ?cent(?:er"
            r"|re))|"
            r"nas\b|local (?:file ?system|disks?|storage)|university cluster)",
            I,
        ),
        "on_prem",
    ),  # fmt: skip
)
_AWS_REGION = re.compile(
    r"\b(?:us|eu|ap|sa|ca|me|af|il|mx)-(?:east|west|north|south|central|northeast|southeast|northwest"
    r"|southwest)-\d\b",
    I,
)
_GCP_REGION = re.compile(
    r"\b(?:us|europe|asia|australia|northamerica|southamerica|me|africa)-(?:west|east|central|north|south"
    r"|northeast|southeast|southwest|northwest)\d{1,2}\b",
    I,
)
_AZURE_REGION = re.compile(
    r"\b(?:westeurope|northeurope|eastus2?|westus[23]?|centralus|southcentralus|northcentralus|uksouth"
    r"|ukwest|"
    r"francecentral|germanywestcentral|swedencentral|switzerlandnorth|norwayeast|polandcentral|italynorth|"
    r"spaincentral|westcentralus|canadacentral|japaneast|australiaeast|southeastasia|eastasia"
    r"|centralindia)\b",
    I,
)
_DATA_CONTEXT = re.compile(
    r"\b(?:data(?!\s+scien)|dataset|corpus|stored|storage|sits|lives|bucket|files|text|nas)\b", I
)


def rule_location(ctx: Ctx) -> None:
    """data_location and data_region from storage names (S3, GCS, Azure Blob, on-prem) and regions."""
    for s in ctx.sentences:
        t = s.text
        for rx, loc in _LOCATIONS:
            for m in rx.finditer(t):
                if negated(t, m.start()):
                    continue
                if loc == "on_prem" and not _DATA_CONTEXT.search(t):
                    continue
                ctx.add(s, "data_location", loc, q(m), "stated", m.start())
        for rx, loc in ((_AWS_REGION, "aws"), (_GCP_REGION, "gcp"), (_AZURE_REGION, "azure")):
            for m in rx.finditer(t):
                ctx.add(s, "data_region", m.group(0).lower(), q(m), "stated", m.start())
                if not ctx.has("data_location"):
                    ctx.add(s, "data_location", loc, f'region "{q(m)}" -> {loc}', "inferred", m.start())
        if re.search(
            r"\b(?:cache[sd]?|copy|copied)\b[^.]{0,40}\b(?:once|after the first pull|locally)\b", t, I
        ):
            ctx.add(s, "data_cached", True, t, "stated")


# =========================================================================== cadence, utilisation, horizon
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
_TRAIN_WORD = re.compile(
    r"\b(?:re-?train\w*|train\w*|fine[\s-]?tun\w*|experiments?|runs?|jobs?|lora|qlora)\b", I
)


def rule_cadence(ctx: Ctx) -> None:
    """runs_per_month from training cadence ("20 experiments a month", "weekly retrain")."""
    for s in ctx.sentences:
        t = s.text
        if ctx.workload == "inference" and not re.search(r"re-?train|fine[\s-]?tun|experiment", t, I):
            continue
        for m in _CADENCE_NUM.finditer(t):
            per = m.group("per").lower()
            conv = U.runs_per_month_from(parse_number(m.group("num")), per)
            monthly = per == "month"
            ev = q(m) if monthly else f'"{q(m)}": {conv.how}'
            ctx.add(s, "runs_per_month", conv.value, ev, "stated" if monthly else "inferred", m.start())
        if not _TRAIN_WORD.search(t):
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


_PERCENT = Gated(re.compile(r"(?P<num>\d{1,3}(?:\.\d+)?)\s*(?:%|percent)", I), "%", "percent")
_UTIL_CUE = re.compile(
    r"\b(?:utili[sz](?:ation|ed)|busy|in use|loaded|occupied|duty cycle|of the time|usage|used)\b", I
)
_FRACTION_TIME = Gated(
    re.compile(
        r"\b(?P<frac>half|a third|a quarter|two thirds|three quarters|most|all)\s+(?:of\s+)?the\s+time\b", I
    ),
    "the time",
)
_FRACTIONS = {"half": 0.5, "a third": 1 / 3, "a quarter": 0.25, "two thirds": 2 / 3, "three quarters": 0.75,
              "most": 0.8, "all": 1.0}  # fmt: skip
_ALWAYS_ON = Gated(
    re.compile(
        r"\b24\s*/\s*7\b|\baround the clock\b|\bround the clock\b|\balways[\s-]on\b|\bcontinuously\b", I
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
_HORIZON = Gated(
    re.compile(
        rf"\b(?:over|across|for\s+the\s+next|in\s+the\s+next|next|horizon\s+of|pays?\s+off\s+(?:with)?in"
        rf"|break[\s-]?even\s+(?:with)?in|"
        rf"amorti[sz]ed?\s+over|depreciat\w+\s+over|lifetime\s+of|for)\s+(?:a\s+"
        rf"|the\s+)?{APPROX}{RANGE_FROM}(?P<num>{NUMBER})[\s-]*"
        rf"(?P<unit>years?|yrs?|months?)\b(?P<tail>[\s-]*horizon)?"
        rf"|(?P<num2>{NUMBER})[\s-]*(?P<unit2>years?|months?)[\s-]+(?:planning\s+)?horizon\b"
        rf"|\b(?:contract|commitment|lease|term|agreement|reservation)\s+(?:runs?|of|for|is|lasts?"
        rf"|covers?)\s+"
        rf"(?:for\s+)?{APPROX}(?P<num3>{NUMBER})[\s-]*(?P<unit3>years?|months?)\b",
        I,
    ),
    "year",
    "month",
    "horizon",
    "yr",
)


def rule_utilisation(ctx: Ctx) -> None:
    """utilization ("busy 80% of the time", schedules, 24/7) and horizon_months ("over 3 years")."""
    for s in ctx.sentences:
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
            window = t[max(0, m.start() - 40) : m.end()]
            if re.search(r"\b(?:gpus?|cluster|servers?|nodes?|use|busy|utili|running|run)\b", window, I):
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
        for m in _ALWAYS_ON.finditer(t):
            if ctx.workload == "inference" or re.search(
                r"\b(?:serv|inference|service|endpoint|runs?)\w*", t, I
            ):
                ctx.add(s, "utilization", 1.0, f'"{q(m)}" -> in use all the time', "inferred", m.start())
        for m in _HORIZON.finditer(t):
            num = m.group("num") or m.group("num2") or m.group("num3")
            unit = (m.group("unit") or m.group("unit2") or m.group("unit3")).lower()
            bare_for = re.match(r"for\s+(?!the\s+next)", m.group(0), I) is not None
            if (
                bare_for
                and not m.group("tail")
                and not re.search(r"\b(?:horizon|buy|rent|own|amorti|lease)\w*", t, I)
            ):
                continue
            conv = U.months_from(parse_number(num), "year" if unit.startswith("y") else "month")
            status = "stated" if unit.startswith("month") else "inferred"
            ctx.add(
                s,
                "horizon_months",
                conv.value,
                q(m) if status == "stated" else f'"{q(m)}": {conv.how}',
                status,
                m.start(),
            )


# =========================================================================== inference serving
_CONC = Gated(
    re.compile(
        rf"(?P<num>{NUMBER})\s*(?P<mult>k)?\+?\s*(?:(?:concurrent|simultaneous|parallel|active)\s+(?:users?"
        rf"|requests?|sessions?|"
        rf"sequences?|connections?|streams?|chats?|conversations?)|(?:users?|requests?|sessions?|people"
        rf"|employees|analysts|agents|developers|customers)\s+(?:\w+\s+){{0,3}}?"
        rf"(?:at\s+(?:the\s+same|any|one)\s+time|concurrently|simultaneously|in\s+parallel|at\s+once)|"
        rf"(?:concurrent|simultaneous|parallel)(?:ly)?\b|at\s+the\s+same\s+time|at\s+once)"
        rf"|\bconcurrency\s*(?:of|:|=|is)?\s*(?P<num2>{NUMBER})",
        I,
    ),
    "concurren",
    "simultan",
    "parallel",
    "same time",
    "at once",
    "active",
)
_USERS = Gated(
    re.compile(
        rf"\b(?:for|serve|serving|support|handle|to)\s+{APPROX}(?P<num>{NUMBER})\s*(?P<mult>k)?\+?\s*"
        rf"(?:(?:internal|active|daily|external|paying|concurrent|simultaneous)\s+)?(?:users"
        rf"|requests|customers|clients|people)\b|(?P<num2>{NUMBER})\s+users\b",
        I,
    ),
    "user",
    "request",
    "customer",
    "client",
    "people",
)
_LATENCY = Gated(
    re.compile(
        rf"(?P<num>{NUMBER})\s*(?:ms|milliseconds?)\s*(?:/|per)\s*(?:output\s+)?token"
        rf"|(?:latency|tpot|time per (?:output )?token"
        rf"|inter-token latency)\b[^.]{{0,30}}?(?P<num2>{NUMBER})\s*(?:ms|milliseconds?)\b",
        I,
    ),
    "ms",
    "millisec",
)
_RATE_TOKENS = Gated(
    re.compile(
        rf"(?P<num>{NUMBER})\s*(?P<mult>k)?\s*(?:output\s+)?(?:tokens?|tok)\s*(?:/\s*s(?:ec)?"
        rf"|per\s+s(?:ec(?:ond)?)?|a\s+second)\b"
        rf"(?P<tail>[^.;]{{0,30}})",
        I,
    ),
    "tok",
)
_PER_USER = re.compile(
    r"^\W*(?:for\s+)?(?:per|each|every|a|/)\s*(?:user|sequence|request|stream|session|conversation)", I
)


def rule_serving(ctx: Ctx) -> None:
    """concurrency, latency_ms_per_token (also from per-user tokens/s), target_tokens_per_s."""
    for s in ctx.sentences:
        t = s.text
        conc_spans: list[int] = []
        for m in _CONC.finditer(t):
            num = m.group("num") or m.group("num2")
            v = parse_number(num) * (1000 if m.group("mult") else 1)
            if v >= 1:
                ctx.add(s, "concurrency", int(v), q(m), "stated", m.start())
                conc_spans.append(m.start())
        if ctx.workload == "inference" and not conc_spans:
            for m in _USERS.finditer(t):
                if re.search(r"\b(?:employees|staff)\b", t[m.end() : m.end() + 15], I):
                    continue
                num = m.group("num") or m.group("num2")
                v = parse_number(num) * (1000 if m.group("mult") else 1)
                ctx.add(s, "concurrency", int(v), f'"{q(m)}" read as concurrent users', "inferred", m.start())
        for m in _LATENCY.finditer(t):
            v = parse_number(m.group("num") or m.group("num2"))
            if v > 0:
                ctx.add(s, "latency_ms_per_token", v, q(m), "stated", m.start())
        for m in _RATE_TOKENS.finditer(t):
            v = parse_number(m.group("num")) * (1000 if m.group("mult") else 1)
            tail = m.group("tail") or ""
            before = t[max(0, m.start() - 30) : m.start()]
            if s.start in ctx.claim_sentences:
                continue
            if _PER_USER.match(tail) or re.search(
                r"\b(?:per|each|every)\s+(?:user|sequence|request|stream)\b", tail[:20], I
            ):
                ms = 1000.0 / v
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


# =========================================================================== constraints
_EU = re.compile(
    r"\b(?:eu[\s-]only|eu[\s-]based|eu[\s-](?:headquartered|owned)|european[\s-](?:headquartered|owned)"
    r"|(?:eu|european) (?:data )?sovereign\w*|eu data residency|data residency|gdpr|schrems|within the (?:eu"
    r"|european union|eea)|"
    r"(?:stay|remain|be processed|be hosted|be stored|kept|stays|remains)\s+(?:with)?in\s+(?:the\s+)?(?:eu"
    r"|european union|eea|europe)|"
    r"(?:leave|leaves|leaving)\s+(?:the\s+)?(?:eu|european union|eea|europe)|european (?:providers?"
    r"|clouds?|data ?cent(?:er|re)s?) only|"
    r"(?:eu|european) (?:regions?|hosting|data ?cent(?:er|re)s?|providers?) only|"
    r"only (?:eu|european) (?:providers?|regions?|clouds?|data ?cent(?:er|re)s?)"
    r"|(?:outside|only in|exclusively in|hosted in|processed in)\s+(?:the\s+)?(?:eu|european union"
    r"|eea)\b(?!-))",
    I,
)
_EU_NO = re.compile(
    r"\b(?:no|not|don't need|doesn't need|without)\s+(?:an?\s+)?(?:eu|gdpr|data residency)\b"
    r"|\bnot eu[\s-]only\b",
    I,
)
_OPS_NONE = re.compile(
    r"\b(?:no|without(?:\s+an?)?|zero|lack\s+(?:an?\s+)?|don't have (?:an?\s+)?|do not have (?:an?\s+)?)\s*"
    r"(?:dedicated\s+|in-house\s+|real\s+)?(?:infra(?:structure)?|devops|dev ops|ops|operations|mlops"
    r"|platform|sre|"
    r"it|sysadmin|cluster)\s*(?:team|staff|people|engineers?|support|capacity|experience|person|folks)?\b"
    r"|\b(?:don't|do not|can't|cannot)\s+(?:want to\s+)?(?:manage|run|operate"
    r"|maintain)\s+(?:our own\s+)?(?:infra|infrastructure|servers|clusters?|hardware)\b"
    r"|\bfully managed\b",
    I,
)
_OPS_LIMITED = re.compile(
    r"\b(?:one|a single|1|a)\s+(?:part[\s-]time\s+)?(?:devops|ops|sre|infra(?:structure)?|platform"
    r"|mlops)\s*(?:engineer|person|guy)?\b"
    r"|\blimited\s+(?:ops|operations|devops|infra)\b|\bpart[\s-]time\s+(?:ops|devops|sre|admin)\b",
    I,
)
_OPS_DEDICATED = re.compile(
    rf"\b(?:(?:{NUMBER})[\s-]*(?:person|people)\s+)?(?:infra(?:structure)?|devops|ops|platform|sre|mlops"
    rf"|hpc)\s+team\b"
    rf"|\b(?:{NUMBER})\s+(?:sres|devops engineers|infra engineers|platform engineers)\b|\bsres\b"
    r"|\brun(?:s|ning)?\s+(?:our own\s+)?(?:kubernetes|slurm|k8s)\b|\bhave run\s+\w+\s+clusters\b",
    I,
)
_OBJ_CHEAP = re.compile(
    r"\b(?:as cheap(?:ly)? as possible|cheapest|lowest[\s-]cost|least expensive"
    r"|minimi[sz]e (?:the )?costs?|keep (?:the )?costs? (?:down|low)|cost is (?:what|all) (?:matters"
    r"|we care)|budget[\s-]conscious|not in a hurry|cost matters (?:most|more)|cost is (?:the )?(?:priority"
    r"|more important|king)|price matters (?:most|more)|cheaper is better|on a shoestring)\b",
    I,
)
_OBJ_FAST = re.compile(
    r"\b(?:as fast as possible|fastest|as quickly as possible|quickest|speed matters|time matters most"
    r"|asap|time[\s-]to[\s-]result|money is no object|cost is no (?:object|issue)|speed (?:is the priority"
    r"|is more important|matters more)|time is (?:critical|of the essence|more important))\b",
    I,
)
_PREFER = re.compile(
    r"\b(?:prefer\w*|first choices?|would like to use|we'd like to use|like to use|favou?r|have credits"
    r"|credits (?:on|with)|happy with|our (?:usual|current) provider|if we rent)\b",
    I,
)
_EXCLUDE = re.compile(
    r"\b(?:not|no|anything but|except|avoid|excluding|exclude|can't use|cannot use|can not use"
    r"|not allowed to use|won't use|will not use|don't want|never|without|ban(?:ned)?|other than"
    r"|excluded|exclusions?|blacklist\w*|rule[sd]? out|rather than|instead of|over|is out|are out)\b",
    I,
)
_HYPER = re.compile(
    r"\b(?:no|not|avoid|without|anything but|except)\s+(?:the\s+)?(?:(?:us|u\.s\.|american|big|three"
    r"|major)\s+)*"
    r"hyperscalers?\b"
    r"|\bno big (?:three|3) clouds?\b",
    I,
)
_CONSUMER = re.compile(
    r"\b(?:my|our|a)\s+(?:own\s+)?(?:gaming\s+(?:pc|rig)|home\s+(?:pc|server|rig)|workstation|desktop"
    r"|laptop)\b|\bat home\b|\bmy\s+(?:rtx\s?)?\d{4}\b|\bmy\s+rtx\b"
    r"|\b(?:a|one|two|my|our|single)\s+(?:geforce\s+)?(?:rtx\s?)?(?:3090|4090|5090)s?\b",
    I,
)
_ONPREM_DEPLOY = re.compile(
    r"\b(?:run|host|deploy|train|keep|operate)\w*\b[^.]{0,30}\bon[\s-]?prem\w*|\b(?:buy(?:ing)?|purchas\w+"
    r"|own)\s+(?:our\s+own\s+)?(?:the\s+)?(?:gpus|servers|hardware|nodes|machines)\b"
    r"|\b(?:don't|do not|won't|can't|cannot)\s+(?:want to\s+)?(?:pay for|use|go to)\s+(?:the\s+|a\s+)?cloud\b"
    r"|\bno cloud\b",
    I,
)


# weighing options is not a preference: "compare buying with renting", "consider buying if it pays off"
_WEIGHING = re.compile(r"\b(?:or|vs\.?|versus|whether|compare\w*|consider\w*|rent\w*|if|might|maybe)\b", I)


def rule_constraints(ctx: Ctx) -> None:
    """eu_only, ops_capacity, objective, deployment_preference, then providers."""
    for s in ctx.sentences:
        t = s.text
        eu = list(_EU.finditer(t))
        if eu:
            if _EU_NO.search(t):
                ctx.add(s, "eu_only", False, q(eu[0]), "stated", eu[0].start())
            else:
                weak = ("gdpr", "schrems", "data residency")
                m = next((x for x in eu if x.group(0).lower() not in weak), eu[0])
                status = "inferred" if m.group(0).lower() in weak else "stated"
                ev = q(m) if status == "stated" else f'"{q(m)}" -> keep data and processing in the EU'
                ctx.add(s, "eu_only", True, ev, status, m.start())
        none = _OPS_NONE.search(t)
        if none:
            ctx.add(s, "ops_capacity", "none", q(none), "stated", none.start())
        else:
            lim = _OPS_LIMITED.search(t)
            if lim:
                ctx.add(s, "ops_capacity", "limited", q(lim), "stated", lim.start())
            else:
                ded = _OPS_DEDICATED.search(t)
                if ded and not negated(t, ded.start()):
                    ctx.add(s, "ops_capacity", "dedicated", q(ded), "inferred", ded.start())
        cheap, fast = _OBJ_CHEAP.search(t), _OBJ_FAST.search(t)
        if cheap and fast:
            ctx.add(s, "objective", "balanced", f"{q(cheap)} / {q(fast)}", "stated", cheap.start())
        elif cheap:
            ctx.add(s, "objective", "cheapest", q(cheap), "stated", cheap.start())
        elif fast:
            ctx.add(s, "objective", "fastest", q(fast), "stated", fast.start())
        cons = _CONSUMER.search(t)
        if cons:
            ctx.add(s, "deployment_preference", "consumer", q(cons), "stated", cons.start())
        elif (op := _ONPREM_DEPLOY.search(t)) and not _WEIGHING.search(t):
            ctx.add(s, "deployment_preference", "on_prem", q(op), "stated", op.start())
        rule_providers(ctx, s)


def rule_providers(ctx: Ctx, s: Sentence) -> None:
    """providers_preferred / providers_excluded: the cue of each clause applies to its providers."""
    t = s.text
    hyper = _HYPER.search(t)
    if hyper:
        ctx.add(s, "providers_excluded", list(HYPERSCALERS), q(hyper), "stated", hyper.start())
    named = find_providers(t)
    if not named:
        return
    # clauses: a cue applies to the providers of its own clause (lists in parentheses stay together)
    data_like = re.compile(r"\b(?:s3|gcs|blob|bucket|data|dataset|corpus|stored|sits|lives)\b", I)
    for idx, clause in _clauses(t):
        for pid, a, _b in [(p, a, b) for p, a, b in named if idx <= a < idx + len(clause)]:
            local = clause[: a - idx]
            ex = _last(_EXCLUDE, local)
            pref = _last(_PREFER, local)
            if (
                pref is None and ex is None
            ):  # a cue after the name: "Lambda or Nebius would be our first choices"
                rest = clause[a - idx :]
                pref, ex = _PREFER.search(rest), _EXCLUDE.search(rest)
            if pref is not None and (ex is None or pref.start() > ex.start()):
                kind = "providers_preferred"
            elif ex is not None:
                kind = "providers_excluded"
            elif _LIST_CUE.search(local) and re.search(r"\bonly\b", local, I):
                kind = "providers_preferred"  # "only EU providers (e.g. Scaleway, OVHcloud)"
            elif re.search(r"\bor\b", clause) and _preferred_in(ctx, s):
                kind = "providers_preferred"  # "we'd prefer Lambda, or RunPod"
            else:
                continue
            if kind == "providers_preferred" and data_like.search(local):
                continue  # "our data is in S3" names a location, not a preference
            ctx.add(s, kind, [pid], clause, "stated", a)


_LIST_CUE = re.compile(r"\b(?:e\.g\.|eg\.|such as|for example|for instance|i\.e\.|including)", I)


def _last(rx: re.Pattern[str], text: str) -> re.Match[str] | None:
    """The last match of `rx` in `text` (the cue nearest before a provider name)."""
    matches = list(rx.finditer(text))
    return matches[-1] if matches else None


def _clauses(text: str) -> list[tuple[int, str]]:
    """(offset, clause): split at , and ; outside parentheses, and at 'while' / 'whereas'."""
    out: list[tuple[int, str]] = []
    depth, start = 0, 0
    for i, ch in enumerate(text):
        depth += (ch in "([") - (ch in ")]")
        if ch in ",;" and depth <= 0:
            out.append((start, text[start : i + 1]))
            start = i + 1
    out.append((start, text[start:]))
    result: list[tuple[int, str]] = []
    for off, clause in out:
        pos = 0
        for part in re.split(r"(\s+(?:while|whereas)\s+)", clause):
            result.append((off + pos, part))
            pos += len(part)
    return result


def _preferred_in(ctx: Ctx, s: Sentence) -> bool:
    """Whether a preference was already read in sentence `s` ("prefer Lambda, or RunPod")."""
    return any(f.field == "providers_preferred" and f.position >= s.start for f in ctx.findings)


# =========================================================================== claims
_CLAIM_CUE = re.compile(
    r"\b(?:claim\w*|told|tells|said|says|promis\w*|quoted|advertis\w*|vendor|blog|someone|supposedly"
    r"|reportedly|"
    r"according to|we could do|could do|can do|benchmark\w*|marketing|their sales)\b",
    I,
)
_CLAIM_HOURS = re.compile(
    rf"\b(?:in|takes?|took|within|under|about)\s+{APPROX}(?P<num>{NUMBER})\s*(?P<unit>hours?|hrs?|h|days?"
    rf"|minutes?|mins?)\b",
    I,
)
_GPU_COUNT = re.compile(rf"(?P<num>{NUMBER})\s*(?:x\s*|×\s*)?$", I)


_OWN_GPUS = re.compile(
    r"\b(?:my|our|we\s+(?:have|own)|i\s+(?:have|own)|(?:can|could|will|would)\s+(?:a|an|one|a\s+single)"
    r"|on\s+(?:a\s+single|one|a))\s+"
    rf"(?:(?P<num>{NUMBER})\s*(?:x\s*|×\s*)?)?(?:own\s+)?",
    I,
)


_FLEET_AFTER = re.compile(r"\s*(?:cluster|nodes?|servers?|fleet|farm|pods?)\b", I)
_BARE_CONSUMER_GPU = re.compile(r"(?P<gpu>3090|4090|5090)s?\b")  # "can a 4090 handle ..."


def rule_own_gpus(ctx: Ctx) -> None:
    """'on my RTX 4090', 'we have 4 A100s': the user's own GPUs become claimed_gpu(_count), so the
    recommender checks the workload on them (fit and time) beside the catalog's offers."""
    for s in ctx.sentences:
        if s.start in ctx.claim_sentences:
            continue
        t = s.text
        for own in _OWN_GPUS.finditer(t):
            num = own.group("num")
            gpu = GPU_RE.match(t, own.end()) or _BARE_CONSUMER_GPU.match(t, own.end())
            if not gpu and num:  # the "count" was the card itself: "can a 4090 ..."
                gpu, num = _BARE_CONSUMER_GPU.match(t, own.start("num")), None
            if not gpu or _FLEET_AFTER.match(t, gpu.end()):  # "our H100 cluster": its size is unknown
                continue
            name = gpu.group("gpu")
            gid = resolve_gpu(f"rtx {name}" if name.isdigit() else name)
            ctx.add(s, "claimed_gpu", gid, q(gpu), "stated", gpu.start())
            count = int(parse_number(num)) if num else 1
            ctx.add(s, "claimed_gpu_count", count, t[own.start() : gpu.end()].strip(),
                    "stated" if num else "inferred", gpu.start())  # fmt: skip
            return


def rule_claims(ctx: Ctx) -> None:
    """claimed_gpu, claimed_gpu_count, claimed_hours from a reported claim; marks claim sentences."""
    for s in ctx.sentences:
        t = s.text
        if not _CLAIM_CUE.search(t):
            continue
        hours = _CLAIM_HOURS.search(t)
        gpu = GPU_RE.search(t)
        if not hours or not gpu:
            continue
        ctx.claim_sentences.add(s.start)
        gid = resolve_gpu(gpu.group("gpu"))
        ctx.add(s, "claimed_gpu", gid, q(gpu), "stated", gpu.start())
        cm = _GPU_COUNT.search(t[max(0, gpu.start() - 14) : gpu.start()])
        count = int(parse_number(cm.group("num"))) if cm else 1
        ctx.add(s, "claimed_gpu_count", count, t[max(0, gpu.start() - 14) : gpu.end()].strip(),
                "stated" if cm else "inferred", gpu.start())  # fmt: skip
        unit = hours.group("unit").lower()
        n = parse_number(hours.group("num"))
        h = n * 24 if unit.startswith("d") else (n / 60 if unit.startswith("m") else n)
        ctx.add(
            s, "claimed_hours", h, q(hours), "stated" if unit.startswith("h") else "inferred", hours.start()
        )
