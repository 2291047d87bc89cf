"""Constraint rules: EU residency, operations capacity, objective, deployment; then the providers
preferred, required or excluded (rules_provider_cues.py)."""

from __future__ import annotations

import re

from advisor.extract.regex_keys import alternatives, keyed
from advisor.extract.rules_ctx import PROTOTYPE, Ctx, I, negated, q
from advisor.extract.rules_list_leads import COMMUNITY_OUT
from advisor.extract.rules_models import PROVIDER_RE, _catalog
from advisor.extract.rules_provider_cues import HYPER, rule_providers
from advisor.extract.rules_text import NUMBER, Sentence
from advisor.extract.sentence_memo import read_once

# =========================================================================== constraints
_EU = keyed(
    r"\b(?:eu[\s-]only|eu[\s-]based|eu[\s-](?:headquartered|owned)|european[\s-](?:headquartered|owned)"
    r"|(?:eu|european) (?:data )?sovereign\w*|eu data residency|data residency|gdpr|schrems|within the (?:eu"
    r"|european union|eea)|"
    r"(?:stay|remain|be processed|be hosted|be stored|kept|stays|remains|take\s+place|takes\s+place)\s+"
    r"(?:within|in|inside)\s+(?:the\s+)?(?:eu|european union|eea|europe)|"
    r"(?:leave|leaves|leaving)\s+(?:the\s+)?(?:eu|european union|eea|europe)|european (?:providers?"
    r"|clouds?|data ?cent(?:er|re)s?) only|"
    r"(?:eu|european) (?:regions?|hosting|data ?cent(?:er|re)s?|providers?) only|"
    r"only (?:use |run (?:in|on) |to |in )?(?:the )?(?:eu|european) (?:providers?|regions?|clouds?"
    r"|data ?cent(?:er|re)s?)"
    r"|(?:outside|inside|only in|exclusively in|hosted in|processed in)\s+(?:the\s+)?(?:eu|european union"
    r"|eea|european economic area)\b(?!-)|\beea\b|\beuropean economic area\b"
    # non-native phrasings: "can not go out of European Union", "must be european", "country of EU"
    r"|(?:go|goes|be\s+moved|be\s+sent|be\s+transferred)\s+(?:out\s+of|outside(?:\s+of)?)\s+(?:the\s+)?"
    r"(?:eu|european union|eea|europe)\b"
    r"|(?:must|has\s+to|have\s+to|needs?\s+to)\s+be\s+(?:an?\s+)?european\b"
    # "it must be in Europe", "the data has to stay ... in the EU" (expert review 9, R06 and R17)
    r"|\b(?:it|data|this|that|everything|hosting|inference|processing|compute|workload|servers?|gpus?|model"
    r"|weights|training|serving)\s+(?:(?!not\b|n't\b|doesn't\b|don't\b)\w+\s+)?(?:must|has\s+to|have\s+to"
    r"|needs?\s+to|shall)\s+(?:all\s+)?(?:be|stay|remain|run|reside)\s+(?:hosted\s+|located\s+|processed\s+"
    r"|stored\s+)?(?:in|within|inside)\s+(?:the\s+)?(?:eu|european\s+union|eea|europe)\b(?!-)"
    # the subject left out after a comma: "DPO on Qwen2.5 14B, must be in Europe"
    r"|(?:^|[,;:(]\s*|\band\s+)(?:must|has\s+to|needs?\s+to)\s+(?:be|stay|run|remain)\s+(?:hosted\s+)?"
    r"(?:in|within|inside)\s+(?:the\s+)?(?:eu|european\s+union|eea|europe)\b(?!-)"
    r"|(?:other\s+)?(?:country|countries|state|states)\s+(?:of|in)\s+(?:the\s+)?(?:eu|european union)\b"
    # hosting in the EU as a need: "we need EU hosting", "EU hosting required", "EU-hosted only"
    r"|(?:need|needs|require|requires|must\s+have|want)\s+(?:an?\s+)?(?:eu|european)[\s-](?:hosting|hosted|region)"
    r"|(?:eu|european)[\s-](?:hosting|hosted|regions?)\s+(?:is\s+|are\s+)?(?:required|mandatory|needed|a\s+must))",
    I,
)
# An EU country or city as the only place data may be: the profile can say "EU only", not the place
_EU_PLACE = (
    r"(?:germany|deutschland|frankfurt|berlin|munich|france|paris|netherlands|amsterdam"
    r"|ireland|dublin|sweden|stockholm|finland|helsinki|italy|milan|spain|madrid|poland|warsaw|austria"
    r"|vienna|belgium|brussels|denmark|copenhagen|portugal|lisbon)"
)
_EU_PLACE_ONLY = keyed(
    rf"\b{_EU_PLACE}(?:\s+(?:regions?|data ?cent(?:er|re)s?|hosting))?[\s-]only\b"
    rf"|\bonly\s+(?:be\s+)?(?:in|within|inside)\s+{_EU_PLACE}\b"
    rf"|(?:n't|\bnot|\bcannot|\bnever)\s+(?:\w+\s+){{0,2}}?(?:leave|leaves|leaving|go|move)\s+(?:out of\s+)?"
    rf"{_EU_PLACE}\b"
    rf"|\b(?:outside(?:\s+of)?|out of)\s+{_EU_PLACE}\b"
    rf"|\b(?:must|has to|have to|needs? to|shall)\s+(?:\w+\s+){{0,3}}?(?:in|within|inside)\s+{_EU_PLACE}\b",
    I,
)
# serving "users in the EU" / "host it in Europe": no policy word, but a buyer hosts there (GDPR, latency);
# not where the team or an office is ("our team is based in Europe")
_EU_IN = keyed(
    # "Everything runs in the EU. Full stop." (evals v16, a Notion page's decisions)
    r"\beverything\s+(?:runs?|stays?|lives?)\s+in\s+(?:the\s+)?(?:eu|european union)\b(?!-)|"
    r"\b(?:users?|customers?|clients?|traffic|audience|serv\w*|host\w*|deploy\w*|run\s+it)\b[^.;]{0,40}?"
    r"\bin\s+(?:the\s+)?(?:eu|european union|europe)\b(?!-)",
    I,
)
# hosting named as the place, with no "only" or "need": "EU hosting" in a list of requirements, "EU-hosted",
# "hosted in the EU", "runs in EU data centres" (expert review 7, R14: read as a US GH200 before); not a
# wish or a comparison ("EU hosting would be nice", "EU vs US hosting", "the premium for EU hosting")
_EU_HOSTING = keyed(
    r"\b(?:eu|european)[\s-](?:hosting|hosted|data\s?cent(?:er|re)s?)\b"
    r"|\bhosted\s+(?:with)?in\s+(?:the\s+)?(?:eu|european union|europe)\b(?!-)",
    I,
)
_EU_SOFT = keyed(
    r"\b(?:nice\s+to\s+have|would\s+be\s+nice|optional|ideally|if\s+possible|prefer\w*|vs\.?|versus"
    r"|compar\w*|or\s+(?:us|non-eu|elsewhere)|either|not\s+(?:required|needed|necessary|a\s+must)"
    r"|(?:cost|price|premium)\s+(?:of|for)|bonus|plus|whether)\b",
    I,
)
_EU_NO = keyed(
    r"\b(?:no|not|don't need|doesn't need|without)\s+(?:an?\s+)?(?:eu|gdpr|data residency)\b"
    r"|\bnot eu[\s-]only\b"
    r"|\bno\s+(?:longer\s+)?need\s+(?:for\s+)?(?:an?\s+)?(?:eu|gdpr|data residency)\b"
    r"|\bany\s+region\s+(?:is|will\s+be|would\s+be)\s+(?:fine|ok|okay|acceptable)\b"
    # a residency rule lifted: "the EU restriction no longer applies", "EU requirement was dropped"
    r"|\b(?:eu|gdpr|data residency|residency)(?:[\s-]only)?\s+(?:restriction|requirement|rule|constraint"
    r"|clause|point|condition)s?(?:\s+above)?\s+(?:no longer appl(?:y|ies)"
    r"|(?:doesn't|does not|don't|do not) apply(?:\s+any\s?more)?"
    r"|(?:is|are|was|were|has\s+been|have\s+been|got)\s+(?:lifted|dropped|removed|waived|gone|cancell?ed))",
    I,
)
_OPS_NONE = keyed(
    r"\b(?:no|without(?:\s+an?)?|zero|lack\s+(?:an?\s+)?|don't have (?:an?\s+)?|do not have (?:an?\s+)?)\s*"
    r"(?:dedicated\s+|in-house\s+|real\s+)?(?:infra(?:structure)?|devops|dev ops|ops|operations|mlops"
    r"|platform|sre|"
    r"it|sysadmin|cluster)\s*(?:team|staff|people|engineers?|support|capacity|experience|person|folks)?\b"
    r"|\b(?:don't|do not|can't|cannot)\s+(?:want to\s+)?(?:manage|run|operate"
    r"|maintain)\s+(?:our own\s+)?(?:infra|infrastructure|servers|clusters?|hardware)\b"
    r"|\bfully managed\b"
    # nobody left to run it: "there is nobody to babysit a Kubernetes cluster", "our one infra person left"
    r"|\b(?:nobody|no\s+one|no-one)\s+(?:(?:left\s+)?to|who\s+(?:can|could|will|would))\s+(?:babysit|run|manage"
    r"|operate|look\s+after|maintain|administer|keep\s+an\s+eye\s+on)\b"
    r"|\b(?:nobody|no\s+one|no-one)\s+(?:here\s+|on\s+the\s+team\s+)?(?:does|knows|handles|is\s+good\s+at)\s+"
    r"(?:infra(?:structure)?|devops|ops|operations|mlops|sysadmin|kubernetes|k8s)\b"
    r"|\b(?:only|one|sole|single)\s+(?:infra(?:structure)?|ops|devops|sre|platform|mlops)\s+(?:person|engineer"
    r"|guy|lead|admin)\s+(?:just\s+|has\s+|had\s+)?(?:left|quit|resigned|is\s+leaving|moved\s+on)\b",
    I,
)
_OPS_LIMITED = keyed(
    r"\b(?:one|a single|1|a)\s+(?:part[\s-]time\s+)?(?:devops|ops|sre|infra(?:structure)?|platform"
    r"|mlops)\s*(?:engineer|person|guy)?\b"
    r"|\blimited\s+(?:ops|operations|devops|infra)\b|\bpart[\s-]time\s+(?:ops|devops|sre|admin)\b",
    I,
)
_OPS_DEDICATED = keyed(
    rf"\b(?:(?:{NUMBER})[\s-]*(?:person|people)\s+)?(?:infra(?:structure)?|devops|ops|platform|sre|mlops"
    rf"|hpc)\s+team\b"
    rf"|\b(?:{NUMBER})\s+(?:sres|devops engineers|infra engineers|platform engineers)\b|\bsres\b"
    r"|\brun(?:s|ning)?\s+(?:our own\s+)?(?:kubernetes|slurm|k8s)\b|\bhave run\s+\w+\s+clusters\b",
    I,
)
_OBJ_CHEAP = keyed(  # review 11, R07: "the least money", "costs least"; review 19, R04: "most cheap"
    r"\b(?:as cheap(?:ly)? as possible|cheapest|lowest[\s-](?:total[\s-])?(?:cost|price)|least expensive"
    r"|most\s+(?:cheap(?:ly)?|affordable|economical)|least\s+(?:costly|pricey)|lowest[\s-]priced"
    r"|minimi[sz]e (?:the )?costs?|keep (?:the )?costs? (?:down|low)|cost is (?:what|all) (?:matters|we care)"
    r"|budget[\s-]conscious|not in a hurry|cost matters (?:most|more)|cost is (?:the )?(?:priority"
    r"|more important|king)|price matters (?:most|more)|cheaper is better|on a shoestring|costs? least"
    r"|(?<!at )least (?:money|cost)|(?:spend|pay) as little as possible|(?:spend|pay|costs?) the least"
    r"|please\s+(?:keep\s+it\s+|make\s+it\s+)?cheap|cheap,?\s+please|keep\s+it\s+cheap)\b",  # v16 writers
    I,
)
_OBJ_FAST = keyed(
    r"\b(?:as fast as possible|fastest|as quickly as possible|quickest|speed matters|time matters most"
    r"|asap|time[\s-]to[\s-]result|money is no object|cost is no (?:object|issue)|speed (?:is the priority"
    r"|is more important|matters more)|time is (?:critical|of the essence|more important))\b",
    I,
)

