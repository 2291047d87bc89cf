"""A message that lists numbered steps or phases describes several workloads: which one the profile is,
and which one is the next to size (issue 12: the numbers of one step must not leak into another).
Constraints said after the last step (an approved vendor list, "no spot") are shared by every step.

"(1) the 405B writes answers ... (2) full fine-tune of the 3B on them ... (3) then the 3B goes live",
"Step 1: ... Step 2: ...", "Phase A: ... Phase B: ...", "(a) pretrain a draft model ... and then (b) serve
the 70B". Markers count up from the first label (1, a, i; "Step one") and a later mention of a label
("price (a) first") is a reference, not a new step. Text before the first marker is shared by every step.

- The profile is the step the user asks to size now ("<- this training run is what I need GPUs for",
  "Only Phase A needs pricing now", "price (a) first"), else the first training step.
- The other workload (`Analysis.other`) is the step after the profile's, or the one before it when the
  profile's step is the last (a teacher's generation before the student's fine-tune). A serving or
  generation step is read as inference with the training facts left out; a training step keeps them. A
  step without a model of its own works on the profile's model ("serve it", "instruction tuning").
- Other steps are not read: their clauses stay in the input's account as not used.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from advisor.extract.base import Finding
from advisor.extract.rules_text import Sentence
from advisor.extract.second_workload import CONSTRAINT_FIELDS, shares
from advisor.extract.workloads import TRAINING_FIELDS, Split, borrowed_model, serving_findings, with_data_of

_ORDER = (
    ("1", "2", "3", "4", "5"),
    ("a", "b", "c", "d", "e"),
    ("i", "ii", "iii", "iv", "v"),
    ("one", "two", "three", "four", "five"),
)
_MARK = re.compile(
    r"(?:(?<![\w)])\(\s*(?P<paren>\d|[a-e]|i{1,3}|iv|v)\s*\)"
    # "Line 1  Compute for ..." (a purchase order's lines), "Item 2:"
    # a tender's lots (evals v18): "Lot 1: fine-tuning ... Lot 2: serving ..."
    r"|\b(?:step|phase|stage|job|task|workload|part|line|item|lot)\s+(?P<word>\d|[a-e]|one|two|three|four|five)\b"
    r"\s*[:.)-]?"
    r"|^\s*(?P<num>\d)[.)]\s"
    # numbered sub-sections of one section headed by a workload (evals v18 DPIA): "4.1 Training. ... 4.2
    # Inference. ..."; not a contract's numbered clauses ("3.1 Consultant shall adapt ...", evals v12)
    r"|^\s*\d{1,2}\.(?P<dec>\d)\.?\s+(?=(?:training|fine[\s-]?tuning|inference|serving|hosting|deployment"
    r"|generation|batch|pre-?training|evaluation)\b)"
    # a letter without its opening parenthesis at a sentence's start or after one: "A) Full SFT ...",
    # "Has to run on CoreWeave. b) Then score ..."
    r"|(?:^|(?<=[.;:!?])\s+)\s*(?P<bare>[a-e]|i{1,3}|iv)\)\s"
    # a capital letter anywhere: lines without full stops run into one sentence ("... 3 epochs B) serve it")
    r"|(?<=\s)(?P<cap>(?-i:[A-E]))\)\s"
    # a workflow's named rules, counted in order (evals v18 Snakefile): "rule cpt:" ... "rule generate:"
    r"|^\s*rule\s+(?P<named>[A-Za-z_]\w*)\s*:)",
    re.I,
)
_TRAINING_WORKLOADS = ("fine_tuning", "pretraining", "continual_pretraining")
# a step the user asks to size now, said inside it: "<- this training run is what I need GPUs for right
# now", "that's the run I need sized and priced today", "this is the one to price"
_NOW_HERE = re.compile(
    r"\b(?:this|that)(?:'s|\s+is)?\s+(?:the\s+)?(?:training\s+)?(?:run|step|part|phase|one|job)?\s*(?:is\s+)?"
    r"(?:what|the\s+(?:run|one|part|step|phase|job))\s+(?:i|we)\s+(?:need|want)\s+(?:to\s+)?(?:\w+\s+){0,2}?"
    r"(?:gpus|sized|priced|costed|sizing|pricing|size|price|cost|quoted)\b"
    r"|\b(?:this|that)(?:'s|\s+is)\s+the\s+(?:one|run|step|part)\s+to\s+(?:size|price|cost|quote)\b",
    re.I,
)


def _now_there(label: str) -> re.Pattern[str]:
    """A step named by its label as the one to size now: "Only Phase A needs pricing now", "price (a)
    first", "step 2 is the one to size"."""
    lab = re.escape(label)
    ref = rf"(?:(?:step|phase|stage|part)\s+{lab}\b|\(\s*{lab}\s*\))"
    return re.compile(
        rf"\b(?:only\s+)?{ref}\s+(?:needs?|is\s+what\s+(?:i|we)\s+need|is\s+the\s+one\s+to)\s+(?:\w+\s+)?"
        rf"(?:pricing|sizing|priced|sized|costing|quoting|price|size|cost|gpus)"
        rf"|\b(?:price|size|cost|quote)\s+{ref}\s+(?:first|now|only)\b",
        re.I,
    )


