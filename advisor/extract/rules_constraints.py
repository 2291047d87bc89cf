"""Constraint rules: EU residency, operations capacity, objective, providers preferred, required or
excluded."""

from __future__ import annotations

import re
from collections.abc import Callable

from advisor.extract.regex_keys import Keyed, alternatives, keyed
from advisor.extract.rules_ctx import PROTOTYPE, Ctx, I, negated, q
from advisor.extract.rules_list_leads import COMMUNITY_OUT
from advisor.extract.rules_list_leads import names_only as names_only_clause
from advisor.extract.rules_models import HYPERSCALERS, PROVIDER_RE, _catalog, find_providers
from advisor.extract.rules_text import NUMBER, Sentence
from advisor.extract.scan import HeadCues, Spans, comma_clauses, last_match, live_patterns
from advisor.extract.sentence_memo import read_once
from advisor.extract.withdrawn_choice import after_withdrawal, inside, withdrawn_spans

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
_PREFER = keyed(
    r"\b(?:prefer\w*|first choices?|would like to use|we'd like to use|like to use|favou?r|have credits"
    r"|credits (?:on|with)|happy with|our (?:usual|current) provider|if we rent"
    # a wish, not a rule: "staying on GCP would be nice", "ideally on Azure", "nice to have: Lambda"
    r"|(?<!to )(?<!must )stay(?:ing)? on|stick(?:ing)? (?:with|to)|ideally(?: on)?|would be nice|nice to have"
    r"|(?:would|'d) like to stay|want to stay|stay there|stay with them"
    r"|would be ideal|already\s+(?:on|using|with|at|in)\b"  # "we're already on runpod" (reviews 7, 9)
    # capacity the team can get there: "we can get H100s on CoreWeave", "CoreWeave can give us 64 H100s"
    r"|(?:we|i)\s+(?:can|could)\s+get|(?:can|could)\s+(?:give|offer|lend)\s+us|have\s+access\s+to"
    # money already committed there: "a GCP commitment we need to burn down", "our AWS EDP", "Azure credits"
    r"|(?:spend\s+)?commitments?|committed\s+(?:spend|use)|burn\s+(?:down|through)|edp|credits"
    # where the money was approved: "budget got approved for H100s on Lambda"
    r"|(?:approved|signed\s+off|cleared|green[\s-]?lit)\s+(?:for|on)\s+(?:[\w-]+\s+){0,3}?(?:on|at|with|from)"
    # a contract already signed there: "we already have a contract with Nebius", "Nebius (we have an MSA)"
    r"|(?:have|has|signed)\s+(?:already\s+)?(?:a|an|the|our)\s+(?:contract|agreement|msa|framework(?:\s+agreement)?)"
    # the agreement named first (rd15): "our enterprise agreement is with Microsoft", "our EA/MSA is with AWS"
    r"|(?:(?:enterprise|master|framework|cloud|volume)\s+(?:services\s+)?agreement|\bea|\bmsa|contract)\s+"
    r"(?:is\s+|sits\s+|runs\s+)?with|\bhave\s+an?\s+(?:ea|msa|baa)\s+with|(?:we|i)\s+can\s+use"
    # the second rank of a priority table or list (MoSCoW): "Should: Nebius", "Nice to have: Lambda"
    r"|(?:should|could)(?:[\s-]haves?)?\s*:|nice[\s-]to[\s-]haves?\s*:|preferred\s*:|preferences?\s*:"
    # the name as the option kept among any: "RunPod or anything else is ok"
    r"|(?:or|and)\s+(?:anything|any\s*one|whatever|any\s+other)(?:\s+else)?\s+(?:is|would\s+be|works)\b"
    r"|(?:is|are|would\s+be)\s+(?:also\s+)?(?:fine|ok|okay|acceptable)"
    # where the team is going: "we're moving to GCP for everything new", "please plan on Azure"
    r"|shop\b|keep\s+(?:it|everything|this|things|the\s+\w+)\s+(?:in|on|with)"
    r"|(?:moving|migrating|switching|move|migrate|switch|moved|migrated|switched)\s+(?:\w+\s+){0,2}?(?:to|onto)"
    r"|plan\s+(?:on|for)"
    r")\b",
    I,
)
_EXCLUDE = keyed(
    r"\b(?:not|no|anything but|except|avoid|excluding|exclude|can't use|cannot use|can not use"
    r"|not allowed to use|won't use|will not use|don't want|never|without|ban(?:ned)?|other than"
    r"|(?:don't|do not|please don't|please do not)\s+(?:suggest|recommend|propose|pick|offer)"
    r"|excluded|exclusions?|blacklist\w*|rule[sd]? out|rather than|instead of|over|is out|are out"
    # a sign-off refused (rd15): "security won't approve Azure", "procurement will not sign off on GCP"
    r"|(?:won't|will\s+not|wouldn't|doesn't|does\s+not|didn't|never)\s+(?:approve|sign\s+off\s+on|allow)"
    # a party that will not have it (evals v16): "Customer refuses AWS", "legal rejected GCP"
    r"|(?:refus(?:es|e|ed)|reject(?:s|ed)?)(?:\s+to\s+(?:use|touch|go\s+with|run\s+on))?(?=\s*$)"
    # taken back (rd15): "actually scratch Lambda", "forget about Azure", "cross off CoreWeave"
    r"|(?<!from\s)scratch(?!\s+(?:disk|space|storage|bucket|dir))|forget\s+about|cross\s+(?:out|off)|skip(?=\s*$)"
    # after the name: "Vast.ai is a no-go", "Azure is off the table", "CoreWeave is not an option"
    r"|(?:is|are)\s+(?:a\s+)?(?:no[\s-]?go|non[\s-]?starter|off\s+the\s+table|out\s+of\s+the\s+question"
    r"|not\s+(?:an\s+)?option|not\s+allowed|not\s+permitted|banned|forbidden|prohibited)"
    # the last rank of a priority table (MoSCoW): "Won't: Vast.ai"
    r"|won'?t(?:[\s-]haves?)?\s*:)(?=\W|$)",
    I,
)
# A hard requirement before a provider name: "must be on AWS", "only AWS", "company policy: AWS"
_REQUIRE = keyed(
    r"\b(?:must\s+(?:\w+\s+){0,3}?(?:on|in|with|use|using|through|via)|(?:has|have|need|needs)\s+to\s+"
    r"(?:\w+\s+){0,2}?(?:on|in|with|use)|only(?:\s+(?:use|on|in|with|through|via))?"
    r"|exclusively(?:\s+(?:on|in|with|use))?|(?:required|mandated|obliged) to (?:use|run on|be on)"
    r"|mandatory|(?:company|corporate|security|it|procurement) policy|policy(?: says| is)?:"
    r"|standardi[sz]ed on|all[\s-]in on|locked in(?:to)?"
    # "Must be AWS", a priority table's first rank "Must: AWS", "Hard requirements from infra: in AWS"
    r"|must\s+be(?=\s*$)|(?:has|have|needs?)\s+to\s+be(?=\s*$)|must(?:[\s-]haves?)?\s*:"
    r"|(?:hard\s+)?requirements?\b[^:.;]{0,30}:"
    # a list of approved vendors: "the approved list, which today is AWS", "our approved suppliers: AWS"
    r"|approved[\s-](?:(?:vendors?|suppliers?|providers?|clouds?)(?:[\s-]list)?|list)"
    r"|(?:allowed|permitted|whitelisted|sanctioned)\s+(?:clouds?|providers?|vendors?)\s*:)(?=\W|$)",
    I,
)
# a double negative that leaves one provider: "we can't use anything but AWS", "nothing other than Azure"
_ONLY_THIS_BEFORE = keyed(
    r"\b(?:(?:can'?t|cannot|can\s+not|won'?t|mustn'?t|(?:are\s+)?not\s+allowed\s+to|don'?t|may\s+not)\s+"
    r"(?:use|go\s+(?:to|with)|run\s+(?:on|in)|touch|consider)\s+(?:anything|any(?:one|\s+\w+)?)|nothing"
    r"|no\s+(?:other\s+)?(?:cloud|provider|vendor)s?)\s+(?:but|except|other\s+than|besides|apart\s+from"
    r"|outside(?:\s+of)?)\s*$",
    I,
)
# ... or after it: "we're an AWS shop and can't use anything else", "on Azure and cannot use other clouds"
_ONLY_THIS_AFTER = keyed(
    r"^(?:(?!\b(?:but|though|although|however)\b)[^.;!?]){0,60}?\b(?:(?:can'?t|cannot|can\s+not|won'?t|mustn'?t|(?:are\s+)?not\s+allowed\s+to|may\s+not)"
    r"\s+(?:use|go\s+(?:to|with)|run\s+(?:on|in)|touch|consider)\s+(?:anything|any\s*(?:thing|one|other)"
    r"|other|another|a\s+different|different)\b(?:\s+else)?|nothing\s+else\b|no\s+other\s+(?:cloud|provider"
    r"|vendor)s?\b)(?!\s*(?:else|other)?\s*(?:than|but|except|besides)\s+(?:spot|on[\s-]demand|reserved|preemptible))",
    I,
)
_NOT_REQUIRED = re.compile(
    r"\s+(?:mandatory|required|a\s+must|necessary|essential|needed|a\s+(?:hard\s+)?requirement|strict"
    r"|a\s+deal[\s-]?breaker)\b",
    I,
)
_COMMITTED = re.compile(r"(?:spend\s+)?commitments?|committed", I)
_NO_BEFORE = re.compile(r"\b(?:no|not|without|never|n't)\b[\w\s-]{0,25}$", I)
_OTHER_OBJECT = re.compile(
    r"\s+(?:anything|any\s*(?:thing|one|other)|other|another|something|a\s+different)\b", I
)
# ... or right after it: "AWS only." (not "AWS only once"), "AWS-only", "our AWS account"
_REQUIRE_AFTER = keyed(
    r"^(?:-only\b|\s+only(?=\s*(?:[,.;:!?()\-–—]|$|please\b|for\b|as\b))|\s+exclusively\b"
    r"|\s+(?:account|org(?:ani[sz]ation)?|tenant|subscription|project|vpc|landing\s+zone"
    r"|enterprise agreement)s?\b)",
    I,
)
_HYPER = keyed(
    r"\b(?:no|not|avoid|without|anything but|except)\s+(?:on\s+)?(?:any\s+|the\s+)?(?:(?:us|u\.s\.|american"
    r"|big|three|major)\s+)*"
    r"hyperscalers?\b"
    r"|\bno big (?:three|3) clouds?\b"
    # "none of the big clouds", "nothing from the big three", "not on any of the major clouds" (rd12)
    r"|\b(?:none\s+of|nothing\s+(?:from|on)|not\s+(?:on\s+)?(?:any\s+of)?)\s+the\s+(?:big|major|large)\s+"
    r"(?:three|3|clouds?|cloud\s+providers|hyperscalers|providers)\b",
    I,
)
_COMMUNITY_TIERS = ("community", "marketplace")  # the price catalog's tiers of shared or resold capacity


