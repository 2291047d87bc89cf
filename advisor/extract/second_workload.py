"""The second workload of a chat message, beyond "train then serve" (issue 12; advisor/extract/workloads.py).

How people signal a second workload, and which facts go where:
- a serving workload plus a recurring batch job on the side: "Our main thing is serving X ... On top of that,
  every night we re-score ...", "Side job: every Sunday we rerun ...", "Separately, each night between 00:00
  and 04:00 we sample ...". The profile is the serving part (named first, the main workload); the batch job
  is the other one (inference, the same model unless it names one).
- serving now, training later: "Right now we just need to host X ... In Q1 we'll also fine-tune it ...":
  the training part is the profile (as for "train then serve"), the serving part the other one.
- a turn of a conversation that continues a training plan with its serving step: "After that we'd serve it
  to ~120 users", "step two, once it's tuned, we serve it ...": the whole turn is the other workload; the
  profile of the earlier turns keeps its workload.
- a sentence that scopes itself to the whole request ("Everything EU only", "for both phases", "All of this
  must stay in US regions") or states only constraints (a provider, a pricing kind, a region) belongs to
  both parts, wherever it stands; one that names its part ("for this part", "spot is fine for that one")
  stays with it. Every other fact belongs to the part of the sentence it is in.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from advisor.extract import units_text as U
from advisor.extract.base import Finding
from advisor.extract.rules_text import Sentence
from advisor.extract.workloads import Part, Split, serving_findings
from tools.profile import WorkloadProfile

Read = Callable[[tuple[Sentence, ...]], list[Finding]]

# --------------------------------------------------------------------------- facts for both parts
_WHOLE_SCOPE = re.compile(
    r"\b(?:both\s+(?:phases|parts|steps|jobs|workloads|stages|sides|rows|lines|items)|for\s+both\b|everything|all\s+of\s+(?:this|it)"
    r"|(?:the\s+)?whole\s+(?:project|thing|request|setup|programme|program|plan)|across\s+the\s+board|in\s+all\s+cases)\b",
    re.I,
)
# a sentence naming the part it is about keeps to that part: "Spot is fine for that one."
_OWN_PART = re.compile(
    r"\b(?:for|in|on)\s+(?:this|that|the\s+(?:first|second|latter|former|other))\s+(?:one|part|job|phase|step"
    r"|side|workload|bit)\b|\bthis\s+part\b",
    re.I,
)
# fields a sentence may hold and still be about the whole request
CONSTRAINT_FIELDS = frozenset({"eu_only", "us_only", "spot_ok", "cannot_resume", "providers_excluded",
                                "providers_required", "providers_preferred", "pricing_excluded",
                                "data_location"})  # fmt: skip


def share_constraints(sentences: Sequence[Sentence], read: Read) -> tuple[Sentence, ...]:
    """`sentences` (with their parts) where a whole sentence about the request as a whole is shared (its
    section None): it scopes itself to everything, or all it states is constraints. Constraints said of
    one part by name go to that part wherever they stand ("constraints: training on Lambda only")."""
    out = []
    for s in sentences:
        if s.section is not None and (named := _named_part(s, read)) is not None:
            s = Sentence(s.text, s.start, s.block, s.quoted, named)
        elif s.section is not None and shares(s, read):
            s = Sentence(s.text, s.start, s.block, s.quoted, None)
        out.append(s)
    return tuple(out)


_TRAINING_WORD = re.compile(r"\b(?:training|fine[\s-]?tun(?:e|ing)|the\s+fine[\s-]?tune)\b", re.I)
_SERVING_WORD = re.compile(r"\b(?:serving|hosting|inference|deployment)\b", re.I)


def _named_part(s: Sentence, read: Read) -> Part | None:
    """The one part a sentence of constraints names ("training on Lambda only (credits: $2,500, that's the
    training budget)"), None when it names both, neither, or states more than constraints and a budget."""
    train, serve = _TRAINING_WORD.search(s.text), _SERVING_WORD.search(s.text)
    if (train is None) == (serve is None) or _WHOLE_SCOPE.search(s.text):
        return None
    fields = {f.field for f in read((s,))} - {"workload"}  # "The fine-tuning has to ...": its name
    if not fields or not fields <= CONSTRAINT_FIELDS | {"budget_usd"}:
        return None
    return "training" if train is not None else "serving"