@dataclass(frozen=True)
class _Step:
    label: str
    sentences: tuple[Sentence, ...]


def _cut(s: Sentence, a: int, b: int) -> Sentence | None:
    piece = s.text[a:b]
    lead = len(piece) - len(piece.lstrip(" ,;"))
    piece = piece.strip(" ,;")
    return Sentence(piece, s.start + a + lead, s.block, s.quoted) if piece else None


def _steps(sentences: Sequence[Sentence]) -> tuple[tuple[Sentence, ...], list[_Step]] | None:
    """(shared sentences, the steps) when `sentences` hold two or more numbered steps; None otherwise."""
    marks: list[tuple[int, int, int, str]] = []  # (sentence index, offset, end of marker, label)
    order: tuple[str, ...] | None = None
    for i, s in enumerate(sentences):
        for m in _MARK.finditer(s.text):
            if m.group("named"):  # a named rule: the next in order
                said = _ORDER[0][len(marks)] if len(marks) < len(_ORDER[0]) else ""
            else:
                keys = ("paren", "word", "num", "dec", "bare", "cap")
                said = next(g for g in (m.group(k) for k in keys) if g)
            said = said.lower()
            if order is None:
                order = next((o for o in _ORDER if o[0] == said), None)
                if order is None:
                    continue
            elif len(marks) >= len(order) or said != order[len(marks)]:
                continue
            marks.append((i, m.start(), m.end(), said))
    if len(marks) < 2:  # noqa: PLR2004 - one marker is a list item, not steps
        return None
    shared: list[Sentence] = []
    steps: list[_Step] = []
    cur: list[Sentence] = []
    label: str | None = None
    k = 0
    for i, s in enumerate(sentences):
        at = 0
        if label is not None and cur and s.text.startswith("#") and (k >= len(marks) or marks[k][0] != i):
            # a heading of its own closes the step ("## 4. Conditions that apply to both workloads" after
            # "Workload B: serving"; evals v17): what it heads is the request's, not the last step's
            steps.append(_Step(label, tuple(cur)))
            cur, label = [], None
        while k < len(marks) and marks[k][0] == i:
            _, start, end, lab = marks[k]
            if (piece := _cut(s, at, start)) is not None:
                (cur if label is not None else shared).append(piece)
            if label is not None:
                steps.append(_Step(label, tuple(cur)))
            cur, label, at, k = [], lab, end, k + 1
        if (piece := _cut(s, at, len(s.text)) if at else s) is not None:
            (cur if label is not None else shared).append(piece)
    if label is not None:
        steps.append(_Step(label, tuple(cur)))
    return tuple(shared), steps


def _trailing_shared(
    shared: tuple[Sentence, ...], steps: list[_Step], read: Callable[[tuple[Sentence, ...]], list[Finding]]
) -> tuple[tuple[Sentence, ...], list[_Step]]:
    """Constraints said after the last step ("(b) serve it to 400 agents. The vendor must be on our
    approved list: AWS or Azure. No spot.") are the request's, not the last step's: the sentences that
    end the last step and state constraints alone (or nothing) move to the shared text, with the
    first sentence of the step kept in it."""
    last = list(steps[-1].sentences)
    moved: list[Sentence] = []
    while len(last) > 1 and (shares(last[-1], read) or not read((last[-1],))):
        moved.insert(0, last.pop())
    if not any(shares(m, read) for m in moved):
        return shared, steps
    return (*shared, *moved), [*steps[:-1], _Step(steps[-1].label, tuple(last))]


# a sentence about one step, said outside it: "Budget for (1): $250k.", "The deadline of step 2 is Friday."
_REFERENCE = re.compile(
    r"\b(?:for|of|on)\s+(?:\(\s*(?P<paren>\d|[a-e]|i{1,3}|iv|v)\s*\)"
    r"|(?:step|phase|stage|job|task|workload|part)\s+(?P<word>\d|[a-e]|one|two|three|four|five)\b)",
    re.I,
)