def _community_providers() -> list[str]:
    """Provider ids of the price catalog's community and marketplace tiers."""
    cat = _catalog()
    if cat is None:
        return []
    return sorted({str(r.provider) for r in cat.prices if str(r.tier).lower() in _COMMUNITY_TIERS})


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
    r"|\bno\s+on[\s-]?prem\w*|\b(?:on[\s-]?prem\w*|buying\s+(?:hardware|gpus|servers))\s+is\s+(?:out|not\s+an\s+option"
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
    rf"|(?<!non-)\b{_US}[\s-](?:based\s+)?(?:providers?|clouds?|regions?)(?=\s*(?:[.,;)!?]|$))"  # listed
    # a region code, "--region us-only" (evals v16): hyphenated, so not the pronoun "us"
    r"|(?<![\w-])us-only\b",
    I,
)


@read_once
def rule_constraints(ctx: Ctx) -> None:
    """eu_only, ops_capacity, objective, deployment_preference, then providers."""
    for s in ctx.sentences_with(*_ENTRIES):
        t = s.text
        eu = list(_EU.finditer(t))
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
    *(_OBJ_CHEAP, _OBJ_FAST, _CONSUMER, _CLOUD_ONLY, _ONPREM_ONLY, _ONPREM_DEPLOY, _HYPER, COMMUNITY_OUT),
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
    if op is not None and cloud is not None and cloud.start() <= op.start() < cloud.end():
        op = None  # "on-prem is off the table", "no on-prem": on-prem named to rule it out
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