# a sentence that is only a budget per month or year (expert review 18, R11: "... Can one box do both? Budget
# $2k/month."): a running cost's budget, which the serving part is held to wherever it stands (a training
# part reads no monthly budget), so it is the request's, not the last part's
_PERIOD_BUDGET = re.compile(
    r"^\W*(?:[a-z]+\s+){0,4}?(?:budget|spend|cap)\b[^.?!\d$€£]{0,25}(?:[$€£]|usd|eur|gbp)?\s*\d[\d.,]*\s*"
    r"(?:k|m|thousand)?\s*(?:[$€£]|usd|eur|gbp|dollars|euros)?\s*(?:/|per|a|an|each)\s*(?:mo|month|year|yr)\b\W*$",
    re.I,
)


def shares(s: Sentence, read: Read) -> bool:
    """Whether sentence `s` is about the request as a whole: it scopes itself to everything, or all it
    states is constraints (providers, pricing, region) or a budget per month, and it names no part of its
    own."""
    if _OWN_PART.search(s.text):
        return False
    if _PERIOD_BUDGET.match(s.text):
        return True
    fields = {f.field for f in read((s,))}
    if _TRAINING_WORD.search(s.text) and _SERVING_WORD.search(s.text):
        fields.discard("workload")  # "Training and serving both on Lambda only": the parts' names, no job
    if _WHOLE_SCOPE.search(s.text):
        if fields & CONSTRAINT_FIELDS:
            # "Everything must be hosted in the EU": the rule's verb names no job of its own (evals v18)
            fields.discard("workload")
        return not (fields - CONSTRAINT_FIELDS - {"budget_usd", "horizon_months"})
    return bool(fields) and fields <= CONSTRAINT_FIELDS


# --------------------------------------------------------------------------- serving plus a batch job
_SERVING_SIGNAL = re.compile(
    r"\b(?:serv(?:e|es|ing)|host(?:s|ing)?|deploy\w*|in[\s-]app|chat\s+product|assistant|endpoint|api"
    r"|concurrent|users?|customers|24/7|main\s+(?:thing|workload))\b",
    re.I,
)
_TRAINING_SIGNAL = re.compile(
    r"\b(?:fine[\s-]?tun\w*|finetun\w*|train(?:ing|ed)?|q?lora|sft|pre-?train\w*)\b", re.I
)
_SIDE_CUE = re.compile(
    r"(?:^|(?<=[.;:])\s*|,\s*)(?:(?:(?:and\s+)?on\s+top\s+of\s+(?:that|this|it)|separately|in\s+addition"
    r"|additionally|besides(?:\s+that)?|apart\s+from\s+that|(?:and\s+)?also|plus|there(?:'s|\s+is)\s+also"
    # "We also need a one-off batch job ...", "we additionally run a weekly backfill"
    r"|we\s+(?:also|additionally)\s+(?:need|want|have|run|do|plan))\b"
    r"|(?:a\s+)?(?:side|second|secondary|background|batch)\s+(?:job|workload|task)\s*:"
    # an ordinal list of two things: "First, the assistant ... Second, one time only: summarise ...",
    # "Secondly:", "(2) a batch job", "2) backfill"
    r"|second(?:ly)?\s*[,:]|(?:the\s+)?second\s+(?:thing|one|part|item)\s*(?:is\s*)?[,:]|\(?(?:2|ii|b)\)\s)",
    re.I,
)
# a recurring or offline job: "every night", "each Sunday", "nightly", "a weekly batch", "between 1 and 5am"
_BATCH_SIGNAL = re.compile(
    r"\b(?:every|each|once\s+a)\s+(?:night|day|evening|morning|week(?:end)?|month|quarter"
    r"|(?:mon|tues|wednes|thurs|fri|satur|sun)day)\b"
    r"|\b(?:nightly|overnight|weekly|daily|monthly|batch|offline|backfill|re-?scor\w*|regenerat\w*"
    r"|re-?run\w*|backlog|archive|one[\s-]?off|one[\s-]time|historic\w*)\b"
    # a one-time pass over records already there: "summarise our 400,000 old tickets"
    r"|\b(?:old|past|existing|archived)\s+(?:\w+\s+)?(?:tickets|documents|docs|e-?mails|records|logs|files|calls"
    r"|transcripts|messages|articles|reviews|pages)\b",
    re.I,
)


