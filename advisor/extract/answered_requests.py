"""Questions and requests a computed answer answers, beyond advisor/extract/accounting.py's own (expert
review 6: R12 "Please give GPU type, count, expected hours and total cost", R14 "Is that possible and which
provider should we use?", R15 "How many GPUs?" were answered and still listed as "could not answer" or
"did not use").

- `question_patterns(rec)`: "how many GPUs / H100s / nodes", "which provider / cloud", "is that possible /
  feasible": any pick answers them (its count, its provider, and that a feasible option exists).
- `asks_deliverables(text, rec)`: a clause that only lists what the answer should give ("Please give GPU
  type, count", "expected hours and total cost", "rough numbers"): answered by a pick; hours and time only
  by a job's pick (a serving pick gives rates, not hours).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from advisor.extract.alternative_answers import alternative_patterns
from advisor.extract.honoured_clauses import honoured_clause
from tools.catalog.load import load_catalog
from tools.errors import InputError

if TYPE_CHECKING:
    from tools.recommend.models import Recommendation

I = re.I  # noqa: E741

HOW_MANY_Q = re.compile(
    r"\bhow\s+many\s+(?:more\s+)?(?:nvidia\s+)?(?:gpus?|cards?|nodes?|servers?|instances?|accelerators?"
    r"|replicas?|machines?|boxes|[ahbl]\d{2,3}\w*|rtx\s?\d{4}s?|l40s?|l4s?)\b",
    I,
)
WHICH_PROVIDER_Q = re.compile(
    r"\b(?:which|what)\s+(?:cloud\s+|gpu\s+)?(?:providers?|clouds?|vendors?|platforms?|hosts?)\b"
    r"|\bwhere\s+(?:should|could|can|do)\s+(?:we|i)\s+(?:rent|run|host|train)\b",
    I,
)
# "Which servers and how many do you recommend?" (expert review 15, R02): the pick's type and count
WHICH_AND_HOW_MANY_Q = re.compile(
    r"\b(?:which|what)\s+(?:kind\s+of\s+|type\s+of\s+)?(?:servers?|nodes?|gpus?|cards?|machines?|instances?|boxes"
    r"|hardware)\s+(?:and|&)\s+how\s+many\b"
    r"|\bhow\s+many\s+(?:of\s+them\s+)?(?:do|should|would)\s+(?:you|we|i)\s+(?:recommend|suggest|need)\b",
    I,
)
# "We already have 2x A100 80GB in house - can we use those?" (expert review 15, R19 turn 3): the verdict on
# the team's own cards answers it
USE_OWNED_Q = re.compile(
    r"\b(?:can|could)\s+(?:we|i)\s+(?:just\s+)?(?:use|run\s+(?:it|this)\s+on|do\s+(?:it|this)\s+(?:on|with)"
    # "Can we finish it on the reservation?" (expert review 16, R20 turn 2): the pick on it answers
    r"|(?:finish|complete|train|fit)\s+(?:it|this|that)\s+(?:on|with|within|in))\s+"
    r"(?:those|these|them|it|the\s+reservation|our\s+(?:own\s+)?\w+)\b",
    I,
)
POSSIBLE_Q = re.compile(
    r"\bis\s+(?:that|it|this)\s+(?:even\s+)?(?:possible|feasible|doable|realistic|achievable)\b", I
)
# words of a clause that only lists what the answer should contain
_REQUEST_WORDS = frozenset(
    {
        "please", "kindly", "give", "provide", "list", "tell", "send", "share", "include", "us", "me",
        "the", "a", "an", "and", "or", "&", "expected", "estimated", "estimate", "estimates", "total",
        "overall", "monthly", "rough", "ballpark", "gpu", "gpus", "type", "types", "count", "number",
        "numbers", "of", "figures", "hours", "time", "duration", "wall-clock", "cost", "costs", "price",
        "pricing", "provider", "card", "cards", "instance",
        # "Give us the configuration and estimated cost" (expert review 20, R19): the pick is the set-up
        "configuration", "config", "setup", "set-up",
        # "Estimate the wall-clock time per run and in total" (expert review 19, R05): a campaign's pick
        # prints both
        "per", "run", "runs", "each", "in", "all",
    }
)  # fmt: skip
_SUBSTANCE = frozenset(
    {
        "type", "types", "count", "number", "numbers", "figures", "estimate", "estimates", "ballpark",
        "hours", "time", "duration", "cost", "costs", "price", "pricing", "provider", "configuration",
        "config", "setup", "set-up",
    }
)  # fmt: skip
_JOB_ONLY = frozenset({"hours", "time", "duration", "wall-clock"})
_TOKEN = re.compile(r"[\w&-]+")


# "what's the minimum to rent?", "which cloud GPUs should we rent?": a rented pick answers it (expert
# review 11, R09/P09b: listed as "a question I could not answer" beside the rental it recommended)
RENT_Q = re.compile(
    r"\b(?:minimum|min|least|smallest|cheapest)\b.*\b(?:rent\w*|leas\w*|cloud)\b"
    r"|\b(?:which|what)\s+(?:cloud\s+)?(?:gpus?|cards?|instances?|hardware)\s+(?:should|do|would|could|can|must)"
    r"\s+(?:we|i)\s+(?:need\s+to\s+)?rent\b"
    r"|\bwhat\s+(?:should|do|would|must)\s+(?:we|i)\s+(?:need\s+to\s+)?rent\b",
    I,
)
# "If not", "If it does not fit on them": the condition the verdict on the team's own cards answers; also
# opened by a conjunction in a follow-up ("and if not, how many more GPUs?", expert review 16, R20)
IF_NOT_FIT = re.compile(
    r"^\W*(?:(?:and|but|or|so)\s+)?if\s+(?:not|no|it\s+(?:does\s*n[o']t|doesn'?t|won'?t|will\s+not|can\s*n[o']t)\s+(?:fit|run|work)"
    r"(?:\s+on\s+(?:them|it|those|these|ours|our\s+\w+))?)\W*$",
    I,
)
# "(24GB each)" beside owned cards: their memory, which the catalog's figure for them already holds
OWNED_MEMORY = re.compile(r"^\W*(?P<gb>\d{1,3})\s*gb(?:\s+(?:each|apiece|per\s+(?:card|gpu)|vram))?\W*$", I)

# "true?", "is that right?" after a claim: the claim's check answers it (expert review 9, R05)
VERIFY_Q = re.compile(
    r"\b(?:is\s+(?:that|this|it)\s+)?(?:really\s+)?(?:true|right|correct|accurate)\b"
    # a reported sizing asked about (expert review 17, R14): "Is that enough?", "is that sized right?"
    r"|\b(?:is|are)\s+(?:that|this|it|they)\s+(?:really\s+)?(?:enough|sufficient|adequate|realistic"
    r"|reasonable)\b|\b(?:sized|scoped)\s+(?:right|correctly|properly)\b"
    # the bare doubt after a reported claim (expert review 18, R08: "That seems like a lot to me. Is it?")
    r"|^\W*(?:is|isn'?t|was|wasn'?t)\s+(?:it|that|this)\W*$|\boverkill\b|\btoo\s+(?:much|many)\b"
    r"|\b(?:seems?|sounds?|looks?)\s+(?:like\s+)?(?:a\s+lot|a\s+bit\s+much|excessive|high|too\s+(?:much|many))\b",
    I,
)


# "when does it pay off?", "when would buying break even?": the buy-vs-rent block's break-even months answer
# (expert review 18, R17: listed as "a question I could not answer" beside the block that said "never")
PAY_OFF_Q = re.compile(
    r"\bwhen\s+(?:does|do|would|will)\s+(?:it|that|this|buying|the\s+(?:purchase|hardware|servers?)|they|we)\s+"
    r"(?:pay\s+(?:off|for\s+(?:it|them)sel(?:f|ves)|back)|break\s+even)\b|\bbreak[\s-]even\s+(?:point|month)\b"
    r"|\bpay\s*back\s+period\b",
    I,
)


# "would renting H100s be worth it instead?", "is it cheaper to rent?" beside the team's own GPUs (expert
# review 18, R03): the owned pick's "renting instead: the cheapest rental ... costs $N more" line answers it
RENT_INSTEAD_Q = re.compile(
    r"\b(?:would|is|does|will|could)\s+(?:it\s+be\s+)?(?:\w+\s+)?rent\w*\b[^.?!]{0,40}?\b(?:worth|cheaper|better"
    r"|faster|sooner|make\s+sense|pay\s+off|save)\b"
    r"|\bworth\s+renting\b|\brent\w*\s+(?:\w+\s+){0,3}?instead\b",
    I,
)


# "Can one box do both?" of a message with two workloads (expert review 18, R11): advisor/one_box.py answers
# it with tools/recommend/shared_box.py's check
# a node's size between "one" and "node" ("one 8-GPU node", "a single 8x node", expert review 19, R08)
_NODE_SIZE = (
    r"(?:\d{1,2}[\s-]*(?:x\s*)?(?:gpus?|cards?|(?:nvidia\s+)?[ahbl]\d{2,3}\w*|l40s|mi\d{3}x?)?[\s-]*"
    r"|eight[\s-]gpu\s+)?"
)
# "what would each cost?" of two workloads (expert review 20, R08): advisor/both_parts.py answers it
EACH_Q = re.compile(
    r"\b(?:what|how\s+much)\b[^.?!]{0,40}\b(?:each|both)\b[^.?!]{0,25}\b(?:cost|run|come\s+to|be)\b"
    r"|\b(?:each|both)\s+(?:one\s+|part\s+|of\s+them\s+|of\s+these\s+)?(?:would\s+)?(?:cost|come\s+to)\b"
    r"|\bcost\s+(?:of\s+)?(?:each|both)\b"
    r"|\bwhich\s+(?:of\s+(?:these|the\s+two|them|the\s+two\s+(?:jobs|parts|workloads))\s+|one\s+|part\s+|job\s+)?"
    r"(?:needs?|requires?|takes?)\s+(?:the\s+)?(?:bigger|larger|more|biggest|largest)\b",
    I,
)
"""A question that compares the two parts: 'what would each cost?', 'which of these needs the bigger box?'."""


ONE_BOX_Q = re.compile(
    rf"\b(?:one|a\s+single|the\s+same|single|1)\s+{_NODE_SIZE}(?:box|server|machine|node|instance|gpu\s+server"
    r"|setup|set-up|cluster|rig)\b[^.?!]{0,40}\b(?:both|two|everything|all\s+of\s+(?:it|this)|it\s+all)\b"
    r"|\b(?:both|two|everything|it\s+all|all\s+of\s+(?:it|this)|the\s+whole\s+thing)\b[^.?!]{0,30}\b(?:on|in"
    rf"|into|with|from|share)\s+(?:one|a\s+single|the\s+same|single)\s+{_NODE_SIZE}"
    r"(?:box|server|machine|node|instance|setup|set-up|cluster|hardware)\b"
    r"|\bshare\s+(?:the\s+|a\s+|one\s+)?(?:gpus?|box|server|machine|hardware|node)\b",
    I,
)
TCO_ASKED = re.compile(r"\b(?:tco|total\s+cost\s+of\s+ownership)\b", I)
# "which is cheaper?", "what's better" between two set-ups: their comparison answers it (review 11, R13)
WHICH_SETUP_Q = re.compile(
    r"\b(?:which|what)(?:'s|\s+is|\s+one\s+is|\s+would\s+be|\s+(?:works|comes)\s+out|\s+ends\s+up)?\s+(?:the\s+)?"
    r"(?:cheaper|better|less\s+expensive"
    r"|more\s+cost[\s-]effective)\b",
    I,
)


def question_patterns(rec: Recommendation) -> list[re.Pattern[str]]:
    """The extra questions a recommendation with a pick answers (module docstring), a bare check of a
    claim when the claim was checked, and 'which is cheaper?' when two set-ups were compared."""
    out = [HOW_MANY_Q, WHICH_AND_HOW_MANY_Q, WHICH_PROVIDER_Q, POSSIBLE_Q] if rec.primary is not None else []
    if rec.profile.owned_gpu is not None and (rec.expectation_checks or _on_owned(rec)):
        out.append(USE_OWNED_Q)  # the check on the team's cards, or the pick on them, says yes or no
    if rec.primary is not None and rec.primary.pricing != "owned":
        out.append(RENT_Q)  # the pick is the rental
    if rec.primary is not None and any(w.startswith("renting instead:") for w in rec.primary.why):
        out.append(RENT_INSTEAD_Q)  # the owned pick's line on renting instead
    compared = bool(rec.profile.gpu_counts_compared) and bool(rec.expectation_checks)
    # "H100s vs B200s - which is cheaper?": the two types' comparison (tools/recommend/compare_gpu_types.py)
    compared = compared or any(c.claim.startswith("which is cheaper:") for c in rec.expectation_checks)
    compared = compared or _named_buy_rent(rec)  # "buying 4x H100 vs renting. Which is cheaper?" (review 13)
    out += [PAY_OFF_Q] if rec.buy_vs_rent is not None else []
    # lazy: tools.recommend loads the whole recommender; the extractors import this module without it
    from tools.recommend.shared_box import CLAIM_PREFIX  # noqa: PLC0415

    one_box = any(c.claim.startswith(CLAIM_PREFIX) for c in rec.expectation_checks)
    out += [ONE_BOX_Q] if one_box else []
    out += [EACH_Q] if any(c.claim.startswith("both parts:") for c in rec.expectation_checks) else []
    out += alternative_patterns(rec)  # "better off renting 8x H200?", "is that plausible?" (review 19, R06)
    return out + ([VERIFY_Q] if rec.expectation_checks else []) + ([WHICH_SETUP_Q] if compared else [])


def answered_clause(kind: str, text: str, rec: Recommendation) -> bool:
    """Whether a clause that is not a question is answered: a list of deliverables the pick gives, or "if
    not" / "if it does not fit on them" beside cards the team owns (the verdict on them answers it)."""
    owned = rec.profile.owned_gpu
    if owned is not None and IF_NOT_FIT.search(text):
        return True
    if owned is not None and (m := OWNED_MEMORY.search(text)) is not None:
        try:
            marketed_gb = load_catalog().gpu(owned).memory_gb
        except (InputError, KeyError, LookupError):
            return False
        return abs(float(m.group("gb")) - marketed_gb) <= 1.0  # the card the catalog sizes it on
    if kind == "context" and rec.buy_vs_rent is not None and TCO_ASKED.search(text):
        return True  # "Please provide a TCO comparison": the buy-vs-rent timeline (expert review 18, R06)
    if kind == "context" and rec.expectation_checks and VERIFY_Q.search(text):
        return True  # "That seems like a lot to me" beside a checked claim: the check answers the doubt
    if kind != "instruction" and honoured_clause(text, rec):  # "no AWS please" with aws excluded (review 14)
        return True
    return kind == "context" and asks_deliverables(text, rec)