def rule_providers(ctx: Ctx, s: Sentence) -> None:
    """providers_preferred / _required / _excluded: the cue of each clause applies to its providers."""
    t = s.text
    hyper = _HYPER.search(t)
    if hyper:
        ctx.add(s, "providers_excluded", list(HYPERSCALERS), q(hyper), "stated", hyper.start())
    if (crowd := COMMUNITY_OUT.search(t)) is not None and (ids := _community_providers()):
        ctx.add(s, "providers_excluded", ids, q(crowd), "stated", crowd.start())
    named = find_providers(t)
    if not named:
        return
    # clauses: a cue applies to the providers of its own clause (lists in parentheses stay together)
    data_like = re.compile(r"\b(?:s3|gcs|blob|bucket|data|dataset|corpus|stored|sits|lives)\b", I)
    clauses = comma_clauses(t)
    kept: tuple[str, ...] = ()  # the lists the sentence's last provider went to
    kept_at = 0  # where the words that put it there begin
    spans = Spans(named)  # each clause's names by bisection (advisor/extract/scan.py), read linearly
    after_live: bool | None = None  # whether _ONLY_THIS_AFTER's words occur after the first name: asked once
    withdrawn = withdrawn_spans(t)  # "Scratch the Nebius preference: ..." (withdrawn_choice.py)
    for n, (idx, clause) in enumerate(clauses):
        names_only: bool | None = None  # the clause is nothing but names and joiners: asked once
        first, live = -1, frozenset[Keyed]()  # the clause this one continues; the cues its words allow
        for pid, a, b in spans.starting_in(idx, idx + len(clause)):
            if inside(withdrawn, a):
                continue
            if first < 0:
                first = _reach_back(clauses, n)
                live = live_patterns(_HEAD_CUES, t[clauses[first][0] : idx + len(clause)])  # asked once
                cues = HeadCues(t, idx + len(clause))  # the last cue before each name: one pass (scan.py)
            if after_live is None:
                after_live = _ONLY_THIS_AFTER.may_match(t[a:])
            if kept and names_only is None:
                names_only = names_only_clause(spans.blanked(clause, idx))
            if kept and names_only:
                # a list's later items share its cue: "must be on our approved list: AWS, Azure or GCP"
                for kind in kept:
                    ctx.add(s, kind, [pid], t[kept_at : idx + len(clause)], "stated", a)
                continue
            at = after_withdrawal(withdrawn, clauses[first][0], a)
            local, cue = t[at:a], cues.at(at)  # the cue's clause to the name; the last cue in it
            said = t[clauses[first][0] : idx + len(clause)]  # the evidence: from the cue's clause on
            ex = cue(_EXCLUDE, local) if _EXCLUDE in live else None
            pref = cue(_PREFER, local) if _PREFER in live else None
            no_from = max(0, pref.start() - 40) if pref else 0  # _NO_BEFORE spans at most 35 characters
            if pref and _COMMITTED.match(pref.group(0)) and _NO_BEFORE.search(local, no_from, pref.start()):
                pref = ex = None  # "no long-term commitment with AWS": a pricing rule, not about AWS
            only_this = (_ONLY_THIS_BEFORE in live and _ONLY_THIS_BEFORE.search(local)) or (
                ex is None and after_live and _ONLY_THIS_AFTER.search(t[b:])
            )
            required = only_this or _required(local, t[b : idx + len(clause)], ex, pref, data_like, live, cue)
            if required and _OPEN_TO_OTHERS.match(t, b):
                # "We already have an AWS account but are open to others": the first choice, not the only one
                ctx.add(s, "providers_preferred", [pid], said, "stated", a)
                kept, kept_at = ("providers_preferred",), clauses[first][0]
                continue
            if required:
                # a requirement is also the first choice: ranked first, and nothing else is picked
                ctx.add(s, "providers_required", [pid], said, "stated", a)
                ctx.add(s, "providers_preferred", [pid], said, "stated", a)
                kept, kept_at = ("providers_required", "providers_preferred"), clauses[first][0]
                continue
            if pref is None and ex is None and (mark := _MARK.match(t, b)) is not None:
                # a check mark after the name: "Providers: AWS ✅, Azure ❌"
                kind = "providers_excluded" if mark.group("no") else "providers_preferred"
                ctx.add(s, kind, [pid], said, "stated", a)
                kept, kept_at = (kind,), clauses[first][0]
                continue
            if (
                pref is None and ex is None
            ):  # a cue after the name: "Lambda or Nebius would be our first choices"
                if _PREFER in live or _EXCLUDE in live:  # else neither occurs after the name either
                    rest = clause[a - idx :]
                    rest = rest[: m.start()] if (m := _CONTRAST.search(rest)) else rest  # "Azure but now GCP"
                    pref, ex = _PREFER.search(rest), _EXCLUDE.search(rest)
                if ex and (_OTHER_OBJECT.match(rest, ex.end()) or _NOT_REQUIRED.match(rest, ex.end())):
                    ex = None  # "GCP, and we can't use anything other than spot": not about GCP; "GCP
                    # would be nice but it's not mandatory": a requirement lifted, not an exclusion
                if pref is not None and ex is not None:
                    # after the name the nearest cue is its own: "Nebius or Scaleway ideally (EU
                    # sovereignty thing: no US hyperscalers)" prefers both
                    pref, ex = (pref, None) if pref.start() < ex.start() else (None, ex)
            if pref is not None and (ex is None or pref.start() > ex.start()):
                kind = "providers_preferred"
            elif ex is not None:
                kind = "providers_excluded"
            elif _LIST_CUE in live and _LIST_CUE.search(local) and re.search(r"\bonly\b", local, I):
                kind = "providers_preferred"  # "only EU providers (e.g. Scaleway, OVHcloud)"
            elif re.search(r"\bor\b", clause) and _preferred_in(ctx, s):
                kind = "providers_preferred"  # "we'd prefer Lambda, or RunPod"
            else:
                kept = ()
                continue
            if kind == "providers_preferred" and data_like.search(local):
                kept = ()
                continue  # "our data is in S3" names a location, not a preference
            ctx.add(s, kind, [pid], said, "stated", a)
            kept, kept_at = (kind,), clauses[first][0]