_CONSUMER = keyed(
    r"\b(?:my|our|a)\s+(?:own\s+)?(?:gaming\s+(?:pc|rig)|home\s+(?:pc|server|rig)|workstation|desktop"
    r"|laptop)\b|\bat home\b|\bmy\s+(?:rtx\s?)?\d{4}\b|\bmy\s+rtx\b"
    r"|\b(?:a|one|two|my|our|single)\s+(?:geforce\s+)?(?:rtx\s?)?(?:3090|4090|5090)s?\b",
    I,
)
# a request that opens "On-prem DeepSeek-V3 ...", an "on-prem deployment", a verb ... "on prem", buying
_ONPREM_DEPLOY = alternatives(
    r"^\W*on[\s-]?prem(?:ise|ises)?\b(?!\s*(?:or|vs\.?|versus)\b)"
    r"|\bon[\s-]?prem(?:ise|ises)?\s+(?:deployment|serving|inference|hosting|install\w*|setup|set-up)\b"
    r"|\b(?:run|host|deploy|train|keep|operate)\w*\b[^.]{0,30}\bon[\s-]?prem\w*|\b(?:buy(?:ing)?|purchas\w+"
    r"|own)\s+(?:our\s+own\s+)?(?:the\s+)?(?:gpus|servers|hardware|nodes|machines)\b"
    # a purchase being weighed is still a purchase (expert review 8, R02): "evaluating the purchase of
    # on-prem hardware", "which GPUs and how many to buy"
    r"|\bpurchas\w*\s+of\s+(?:on[\s-]?prem\w*\s+|our\s+own\s+|new\s+)?(?:gpus|servers|hardware|nodes)\b"
    r"|\bhow\s+many\s+(?:\w+\s+){0,2}?(?:to|should\s+we|do\s+we|we\s+should)\s+(?:buy|purchase|order)\b"
    r"|\b(?:don't|do not|won't|can't|cannot)\s+(?:want to\s+)?(?:pay for|use|go to)\s+(?:the\s+|a\s+)?cloud\b"
    r"|\bno cloud\b",
    I,
)


