"""A brief with a training section and a serving section describes two workloads: which sentences feed which.

The profile describes one workload. When a text has both a training section and a serving section (headings
or "Training: ..." / "Serving: ..." keys, advisor/extract/brief_text.py) and each of them states a fact of
its own kind, the rules read it twice: the training sentences plus the shared ones (background, compliance,
budget) make the profile, the serving sentences plus the shared ones make the *other* workload. Numbers
stay with their section: the serving context window is not the training sequence length, the serving
users are not training data.

The other workload travels as `InputAccount.other_workload` (tools/input_account.py): it is what the input
held that this answer did not size, so every front end that already says what was not used (reply, web,
Slack, the report's workload section) names it and says how to get it ("size the serving part").
`switch_request` reads that request; `swap` makes the other workload the profile and keeps the first as the
other one, so "now the training part" goes back.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from advisor.extract.base import Finding
from advisor.extract.batch_part import batch_volume
from advisor.extract.rules_text import Sentence
from tools.input_account import InputAccount
from tools.profile import WorkloadProfile

Part = Literal["training", "serving"]

# Facts that show a section describes its own workload (read from that section's own sentences).
TRAINING_FIELDS = frozenset({"method", "dataset_tokens", "dataset_gb", "epochs", "seq_len", "lora_rank",
                             "batch_size", "runs_per_month"})  # fmt: skip
SERVING_FIELDS = frozenset({"concurrency", "context_len", "latency_ms_per_token", "target_tokens_per_s",
                            "ttft_target_s", "response_target_s", "latency_percentile",
                            "prompt_tokens", "output_tokens", "generation_tokens",
                            "availability_target"})  # fmt: skip
_MODEL_FIELDS = ("model_id", "params_b")


@dataclass(frozen=True)
class Split:
    """The findings of a two-workload text: the training part's (the profile) and the serving part's."""

    training: tuple[Finding, ...]
    serving: tuple[Finding, ...]


def _own(findings: Sequence[Finding], sentences: Sequence[Sentence], fields: frozenset[str]) -> bool:
    """Whether a finding for one of `fields` lies inside one of `sentences` (the section's own words)."""
    starts = [s.start for s in sentences]
    for f in findings:
        if f.field not in fields:
            continue
        i = bisect.bisect_right(starts, f.position) - 1
        if i >= 0 and f.position <= sentences[i].start + len(sentences[i].text):
            return True
    return False


def split_parts(
    sentences: Sequence[Sentence], read: Callable[[tuple[Sentence, ...]], list[Finding]]
) -> Split | None:
    """The two parts' findings when `sentences` hold a training and a serving section that each state a
    fact of their kind; None otherwise (one workload: read everything as one). `read` runs the rules."""
    kinds = {s.section for s in sentences}
    if "training" not in kinds or "serving" not in kinds:
        return None
    sentences = [_keyed_line(s) for s in sentences]
    own_train = tuple(s for s in sentences if s.section == "training")
    own_serve = tuple(s for s in sentences if s.section == "serving")

    def training_part() -> list[Finding] | None:
        found = read(tuple(s for s in sentences if s.section != "serving"))
        return found if _own(found, own_train, TRAINING_FIELDS) else None

    def serving_part() -> list[Finding] | None:
        found = read(tuple(s for s in sentences if s.section != "training"))
        found += _volume_generated(found, own_serve)  # "then translate 1.2B tokens of docs with it"
        return found if _own(found, own_serve, SERVING_FIELDS) else None

    if serving_first(own_train, own_serve):
        serving = serving_part()
        training = training_part() if serving is not None else None
    else:
        training = training_part()
        serving = serving_part() if training is not None else None
    if training is None or serving is None:
        return None
    training = with_data_of(training, serving, own_train)
    return Split(training=tuple(_with_model_of(training, serving)),
                 serving=tuple(serving_findings(serving, own_serve, training)))  # fmt: skip


def serving_first(own_train: Sequence[Sentence], own_serve: Sequence[Sentence]) -> bool:
    """Whether split_parts reads the serving part first: the part with fewer sentences of its own is the
    likelier to state no fact of its kind, and then the text is read as one and the other part's reading
    would be thrown away (issue 12, speed4: a 20,000-character brief read both parts, then the whole).
    Each reading is independent of the other, so the order changes no finding."""
    return len(own_serve) <= len(own_train)


# the training part names the generated output as its data: "then fine-tune the 8B on it"
_ON_THE_OUTPUT = re.compile(
    r"\bon\s+(?:it|them|that|those|this|these|the\s+(?:synthetic|generated)\s+\w+|the\s+outputs?|the\s+results?)\b",
    re.I,
)


def with_data_of(
    training: list[Finding], serving: Sequence[Finding], own_train: Sequence[Sentence]
) -> list[Finding]:
    """The training part's findings; when it trains "on it" (the output the generation part writes) and
    states no data of its own, its dataset is that output (inferred, with the generation part's words)."""
    if any(f.field == "dataset_tokens" for f in training):
        return training
    gen = next((f for f in serving if f.field == "generation_tokens"), None)
    said = next((s for s in own_train if _ON_THE_OUTPUT.search(s.text)), None)
    if gen is None or said is None:
        return training
    ev = f"the data the generation part writes: {gen.evidence}"
    return [*training, Finding(field="dataset_tokens", value=gen.value, status="inferred", evidence=ev,
                               position=said.start)]  # fmt: skip


def _keyed_line(s: Sentence) -> Sentence:
    """A sentence that opens with a part's key belongs to that part, wherever it stands (a brief's budget
    section, or one line holding both: "Training: up to EUR 25,000 one-off. Serving: ideally below EUR 15k
    per month.")."""
    if (m := _PART_KEY.match(s.text)) is None:
        return s
    return Sentence(s.text, s.start, s.block, s.quoted, _part_named(m))


def _with_model_of(training: list[Finding], serving: Sequence[Finding]) -> list[Finding]:
    """The training part's findings; without a model of its own ("a full fine-tune of the same model") it
    adapts the model the serving part serves (inferred, with the serving part's words)."""
    if any(f.field in _MODEL_FIELDS for f in training):
        return training
    return training + borrowed_model(serving, "the model the brief's serving part serves")


def borrowed_model(findings: Sequence[Finding], said: str) -> list[Finding]:
    """The model findings of the other part, as inferred for this one (evidence: `said` and their words)."""
    return [
        Finding(
            field=f.field,
            value=f.value,
            status="inferred",
            position=f.position,
            evidence=f"{said}: {f.evidence}",
        )  # fmt: skip
        for f in findings
        if f.field in _MODEL_FIELDS
    ]


# A chat message that trains and then serves: "fine-tune X on Y and then serve it to Z users", "LoRA ...
# Afterwards we'll deploy it for 300 analysts". The serving part starts at the cue; the training verb must
# come before it.
_TRAIN_VERB = re.compile(
    # preference tuning trains too: "Full DPO on Qwen2.5 7B ... after it's trained we serve it"
    r"\b(?:fine[\s-]?tun\w*|finetun\w*|train\w*|q?lora|sft|continu\w+ pre-?train\w*|pre-?train\w*"
    r"|dpo|orpo|kto|simpo|grpo|rlhf)\b",
    re.I,
)
_THEN_SERVE = re.compile(
    r"(?:,?\s*\b(?:and\s+)?(?:\(?(?:\d|[a-e]|[ivx]{1,3})\)\s*)?(?:then|afterwards|after\s+that|after\s*,|later|next"
    # a second job beside the training one: "In parallel we also need to generate ...", "At the same time,
    # we serve ...", "Separately, we host ..."
    r"|in\s+parallel|at\s+the\s+same\s+time|meanwhile|separately|alongside(?:\s+(?:that|this|it))?"
    r"|on\s+top\s+of\s+(?:that|this)|in\s+addition|additionally"
    # review 13, R17: "monthly SFT runs (...) plus serve it for 500 users", "as well as host it"
    r"|plus|as\s+well\s+as"
    # "and after it's trained we serve it to the app"
    r"|(?:once|when|after)\s+(?:it'?s|that'?s|that\s+is|trained|done)(?:\s+\w+){0,3}\s*,?)\s*,?\s+"
    # a condition between the cue and the serving verb: "Later, if it turns out well, we'd host it"
    r"(?:(?:if|once|when|assuming)\s+[^,.;]{1,40},\s*)?"
    r"|(?:^|[,;]\s*|\band\s+)(?:\(?(?:\d|[a-e]|[ivx]{1,3})\)\s*)?"
    # a Gantt chart's bar before the item: "Jan W4-Jun  ██████████  Serve: 250 concurrent agents"
    r"|[█▓▒░■▇▆▅]{2,}\s*)"
    r"(?:(?:we\s+(?:also\s+|then\s+)?(?:want|need|plan|would\s+like|'d\s+like|will|'ll|hope|have)\s+to\s+"
    r"(?:also\s+)?|we'll\s+(?:also\s+)?|we\s+will\s+(?:also\s+)?"
    r"|we(?:'d|\s+would|\s+could|\s+might)\s+(?:also\s+)?|we\s+(?:then\s+|also\s+)?|to\s+)?"
    # "use the tuned model to label ...", "put it for our clients", "roll it out to ..."
    r"(?:use\s+(?:it|them|the\s+(?:\w+[\s-]){0,2}?model)\s+(?:to|for)\s+(?=\w)"
    r"|serv(?:e|ing)|deploy(?:ing)?|host(?:ing)?|run(?:ning)?\s+(?:batch\s+|offline\s+)?inference|put(?:ting)?\s+it\s+in\s+production"
    r"|put(?:ting)?\s+it\s+(?:for|to|in\s+front\s+of|out\s+(?:for|to))|roll(?:ing)?\s+it\s+out"
    r"|(?:make|making)\s+it\s+available|launch(?:ing)?\s+it"
    # the tuned model as what a product runs on: "Afterwards it powers the support widget"
    r"|(?:it|the\s+(?:\w+[\s-]){0,2}?model)\s+(?:will\s+|would\s+|then\s+)?(?:power|back|drive)s?\s+(?:the|our|a)\b"
    # a job named with its noun, or run: "a generation job", "run a one-off batch" (not a bare "a batch",
    # which may be the training's own: "Next, a batch of 16 sequences at 4k context per step")
    r"|(?:a|the)\s+(?:(?:one[\s-]?off|nightly|weekly|monthly|big|large)\s+)?(?:batch|offline|generation"
    r"|labell?ing|scoring)\s+(?:job|run|step|pass)"
    r"|run\s+(?:a|the)\s+(?:(?:one[\s-]?off|nightly|weekly|monthly|big|large)\s+)?(?:batch|offline)"
    # what a tuned model is then used for: "then we translate 1.2B tokens of docs with it"
    r"|generat(?:e|ing)|label(?:l?ing)?|annotat(?:e|ing)|translat(?:e|ing)|summari[sz](?:e|ing)|classify(?:ing)?"
    r"|re-?scor(?:e|ing)|caption(?:ing)?)"
    # the model as the subject, in the passive or going live: "it will be served with 32 requests", "the
    # tuned model goes live for 400 users", "it gets deployed", "the model is then put into production"
    r"|(?:it|(?:the|our)\s+(?:[\w.-]+\s+){0,3}?(?:model|adapter|checkpoint|version|assistant|bot))"
    r"\s+(?:(?:will|would|should|shall|is\s+going\s+to|has\s+to|must)\s+)?(?:then\s+)?"
    r"(?:be|is|are|gets?|goes|go)\s+(?:then\s+)?(?:served|deployed|hosted|live|(?:put\s+)?in(?:to)?\s+production"
    r"|rolled\s+out|exposed|made\s+available|used\s+by|opened\s+(?:up\s+)?to))\b",
    re.I,
)
# ... and the other way round: a generation job whose output then trains a model ("generate 50M tokens with
# the 405B first, then full fine-tune the 8B on it"). The training part starts at the cue.
_GENERATE_VERB = re.compile(r"\b(?:generat\w*|synthesi[sz]\w*|distil\w*|label\w*|annotat\w*)\b", re.I)
_THEN_TRAIN = re.compile(
    r",?\s*\b(?:and\s+)?(?:then|afterwards|after\s+that|next|(?:once|when)\s+(?:it'?s|that'?s|that\s+is)"
    r"\s+done\s*,?)\s*,?\s+(?:we\s+(?:want|need|plan|will|'ll)\s+to\s+|we'll\s+|we\s+|to\s+)?"
    r"(?:(?:do|run)\s+(?:a\s+|the\s+)?)?"
    r"(?=(?:(?:full(?:y)?|full[\s-]parameter)[\s-]+)?(?:fine[\s-]?tun\w*|finetun\w*|train\w*|q?lora|sft"
    r"|continu\w+\s+pre-?train\w*)\b)",
    re.I,
)
# "Serving side: ...", "Training part: ...", "Inference: ..." opening a sentence of a chat message: the part
# it names runs until the next such key.
_PART_KEY = re.compile(
    r"^\s*(?:\(?(?:\d|[a-e]|[ivx]{1,3})\)\s*)?(?P<part>training|fine[\s-]?tuning|serving|inference|hosting|deployment)"
    r"(?:\s+(?:side|part|workload|half|bit))?\s*:\s+\S"
    # "Serving side we need ...", "Training part - QLoRA ...": the part's word with its noun, no colon
    r"|^\s*(?:on\s+the\s+)?(?P<part2>training|fine[\s-]?tuning|serving|inference|hosting|deployment)"
    r"\s+(?:side|part|workload|half)\b\s*[,:\-–—]?\s+\S"
    # a table row's first cell naming its workload ("| Fine-tune | Qwen2.5 7B | ...", "| Batch generation |
    # ..."; rules_text turns a row's cells into "cell;" sentences): the row is that part
    r"|^\s*(?P<part3>(?:full\s+|lora\s+|qlora\s+)?(?:fine[\s-]?tun\w*|training|sft|pre-?training|serving"
    r"|inference|hosting|deployment|(?:batch|offline|synthetic(?:\s+data)?)\s+(?:generation|inference|labell?ing)"
    r"|generation))\s*;\s*$"
    # a row whose first cell is the job said as an action ("| CPT of Qwen2.5 32B on 5B tokens | ML | ...",
    # "| Serve the CPT model: 80 concurrent | Infra | ..."): the row is that part
    r"|^\s*(?P<part4>(?:cpt|continu\w+\s+pre-?train\w*|(?:full\s+)?fine[\s-]?tun\w*|train\w*|sft|dpo|orpo"
    r"|q?lora|pre-?train\w*|serv(?:e|ing)|host\w*|deploy\w*|generat\w*|scor(?:e|ing)|label\w*|translat\w*))"
    r"\b[^;]{0,120};\s*$",
    re.I,
)


def _part_named(m: re.Match[str]) -> Part:
    """The part a _PART_KEY match names: serving for serving, inference, hosting, deployment, generation."""
    word = (m.group("part") or m.group("part2") or m.group("part3") or m.group("part4")).lower()
    serving = ("serv", "infer", "host", "deploy", "batch", "offline", "synthetic", "generat", "scor", "label",
               "translat")  # fmt: skip
    return "serving" if word.startswith(serving) else "training"


def _keyed_parts(sentences: Sequence[Sentence]) -> tuple[Sentence, ...] | None:
    """`sentences` with their parts when sentences open with part keys ("Serving side: ... Training side:
    ..."): each keyed sentence and the ones after it belong to its part; those before any key are shared.
    None unless both parts are keyed."""
    out: list[Sentence] = []
    part: Part | None = None
    seen: set[Part] = set()
    for s in sentences:
        m = _PART_KEY.match(s.text)
        if m is not None:
            part = _part_named(m)
            seen.add(part)
        out.append(Sentence(s.text, s.start, s.block, s.quoted, part) if part else s)
    return tuple(out) if seen == {"training", "serving"} else None


def chat_sections(sentences: Sequence[Sentence]) -> tuple[Sentence, ...] | None:
    """`sentences` with a training and a serving section when a chat message (no headings) trains a model
    and then serves it; the sentence holding the cue is cut there. None when it does not read so. A key
    that names one part only ("B) Serve the result: peak 60 concurrent") does not say where the other is."""
    if {"training", "serving"} <= {s.section for s in sentences}:
        return None
    if (keyed := _keyed_parts(sentences)) is not None:
        return keyed
    trained = False
    for i, s in enumerate(sentences):
        m = _THEN_SERVE.search(s.text)
        if m is not None and (trained or _TRAIN_VERB.search(s.text, 0, m.start())):
            head = s.text[: m.start()].rstrip(" ,;")
            serve_at = m.start() + (len(s.text[m.start() :]) - len(s.text[m.start() :].lstrip(" ,;")))
            before = [
                *(_in_part(x, "training") for x in sentences[:i]),
                *([Sentence(head, s.start, s.block, s.quoted, "training")] if head else []),
            ]
            after = [
                Sentence(s.text[serve_at:], s.start + serve_at, s.block, s.quoted, "serving"),
                *(_in_part(x, "serving") for x in sentences[i + 1 :]),
            ]
            return (*before, *after) if before else None
        trained = trained or _TRAIN_VERB.search(s.text) is not None
    return _generate_then_train(sentences)


def _in_part(s: Sentence, part: Part) -> Sentence:
    """`s` in `part`, unless a key already gave it its part ("Budget for the fine-tune: EUR 3,000.")."""
    return Sentence(s.text, s.start, s.block, s.quoted, s.section or part)


def _generate_then_train(sentences: Sequence[Sentence]) -> tuple[Sentence, ...] | None:
    """`sentences` with a serving (generation) section and then a training section when a chat message
    generates data and then trains on it; None when it does not read so."""
    generated = False
    for i, s in enumerate(sentences):
        m = _THEN_TRAIN.search(s.text)
        if m is not None and (generated or _GENERATE_VERB.search(s.text, 0, m.start())):
            head = s.text[: m.start()].rstrip(" ,;")
            at = m.end()
            before = [
                *(Sentence(x.text, x.start, x.block, x.quoted, "serving") for x in sentences[:i]),
                *([Sentence(head, s.start, s.block, s.quoted, "serving")] if head else []),
            ]
            after = [
                Sentence(s.text[at:], s.start + at, s.block, s.quoted, "training"),
                *(Sentence(x.text, x.start, x.block, x.quoted, "training") for x in sentences[i + 1 :]),
            ]
            return (*before, *after) if before else None
        generated = generated or _GENERATE_VERB.search(s.text) is not None
    return None


def serving_findings(
    findings: list[Finding], section: Sequence[Sentence], training: Sequence[Finding]
) -> list[Finding]:
    """The serving part's findings: its workload is inference (the section says so); the training facts
    the shared sentences hold (a method named in the background) are not about it; without a model of
    its own it serves the model the training part adapts (inferred, with the training part's words)."""
    kept = [f for f in findings if f.field not in TRAINING_FIELDS and f.field != "workload"]
    kept += _volume_generated(findings, section)
    kept += batch_volume(kept, section)  # "5M FAQ entries ... ~300 output tokens each ... within two weeks"
    if not any(f.field in _MODEL_FIELDS for f in kept):
        kept += borrowed_model(training, "the model the brief's training part adapts")
    heading = next((s for s in section if s.text.strip(" .")), section[0])
    said = f"the brief's serving section: {heading.text}"
    kept.append(Finding(field="workload", value="inference", status="inferred", evidence=said,
                        position=heading.start))  # fmt: skip
    return kept


# a job whose output is as long as the volume it names ("translate 1.2B tokens of docs": about as many out)
_GENERATES = re.compile(
    r"\b(?:generat\w*|synthesi[sz]\w*|distil\w*|writ(?:e|es|ing)|produc(?:e|es|ing)|translat\w*)\b", re.I
)


def _volume_generated(findings: Sequence[Finding], section: Sequence[Sentence]) -> list[Finding]:
    """A generation part's token volume read as a dataset ("generate synthetic data with the 70B - 2M samples
    x 500 tokens") is the volume it generates (inferred): a part that serves holds no training data."""
    if any(f.field == "generation_tokens" for f in findings):
        return []
    data = next((f for f in findings if f.field == "dataset_tokens"), None)
    if data is None or not any(_GENERATES.search(s.text) for s in section):
        return []
    return [Finding(field="generation_tokens", value=data.value, status="inferred", position=data.position,
                    evidence=f"the volume the generation part writes: {data.evidence}")]  # fmt: skip


def part_of(profile: WorkloadProfile) -> Part:
    """Which part a profile describes: serving for inference, training otherwise."""
    return "serving" if profile.workload == "inference" else "training"


# --------------------------------------------------------------------------- switching
_SWITCH = re.compile(
    r"\b(?P<verb>(?:now|next|then|size|do|show|what about|how about|and|switch to|go to|back to|over to"
    r"|move to|on to)\s+(?:(?:me|us)\s+)?)?(?:the\s+)?"
    r"(?P<part>serving|inference|hosting|deployment|generation|training|fine[- ]?tuning)"
    r"\s+(?:part|side|workload|section|half|bit|job)\b(?:\s+(?:now|please|too|as well|next))?[.!]?",
    re.I,
)


def switch_request(text: str) -> tuple[Part | None, str]:
    """('serving' | 'training' | None, the text without the request): "now the serving part", "size the
    training side", "what about the serving workload?"."""
    m = _SWITCH.search(text or "")
    if m is None:
        return None, text
    word = m.group("part").lower()
    part: Part = "training" if word.startswith(("train", "fine")) else "serving"
    rest = (text[: m.start()] + text[m.end() :]).strip(" \t\n?.,;:")
    if m.group("verb") is None and rest:  # "the serving section says 300 users" states, it does not ask
        return None, text
    return part, rest


def swap(
    profile: WorkloadProfile, account: InputAccount, part: Part
) -> tuple[WorkloadProfile, InputAccount] | None:
    """The other workload as the profile, and the account naming the first one as the other; None when
    the account holds no other workload of that part."""
    other = account.other_workload
    if other is None or part_of(other) != part:
        return None
    keep = profile if profile != WorkloadProfile() else None
    return other, account.model_copy(update={"other_workload": keep})