_OPEN_TO_OTHERS = re.compile(
    r"[^.;!?]{0,60}?\b(?:open\s+to\s+(?:others|other\s+\w+|alternatives|anything|any\s+\w+)"
    r"|(?:doesn't|does\s+not|don't|do\s+not)\s+have\s+to\s+be)\b",
    I,
)
_MARK = re.compile(r"\s*[:(]?\s*(?:(?P<yes>[✅✔☑👍])|(?P<no>[❌✗✘🚫👎⛔]))")
_CONTRAST = re.compile(r"\b(?:but|though|although|however|whereas|yet)\b", I)
# a clause that continues the one before it: the earlier clause ends on a preposition ("must not be
# transferred to, stored on or processed by AWS") or this one opens a relative clause ("the approved list,
# which today is AWS and GCP")
_OPEN_END = re.compile(r"\b(?:to|on|in|by|with|from|at|into|onto|via|through)\s*,$", I)
_RELATIVE_START = re.compile(r"^\s*(?:which|that|namely|i\.e\.|meaning)\b", I)


def _reach_back(clauses: list[tuple[int, str]], n: int) -> int:
    """The first of the clauses that clause `n` continues (n itself when it starts afresh)."""
    while n > 0 and (_OPEN_END.search(clauses[n - 1][1].rstrip()) or _RELATIVE_START.match(clauses[n][1])):
        n -= 1
    return n