# a hard on-premises requirement, even beside a comparison: "on-prem only", "must stay on our own servers"
_ONPREM_ONLY = keyed(
    r"\bon[\s-]?prem(?:ise|ises)?[\s-]only\b|\bonly\s+on[\s-]?prem\w*"
    r"|\b(?:must|has to|needs? to)\s+(?:stay|run|be|remain)\s+on[\s-]?prem\w*"
    r"|\b(?:no|not in the|not on a|never the)\s+(?:public\s+)?cloud\b"
    # isolation as policy: "air-gapped", "it can never touch a public cloud", "must not leave our premises"
    r"|\bair[\s-]?gapped\b"
    r"|(?:\bnever|\bnot|n't|\bnothing\s+(?:\w+\s+)?(?:may|can|must|should|is\s+allowed\s+to))\s+"
    r"(?:be\s+(?:allowed\s+to\s+)?)?(?:touch|go\s+(?:to|near|into|in)|enter|use|hit|reach"
    r"|run\s+(?:in|on)|move\s+to|leave\s+for|be\s+(?:hosted|run|put|uploaded|stored|processed)\s+(?:in|on|to))\s+"
    r"(?:the\s+|a\s+|any\s+)?(?:public\s+|third[\s-]party\s+|external\s+|commercial\s+)?clouds?\b"
    r"|(?:\bnever|not|n't)\s+leave\s+(?:our|the)\s+(?:own\s+)?(?:premises|building|site|data\s?cent(?:er|re)"
    r"|server\s+room|network)\b"
    r"|\b(?:stays?|kept|remains?|must\s+(?:stay|remain|run))\s+(?:on|in)\s+(?:our\s+own|our)\s+(?:premises|hardware"
    r"|servers|data\s?cent(?:er|re)|machines)\b"
    r"|\b(?:public\s+)?cloud\s+is\s+(?:out|not\s+an\s+option|off\s+the\s+table|forbidden|not\s+allowed)\b",
    I,
)
# renting is the stated way: "we won't run our own servers or clusters", "we don't want to buy hardware",
# "cloud only", "on-prem is off the table"; ops capacity alone is not this ("no ops team" can still own)
_CLOUD_ONLY = keyed(
    r"\b(?:won't|will\s+not|don't|do\s+not|can't|cannot|can\s+not|never|not\s+going\s+to)\s+"
    r"(?:want\s+to\s+|be\s+able\s+to\s+|(?:plan|intend)\s+to\s+)?(?:run|operate|host|manage|maintain|babysit|buy"
    r"|build|rack|purchase|look\s+after)\s+(?:our\s+own\s+|any\s+|physical\s+|on[\s-]?prem\w*\s+|in[\s-]house\s+)?"
    r"(?:servers?|clusters?|hardware|gpus|machines|boxes|racks|metal|data\s?cent(?:er|re)s?)\b"
    r"|\bcloud[\s-]only\b|\bonly\s+(?:in|on)\s+the\s+cloud\b"
    r"|\b(?:must|has\s+to|needs?\s+to|have\s+to)\s+(?:be|run|stay|live)\s+(?:in|on)\s+(?:the\s+|a\s+)?(?:public\s+)?cloud\b"
    # "hosted on a cloud GPU, not on-prem" (evals v18): on-prem named to rule it out
    r"|\b(?:no|not|never)\s+on[\s-]?prem\w*|\b(?:on[\s-]?prem\w*|buying\s+(?:hardware|gpus|servers))\s+is\s+(?:out|not\s+an\s+option"
    r"|off\s+the\s+table)\b"
    r"|\brent(?:ing)?,?\s+(?:not|never)\s+buy",
    I,
)
# a choice still open is not a preference: "whether we should buy servers", "unless it pays off"
_CLOUD_WEIGHING = keyed(
    r"\b(?:vs\.?|versus|whether|compar\w*|consider\w*|unless|might|maybe|should\s+we)\b", I
)
# weighing options is not a preference: "compare buying with renting", "consider buying if it pays off"
_WEIGHING = keyed(r"\b(?:or|vs\.?|versus|whether|compare\w*|consider\w*|rent\w*|if|unless|might|maybe)\b", I)