def batch_beside_serving(sentences: Sequence[Sentence], read: Read) -> Split | None:
    """The serving part's findings (the profile) and the batch job's (the other workload) when a message
    serves a model and adds a recurring batch job; None when it does not read so."""
    if any(s.section == "training" for s in sentences):
        return None  # a brief's training section: advisor/extract/workloads.py
    for i, s in enumerate(sentences):
        m = next((c for c in _SIDE_CUE.finditer(s.text) if _BATCH_SIGNAL.search(s.text, c.end())), None)
        if m is None:
            continue
        before = [*sentences[:i]]
        head = s.text[: m.start()].rstrip(" ,;")
        if head:
            before.append(Sentence(head, s.start, s.block, s.quoted))
        words = " ".join(x.text for x in before)
        if not before or not _SERVING_SIGNAL.search(words) or _TRAINING_SIGNAL.search(words):
            return None
        at = m.start() + len(s.text[m.start() :]) - len(s.text[m.start() :].lstrip(" ,;"))
        after = [Sentence(s.text[at:], s.start + at, s.block, s.quoted), *sentences[i + 1 :]]
        marked = share_constraints(
            [*(_as(x, "serving") for x in before), *(_as(x, "training") for x in after)], read
        )
        return batch_split(marked, read)
    return None


def batch_split(marked: Sequence[Sentence], read: Read) -> Split | None:
    """The serving part (sentences marked "serving", and the shared ones) as the profile and the batch job
    (marked "training") as the other workload; None when the job states nothing of a job of its own."""
    main = tuple(x for x in marked if x.section != "training")
    side = tuple(x for x in marked if x.section != "serving")
    own_side = tuple(x for x in marked if x.section == "training")
    profile, job = read(main), read(side)
    if not any(f.field in ("generation_tokens", "output_tokens", "deadline_hours") for f in job):
        return None  # "also" with nothing of a job of its own
    # a recurring job's cadence is its own ("every night"), though a training cadence is not served
    runs = [f for f in job if f.field == "runs_per_month"] or _job_cadence(own_side)
    return Split(training=tuple(profile), serving=(*serving_findings(job, own_side, profile), *runs))


# "every Sunday", "each night", "every Monday morning": the job's cadence when the rules read none
_EVERY = re.compile(
    r"\b(?:every|each|once\s+a)\s+(?:(?P<weekday>(?:mon|tues|wednes|thurs|fri|satur|sun)day)"
    r"|(?P<day>night|evening|morning|day)|(?P<week>week(?:end)?)|(?P<month>month))\b",
    re.I,
)


def _job_cadence(own: Sequence[Sentence]) -> list[Finding]:
    """runs_per_month of a recurring job from "every <weekday | night | week | month>" (inferred; the
    conversion is advisor/extract/units_text.py runs_per_month_from)."""
    for s in own:
        if (m := _EVERY.search(s.text)) is not None:
            per = "week" if m.group("weekday") or m.group("week") else "day" if m.group("day") else "month"
            conv = U.runs_per_month_from(1.0, per)
            ev = f'"{m.group(0)}": {conv.how}'
            return [Finding(field="runs_per_month", value=conv.value, status="inferred", evidence=ev,
                            position=s.start + m.start())]  # fmt: skip
    return []


def _as(s: Sentence, part: Part) -> Sentence:
    return Sentence(s.text, s.start, s.block, s.quoted, part)


# --------------------------------------------------------------------------- serving now, training later
_THEN_ALSO_TRAIN = re.compile(
    # ... or beside it, a second job of its own (expert review 18, R11): "Separately, we'll run a QLoRA ...",
    # "Second, we fine-tune ...", "In addition we want to LoRA ..."
    r"\b(?:also|later(?:\s+on)?|afterwards|after\s+that|then|next|eventually|separately|in\s+addition"
    r"|additionally|besides(?:\s+that)?|on\s+top\s+of\s+(?:that|this)|as\s+well|second(?:ly)?(?=\s*[,:])|plus)\b"
    r"[^.;]{0,40}?"
    r"\b(?:fine[\s-]?tun\w*|finetun\w*|train|q?lora|continu\w+\s+pre-?train\w*)\b",
    re.I,
)
_SERVE_VERB = re.compile(r"\b(?:serv(?:e|ing)|host(?:ing)?|deploy(?:ing)?|run\s+inference)\b", re.I)


# the training clause inside the serving sentence: "We serve Qwen3-30B to ~100 users (...), and every week we
# want to LoRA-refresh it on that week's transcripts"
_AND_TRAIN_CLAUSE = re.compile(
    # "..., and every week we want to ...", "... users and we also want to LoRA ...", "...; separately we'll
    # run a QLoRA of ..." (expert review 18, R11)
    r"(?:,\s*|;\s*|\s+(?=and\s+(?:separately\s+|also\s+|additionally\s+)?we\b))(?:and\s+)?"
    r"(?P<clause>(?:(?:also|separately|additionally|later(?:\s+on)?|then|every|each|once\s+a)\s+(?:\w+\s+)?)?"
    r"we(?:\s+also)?(?:(?:\s+want|\s+need|\s+plan|'d\s+like|\s+would\s+like|\s+will|'ll)\s+to\s+(?:also\s+)?"
    r"|(?:'ll|\s+will)\s+(?:also\s+)?(?:run|do)\s+(?:a|an|the|our)\s+)"
    r"(?=(?:full[\s-]+)?(?:fine[\s-]?tun\w*|finetun\w*|re-?train\w*|train\w*|q?lora|continu\w+\s+pre-?train\w*)\b))",
    re.I,
)