_LIST_CUE = keyed(r"\b(?:e\.g\.|eg\.|such as|for example|for instance|i\.e\.|including)", I)
# the cues asked of the text before (or after) each provider name: asked once per clause (scan.live_patterns)
_HEAD_CUES = (_EXCLUDE, _PREFER, _REQUIRE, _ONLY_THIS_BEFORE, _LIST_CUE, _REQUIRE_AFTER)


def _required(
    local: str,
    after: str,
    ex: re.Match[str] | None,
    pref: re.Match[str] | None,
    data_like: re.Pattern[str],
    live: frozenset[Keyed] | None = None,
    last: Callable[[Keyed, str], re.Match[str] | None] = last_match,
) -> bool:
    """Whether the clause makes the provider named between `local` and `after` a hard requirement: a
    requirement cue nearer the name than any exclusion or preference cue and not negated ("doesn't have
    to be on AWS", "not only AWS"), or "AWS only" / "our AWS account" with no cue against it. Examples of
    a class ("only EU providers, e.g. Scaleway") are preferences, not requirements (`live`: _HEAD_CUES
    whose words the clause holds; None: all)."""
    if (live is None or _LIST_CUE in live) and _LIST_CUE.search(local):
        return False
    req = last(_REQUIRE, local) if live is None or _REQUIRE in live else None
    if req is not None:
        nearest = max((m for m in (ex, pref) if m is not None), key=lambda m: m.start(), default=None)
        if nearest is None or req.start() > nearest.start():
            return not negated(local, req.start())
    if ex is not None or pref is not None or negated(local, len(local)):
        return False
    tail = _REQUIRE_AFTER.match(after) if live is None or _REQUIRE_AFTER in live else None
    if tail is None:
        return False
    # "our data is in our AWS account" names where the data is, unless a requirement cue is there too
    return "only" in tail.group(0).lower() or not data_like.search(local)


def _preferred_in(ctx: Ctx, s: Sentence) -> bool:
    """Whether a preference was already read in sentence `s` ("prefer Lambda, or RunPod")."""
    return any(f.field == "providers_preferred" and f.position >= s.start for f in ctx.findings)