# US regions only (expert review 5, R12): "US regions only", "must be hosted in the US", "US-only",
# "data can't leave the US"; "US" in capitals, so the pronoun ("give us", "let us know") is not read
_US = r"(?:(?-i:US|U\.S\.?|USA)|united\s+states)"
_US_ONLY = alternatives(
    rf"\b{_US}[\s-](?:(?:cloud\s+)?regions?|data\s?cent(?:er|re)s?|hosting|providers?|soil)?\s*only\b"
    rf"|\bonly\s+(?:(?:run|host|deploy|operate|use)\s+)?(?:in\s+|within\s+)?(?:the\s+)?{_US}"
    r"(?:\s+(?:regions?|data\s?cent(?:er|re)s?))?\b"
    rf"|\b(?:must|has\s+to|have\s+to|needs?\s+to|shall|required\s+to)\s+(?:\w+\s+){{0,3}}?(?:in|within|inside)"
    rf"\s+(?:the\s+)?{_US}\b"
    rf"|(?:n't|\bnot|\bcannot|\bnever)\s+(?:\w+\s+){{0,2}}?(?:leave|leaves|go|move)\s+(?:out\s+of\s+)?(?:the\s+)?{_US}\b"
    rf"|(?<!non-)\b{_US}[\s-](?:based\s+)?(?:providers?|clouds?|regions?)(?=\s*(?:[.,;()!?]|$))"  # listed
    # a region code, "--region us-only" (evals v16): hyphenated, so not the pronoun "us"
    r"|(?<![\w-])us-only\b"
    # the country before a residency or hosting word (evals v18): "US data residency", "it must be US-hosted"
    rf"|\b{_US}[\s-](?:data\s+(?:residency|sovereignty|locality)|hosted\b|hosting\s+(?:is\s+)?(?:required|mandatory))",
    I,
)