def _clause_split(sentences: Sequence[Sentence]) -> tuple[Sentence, ...] | None:
    """`sentences` cut where a sentence that serves a model goes on to train it ("..., and every week we
    want to LoRA-refresh it"): what comes before is serving, the clause and the rest training."""
    for i, s in enumerate(sentences):
        m = _AND_TRAIN_CLAUSE.search(s.text)
        if m is None:
            continue
        earlier = " ".join([*(x.text for x in sentences[:i]), s.text[: m.start()]])
        if not _SERVE_VERB.search(earlier) or _TRAINING_SIGNAL.search(earlier):
            return None
        at = m.start("clause")
        head = Sentence(s.text[: m.start()], s.start, s.block, s.quoted, "serving")
        tail = Sentence(s.text[at:], s.start + at, s.block, s.quoted, "training")
        return (*(_as(x, "serving") for x in sentences[:i]), head, tail,
                *(_as(x, "training") for x in sentences[i + 1 :]))  # fmt: skip
    return None


def serve_then_train(sentences: Sequence[Sentence]) -> tuple[Sentence, ...] | None:
    """`sentences` with a serving section and then a training section when a chat message serves a model
    now and also trains it later, in a sentence of its own or a clause of the serving sentence; None when
    it does not read so."""
    if any(s.section is not None for s in sentences):
        return None
    if (cut := _clause_split(sentences)) is not None:
        return cut
    for i, s in enumerate(sentences):
        if i == 0 or not _THEN_ALSO_TRAIN.search(s.text):
            continue
        earlier = sentences[:i]
        if not any(_SERVE_VERB.search(x.text) for x in earlier):
            return None
        if any(_TRAINING_SIGNAL.search(x.text) for x in earlier):
            return None
        return (*(_as(x, "serving") for x in earlier), *(_as(x, "training") for x in sentences[i:]))
    return None


# --------------------------------------------------------------------------- a turn that continues a plan
_TRAINING_WORKLOADS = ("fine_tuning", "pretraining", "continual_pretraining")
_CONTINUES = re.compile(
    r"^\s*(?:(?:step|phase|stage)\s+(?:two|2|b|ii)\b[\s,:.-]*|and\s+)?"
    r"(?:then|after\s+that|afterwards|after\s*,|after\s+(?:training|the\s+(?:fine-?tune|training|run))"
    r"|(?:once|when)\s+(?:it'?s|it\s+is|that'?s|training\s+is|the\s+(?:fine-?tune|training)\s+is)"
    r"\s+(?:tuned|trained|done|finished|ready)|next|later)?\s*,?\s*"
    r"(?:we(?:'d|'ll|\s+would|\s+will|\s+want\s+to|\s+plan\s+to)?\s+)?"
    r"(?:serve|deploy|host|put\s+it\s+(?:in|into)\s+production|roll\s+it\s+out)\b",
    re.I,
)


def continued_turn(sentences: Sequence[Sentence], read: Read, prior: WorkloadProfile | None) -> Split | None:
    """The turn's findings as the other workload when the earlier turns describe a training run and this
    one opens with its serving step ("After that we'd serve it to ~120 users"); None otherwise."""
    if prior is None or prior.workload not in _TRAINING_WORKLOADS or not sentences:
        return None
    m = _CONTINUES.search(sentences[0].text)
    if m is None or _TRAINING_SIGNAL.search(" ".join(s.text for s in sentences)):
        return None
    if m.group(0).strip().lower().startswith(("serve", "deploy", "host", "put", "roll", "we")):
        return None  # no sequence word: a new request, not the plan's next step
    findings = read(tuple(sentences))
    model: list[Finding] = []
    if prior.model_id is not None:
        model.append(Finding(field="model_id", value=prior.model_id, status="inferred", position=0,
                             evidence=f"the model the earlier messages train: {prior.model_id}"))  # fmt: skip
    return Split(training=(), serving=tuple(serving_findings(findings, sentences, model)))