def _referenced(shared: tuple[Sentence, ...], steps: list[_Step]) -> tuple[tuple[Sentence, ...], list[_Step]]:
    """Sentences that name one step by its label ("Budget for (1): $250k", said after step 2) move to that
    step: they state its facts, not the step they follow or every step's. A step's first sentence stays."""
    labels = [st.label for st in steps]
    moved: dict[str, list[Sentence]] = {lab: [] for lab in labels}

    def target(sen: Sentence, own: str | None) -> str | None:
        m = _REFERENCE.search(sen.text)
        lab = (m.group("paren") or m.group("word")).lower() if m else None
        return lab if lab in moved and lab != own else None

    kept_shared = []
    for sen in shared:
        if (lab := target(sen, None)) is not None:
            moved[lab].append(sen)
        else:
            kept_shared.append(sen)
    kept: list[list[Sentence]] = []
    for st in steps:
        keep = list(st.sentences[:1])
        for sen in st.sentences[1:]:
            if (lab := target(sen, st.label)) is not None:
                moved[lab].append(sen)
            else:
                keep.append(sen)
        kept.append(keep)
    if not any(moved.values()):
        return shared, steps
    out = [_Step(st.label, (*keep, *moved[st.label])) for st, keep in zip(steps, kept, strict=True)]
    return tuple(kept_shared), out


# a step that generates and trains nothing: "generate synthetic data with Llama 3.1 70B - 2M samples x 500
# tokens" is a serving (generation) step, whatever its token volume reads as
_GENERATION_STEP = re.compile(r"\b(?:generat\w*|synthesi[sz]\w*|distil\w*|label\w*|annotat\w*)\b", re.I)
_TRAINING_STEP = re.compile(r"\b(?:fine[\s-]?tun\w*|finetun\w*|train\w*|q?lora|sft|pre-?train\w*)\b", re.I)


def _kind(findings: Sequence[Finding], step: _Step) -> str | None:
    words = " ".join(s.text for s in step.sentences)
    if _GENERATION_STEP.search(words) and not _TRAINING_STEP.search(words):
        return "serving"
    work = next((f.value for f in reversed(findings) if f.field == "workload"), None)
    if work in _TRAINING_WORKLOADS:
        return "training"
    if work == "inference":
        return "serving"
    if any(f.field in TRAINING_FIELDS for f in findings):
        return "training"
    return None


def step_parts(
    sentences: Sequence[Sentence], read: Callable[[tuple[Sentence, ...]], list[Finding]]
) -> Split | None:
    """The profile step's findings and the other step's (see the module docstring); None when the text
    lists no steps or none of them is a training or serving step."""
    if {"training", "serving"} <= {s.section for s in sentences}:
        return None  # a brief's headings already say which part is which (advisor/extract/workloads.py)
    found = _steps(sentences)
    if found is None:
        return None
    shared, steps = _referenced(*_trailing_shared(*found, read))
    own = [read(st.sentences) for st in steps]
    kinds = [_kind(f, st) for f, st in zip(own, steps, strict=True)]
    if sum(1 for k in kinds if k) < 2:  # noqa: PLR2004
        # one workload in parts that are no jobs of their own ("Part A: how much memory ...? Part B:
        # propose a GPU count. Constraints: at most 8 GPUs"; evals v18): read as one, nothing left out
        return None
    whole = " ".join(s.text for s in sentences)
    here = (i for i, st in enumerate(steps) if any(_NOW_HERE.search(s.text) for s in st.sentences))
    pick = next(here, None)
    if pick is None:
        pick = next((i for i, st in enumerate(steps) if _now_there(st.label).search(whole)), None)
    if pick is None:
        pick = next((i for i, k in enumerate(kinds) if k == "training"), None)
    if pick is None:
        return None
    other = pick + 1 if pick + 1 < len(steps) else pick - 1
    profile = read((*shared, *steps[pick].sentences))
    if other < 0 or kinds[other] is None:
        return Split(training=tuple(profile), serving=())
    second = read((*shared, *steps[other].sentences))
    second += _same_as(profile, second, steps[other])
    if kinds[other] == "serving":
        # "Job A: generate 1.5B tokens ... Job B: full fine-tune the 8B on those outputs": A's output
        serving = serving_findings(second, steps[other].sentences, profile)
        trained = with_data_of(profile, serving, steps[pick].sentences)
        return Split(training=tuple(trained), serving=tuple(serving))
    if not any(f.field in ("model_id", "params_b") for f in own[other]):
        second = [f for f in second if f.field not in ("model_id", "params_b")]
        second += borrowed_model(profile, "the model the step before trains")
    return Split(training=tuple(profile), serving=tuple(second))


# a step that takes another's rules by reference (evals v18 DPIA): "Same location and processor requirements
# as 4.1", "the same constraints as step 1 apply", "same rules as above"
_SAME_AS = re.compile(
    r"\bsame\s+(?:[\w-]+\s+(?:and\s+)?){0,4}?(?:requirements?|constraints?|rules?|conditions?|restrictions?)"
    r"\s+(?:as|like|apply)\b",
    re.I,
)


def _same_as(profile: Sequence[Finding], second: Sequence[Finding], step: _Step) -> list[Finding]:
    """The profile step's constraints (region, providers, pricing) for a step that says it has the same ones,
    where it states none of that kind itself."""
    if not any(_SAME_AS.search(s.text) for s in step.sentences):
        return []
    own = {f.field for f in second}
    return [f for f in profile if f.field in CONSTRAINT_FIELDS and f.field not in own]