_US_BEFORE = re.compile(rf"{_US}[\s-]*$", I)


@read_once
def rule_constraints(ctx: Ctx) -> None:
    """eu_only, ops_capacity, objective, deployment_preference, then providers."""
    for s in ctx.sentences_with(*_ENTRIES):
        t = s.text
        # "US data residency": a residency word said of another country is no EU rule (evals v18)
        eu = [x for x in _EU.finditer(t) if not _US_BEFORE.search(t, 0, x.start())]
        if not eu and (lifted := _EU_NO.search(t)):
            ctx.add(s, "eu_only", False, q(lifted), "stated", lifted.start())
        if eu:
            if _EU_NO.search(t):
                ctx.add(s, "eu_only", False, q(eu[0]), "stated", eu[0].start())
            else:
                weak = ("gdpr", "schrems", "data residency", "eea")
                m = next((x for x in eu if x.group(0).lower() not in weak), eu[0])
                status = "inferred" if m.group(0).lower() in weak else "stated"
                ev = q(m) if status == "stated" else f'"{q(m)}" -> keep data and processing in the EU'
                ctx.add(s, "eu_only", True, ev, status, m.start())
        if (place := _EU_PLACE_ONLY.search(t)) and not (eu and _EU_NO.search(t)):  # "EU only, in Germany"
            ev = f'"{q(place)}" -> EU only (the catalog has regions by EU or not, no finer)'
            ctx.add(s, "eu_only", True, ev, "inferred", place.start())
        elif not eu and (host := _EU_HOSTING.search(t)) and not _EU_SOFT.search(t) and not _EU_NO.search(t):
            ev = f'"{q(host)}" -> EU only (hosting in the EU, said as a requirement)'
            ctx.add(s, "eu_only", True, ev, "stated", host.start())
        elif not eu and (where := _EU_IN.search(t)) and not _EU_NO.search(t):
            ev = f'"{q(where)}" -> host in the EU (GDPR, latency; say if any region will do)'
            ctx.add(s, "eu_only", True, ev, "inferred", where.start())
        if (us := _US_ONLY.search(t)) is not None and not _EU_NO.search(t):
            ctx.add(s, "us_only", True, q(us), "stated", us.start())
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
        _deployment(ctx, s)
        rule_providers(ctx, s)