def asks_deliverables(text: str, rec: Recommendation) -> bool:
    """Whether `text` only lists what the answer gives, and `rec`'s pick gives it (module docstring)."""
    if rec.primary is None:
        return False
    words = [w.lower() for w in _TOKEN.findall(text)]
    if not words or any(w not in _REQUEST_WORDS for w in words) or not _SUBSTANCE.intersection(words):
        return False
    return rec.primary.cost_basis == "per_job" or not _JOB_ONLY.intersection(words)


def _named_buy_rent(rec: Recommendation) -> bool:
    """Whether the buy-vs-rent timeline is the one of the set-up the user named (claimed_gpu x
    claimed_gpu_count, tools.recommend.named_buy_rent): its 'cheapest over the horizon' answers 'which is
    cheaper?'."""
    p, t = rec.profile, rec.buy_vs_rent
    if t is None or p.claimed_gpu is None or t.owned or t.n_gpus != p.claimed_gpu_count:
        return False
    try:
        return load_catalog().gpu(p.claimed_gpu).name == t.gpu_name
    except (InputError, KeyError, LookupError):
        return False


def _on_owned(rec: Recommendation) -> bool:
    """Whether the pick runs on the team's own hardware."""
    return rec.primary is not None and rec.primary.pricing == "owned"