# a finding of rule_constraints (its own, _deployment's and rule_providers') needs one of these to match
_ENTRIES = (
    *(_EU, _EU_NO, _EU_PLACE_ONLY, _EU_HOSTING, _EU_IN, _US_ONLY, _OPS_NONE, _OPS_LIMITED, _OPS_DEDICATED),
    *(_OBJ_CHEAP, _OBJ_FAST, _CONSUMER, _CLOUD_ONLY, _ONPREM_ONLY, _ONPREM_DEPLOY, HYPER, COMMUNITY_OUT),
    PROVIDER_RE,
)


def _deployment(ctx: Ctx, s: Sentence) -> None:
    """deployment_preference: consumer hardware, on premises (a requirement, or a plan not weighed against
    renting and not negated: "we'd rather not buy hardware"), else the cloud ("no on-prem")."""
    t = s.text
    if PROTOTYPE.search(t):
        return  # "prototyped on my MacBook and my own 3090": a past try-out, not where this job runs
    cons = _CONSUMER.search(t) if s.start not in ctx.claim_sentences else None  # "one 4090 will do it?"
    if cons and not re.search(r"\d", cons.group(0)) and _owns_datacentre_cards(ctx):
        # "four L40S cards in a workstation under my desk": where owned cards sit, not a wish; a consumer
        # card named beside them still is ("QLoRA on my desktop with my 4090?")
        cons = next((m for m in _CONSUMER.finditer(t) if re.search(r"\d", m.group(0))), None)
    if cons:
        ctx.add(s, "deployment_preference", "consumer", q(cons), "stated", cons.start())
        return
    cloud = _CLOUD_ONLY.search(t)
    if cloud is not None and (_CLOUD_WEIGHING.search(t) or negated(t, cloud.start())):
        cloud = None  # "doesn't have to run in the cloud"
    op = _ONPREM_ONLY.search(t)
    if (
        op is None
        and (op := _ONPREM_DEPLOY.search(t)) is not None
        and (_WEIGHING.search(t) or negated(t, op.start()))
    ):
        op = None
    if op is not None and cloud is not None and op.start() < cloud.end() and cloud.start() < op.end():
        op = None  # "on-prem is off the table", "no on-prem", "hosted on a cloud GPU, not on-prem": ruled out
    if op is not None:
        ctx.add(s, "deployment_preference", "on_prem", q(op), "stated", op.start())
    elif cloud is not None:
        ctx.add(s, "deployment_preference", "cloud", q(cloud), "stated", cloud.start())


def _owns_datacentre_cards(ctx: Ctx) -> bool:
    """Whether the owned GPU read so far (this text or an earlier turn) is not a consumer card."""
    owned = next((f.value for f in ctx.findings if f.field == "owned_gpu"), None)
    if owned is None and ctx.prior is not None:
        owned = ctx.prior.owned_gpu
    if owned is None:
        return False
    cat = _catalog()
    gpu = next((g for g in cat.gpus if str(g.id) == owned), None) if cat is not None else None
    return gpu is not None and not gpu.consumer
