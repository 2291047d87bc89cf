"""Workload, method, precision, model and size rules."""

from __future__ import annotations

import dataclasses
import re

from advisor.extract.regex_keys import keyed
from advisor.extract.rules_ctx import CORRECTION, Ctx, I, negated, q
from advisor.extract.rules_models import ModelMention, _catalog, find_models
from advisor.extract.rules_text import (
    NUMBER,
    Sentence,
    parse_number,
)
from advisor.extract.scan import words_back
from advisor.extract.sentence_memo import read_once

# =========================================================================== workload and method
_DONE = keyed(r"\b(?:is|was|are|were|been|already)\s+(?:done|finished|complete|completed|over)\b", I)
_SCRATCH = keyed(
    r"\bfrom scratch\b|\bpre-?train(?:ing)?\s+(?:a|an|our|the)\b[^.]{0,40}\bbase model\b"
    # "training of model 13B parameter from zero", "train from nothing", "build a new base model" (expert
    # review 12, R06); not "autoscale from zero to 4 replicas" nor "scale from zero"
    r"|(?<!scale )(?<!scales )(?<!scaling )(?<!up )\bfrom\s+(?:zero|nothing|the\s+ground\s+up)\b(?!\s+to\b)"
    r"|\b(?:train\w*|build\w*|mak\w*|creat\w*)\s+(?:a\s+|an\s+|our\s+(?:own\s+)?)?(?:brand[\s-]+)?new\s+base\s+model\b",
    I,
)
_CONTINUED = keyed(
    r"\b(?:continued|continual|continuing|continue|further|domain[- ]adaptive|extended"
    r"|additional|cont\.?|continuous|ongoing|incremental)[\s-]+pre[\s-]?train(?:ing|ed)?\b"
    # "keep pretraining Llama 3.2 3B on ...", "make continue of pre-training"
    r"|\bkeep(?:s|ing)?\s+(?:on\s+)?pre[\s-]?train(?:ing)?\b"
    r"|\bcontinu\w*\s+(?:of|the|with)\s+(?:the\s+)?pre[\s-]?train(?:ing)?\b",
    I,
)
_CPT = keyed(r"\bCPT\b", I)  # continued pretraining, unless the text pretrains from scratch
# "Meta pretrained it on ~15T tokens" is the base model's history, not a pretraining job
_PRETRAIN = keyed(
    r"(?<!meta )(?<!google )(?<!mistral )(?<!they )(?<!was )(?<!were )(?<!been )\bpre[\s-]?train(?:ing|ed)?\b"
    r"(?!\s+(?:it|them|models?|checkpoints?|weights)\b)",
    I,
)
_FINETUNE = keyed(
    r"\bfine[- ]?tun(?:e|ing)\b|\bfinetun(?:e|ing)\b|\bSFT\b|\binstruction[- ]tun(?:e|ing)\b"
    r"|\bfull[- ]?FT\b|(?-i:\bFFT\b)|\bre-?train|\bfull[- ](?:parameter|weight)s?[- ]training\b"
    r"|\b(?:DPO|ORPO|KTO|RLHF|preference[- ](?:tuning|optimi[sz]ation))\b",  # preference tuning
    I,
)
# a training word naming the data a batch job writes: "our math SFT set", "DPO pairs", "fine-tuning data"
_DATA_FOR = re.compile(r"\s+(?:data\s*set|dataset|set|data|mix|corpus|pairs|examples|samples)\b", I)
_MAKES_DATA = re.compile(
    r"\bsynthetic\s+data\b|\bdata\s+gen\w*|\b(?:generat\w*|sampl\w*|writ\w*|produc\w*|distil\w*)\b", I
)
_PEFT = keyed(r"\bQ?-?LoRA\b|\bPEFT\b|\badapters?\b", I)
_INFER = keyed(
    r"\b(?:serve(?!rs?\b)|serving|inference|deploy(?:ing|ed|ment)?|host(?:ed|ing)?|self-host\w*|concurrent"
    r"|simultaneous|"
    r"at the same time|per user|each user|chat ?bot|endpoint|batch (?:job|inference|processing|predictions?)"
    r"|offline inference|summari[sz](?:e|es|ing|ation)"
    # a batch job said to be offline: "it's purely offline, nobody waits on it", "Offline, so throughput ..."
    r"|(?:purely|fully|completely|entirely|strictly)\s+offline|offline,?\s+(?:so|nobody|no\s+one)"
    r"|offline\s+(?:job|batch|generation|run)"
    r"|generat(?:e|es|ing)\s+(?:\S+\s+){0,3}?(?:output\s+|synthetic\s+|new\s+)?tokens"
    # a batch that writes training data: "synthetic data gen for our math SFT set" (evals v12)
    r"|synthetic\s+data\s+gen\w*|data\s+generation\s+(?:job|run|batch)"
    # a model that writes a batch of outputs: "DeepSeek-V3 generates worked solutions for 300k problems",
    # "the 405B writes answers for 2M questions"
    r"|(?:generat(?:e|es)|writes?|produces?)\s+(?:\S+\s+){0,2}?(?:answers|solutions|completions|responses"
    r"|traces|summaries|captions|rationales)\s+(?:for|to)\s+(?:~\s*|about\s+|around\s+)?(?=\d))",
    I,
)

# a hosting word qualified by a place says where, not what (expert review 18, R15 turn 3: "We're in Frankfurt,
# so EU hosting please" after a LoRA plan became serving): "EU hosting", "EU-hosted", "hosted in Japan",
# "hosting in Frankfurt", "host it within the EU", "hosting must stay in Germany"
_PLACE = (
    r"(?:the\s+)?(?:(?i:eu|e\.u\.|europe(?:an\s+union)?|us|u\.s\.|usa|uk|eea|our\s+(?:own\s+)?(?:region|country"
    r"|data\s*cent(?:er|re)|dc))|[A-Z][a-z]+(?:\s+[A-Z][a-z]+)?)"
)
_PLACE_BEFORE = re.compile(
    r"\b(?:eu|us|uk|eea|european|german|local|in-country|domestic|on-?shore|sovereign)[\s-]+$", I
)
_PLACE_AFTER = re.compile(
    r"(?:\s+(?:it|them|this|everything|the\s+\w+))?\s+(?:(?:must|has\s+to|needs\s+to|should)\s+(?:stay|be)\s+)?"
    rf"(?:in|within|inside)\s+{_PLACE}\b",
)
_TRAINING_WORKLOADS = ("fine_tuning", "pretraining", "continual_pretraining")


def _placed_hosting(text: str, m: re.Match[str]) -> bool:
    """Whether an inference cue is a hosting word qualified by a place ("EU hosting", "hosted in Japan")."""
    if not m.group(0).lower().startswith("host"):
        return False
    before = _PLACE_BEFORE.search(text, max(0, m.start() - 20), m.start())
    return before is not None or _PLACE_AFTER.match(text, m.end()) is not None


# people using the model, with no training word: a serving request ("DeepSeek-V3 for 100 users at 32k")
_USERS_CUE = keyed(
    r"\b(?:for|to|support|supporting|handle|handling)\s+(?:(?:all\s+)?(?:our|the|its|their)\s+)?"
    r"(?:~|about\s+|around\s+|up\s+to\s+|roughly\s+)?"
    r"\d[\d,.]*\s*k?\+?\s*(?:concurrent\s+|internal\s+|active\s+|daily\s+|simultaneous\s+)?"
    r"(?:users|customers|employees|agents|analysts|seats|engineers|developers|staff|colleagues|people)\b",
    I,
)


# Serving named without a serving verb ("voice agent, 40 streams, 20 tok/s per stream", "2B tokens a day",
# "needs to push 5k tok/s total", "20 people during office hours", "write 10M emails, ~150 tokens each"):
# read as inference (inferred) only when nothing in the text trains a model.
_SERVE_HINT = keyed(
    r"\b(?:voice|phone|call[\s-]?cent(?:er|re)|customer[\s-]service|support|sales|chat|rag|ai|internal|search)"
    r"[\s-]+(?:agent|bot|assistant|copilot)s?\b"
    r"|\bchat[\s-]?bot\b|\b(?:concurrently|simultaneously)\b|\bper\s+(?:stream|call|session)\b"
    # "25 users at same time in peak" (evals v16, a Finnish writer)
    r"|\b(?:users|people|persons|clients|customers)\s+(?:at|in)\s+(?:the\s+)?same\s+time\b"
    # a model run on named hardware, nothing trained (expert review 9, R05: "we can run Llama 3.1 405B on a
    # single 8xH100 node in FP8" became a LoRA job)
    r"|\b(?:run|running|fit|load|host)\s+(?:[\w.\-]+\s+){1,4}?(?:on|onto|across)\s+[^.?!]{0,20}?"
    r"(?:h100|h200|b200|a100|l40s?|l4|[345]090|mi300x|gpus?)\b"
    r"|\b\d[\d,.]*\s*k?\s+(?:\w+\s+)?(?:streams|calls|sessions)\b"
    r"|\btok(?:en)?s?\s*(?:/\s*s(?:ec)?\b|per\s+s(?:ec(?:ond)?)?\b|a\s+second\b|(?:/|per|an?|each)\s*"
    r"(?:day|d|hour|hr|minute|min)\b)"
    r"|\b(?:qps|rps|req(?:uest)?s?\s*/\s*(?:s|sec|min)|requests?\s+(?:per|a|an)\s+(?:second|minute|hour))\b"
    r"|\b(?:latency|ttft|time\s+to\s+first\s+token|throughput)\b"
    r"|\b(?:office|business|working)\s+hours\b"
    r"|\bfor\s+(?:our\s+|the\s+)?(?:~|about\s+|around\s+)?\d[\d,]*k?\s+(?:\w+\s+)?(?:users|people|employees|staff"
    r"|analysts|lawyers|agents|engineers|developers|customers|clinicians|students|seats)\b"
    r"|\b(?:write|draft|rewrite|personali[sz]e|translate|classify|label|tag|caption|answer|score)\s+"
    r"(?:~|about\s+|around\s+|roughly\s+)?\d[\d,.]*\s*(?:k|m|mm|bn?|million|billion|thousand)?\s+(?:\w+\s+)?"
    r"(?:e-?mails|documents|docs|items|records|rows|prompts|requests|tickets|articles|products|descriptions"
    r"|reviews|transcripts|calls|messages|pages|questions)\b"
    r"|\b(?:prompts?|answers?|responses?|completions?|outputs?|replies)\b[^.;]{0,25}\btok(?:en)?s?\b"
    r"|\btok(?:en)?s?\s+(?:in|out)\b"
    r"|\b(?:draft|write|generate|produce|send)\s+(?:\S+\s+){0,3}?(?:replies|responses|answers|summaries"
    r"|descriptions|e-?mails)\b"
    r"|\b(?:work(?:ing)?\s+hours|work\s*days?|9\s*(?:-|to)\s*5|9-to-5|mon(?:day)?\s*(?:-|to)\s*fri(?:day)?)\b"
    r"|\b\d[\d,]*k?\s+(?:\w+\s+)?(?:users|people|employees|staff|analysts|lawyers|agents|engineers|developers"
    r"|customers|clinicians|students|seats)\s+(?:will\s+|would\s+|can\s+|to\s+)?(?:use|chat|query|ask|access)\w*",
    I,
)
_TRAINS = keyed(r"\b(?:train\w*|epochs?|passes\s+over|dataset|corpus|checkpoints?|gradient)\b", I)


# a model adapted before this request: "a Qwen2.5 7B we already fine-tuned (adapter merged)"; and a request
# that says it is serving only ("this is purely about serving it")
_ADAPTED_BEFORE = keyed(
    r"\b(?:already|previously|have|'ve|had)\s+(?:been\s+)?(?:fine[\s-]?tuned|finetuned|trained|adapted)\b"
    r"|\badapters?\s+(?:already\s+)?merged\b|\bmerged\s+(?:the\s+)?adapters?\b",
    I,
)
# a requirement heading answered as not wanted: "Fine-tuning: N/A for this Lot", "Training: not required"
_NOT_APPLICABLE = re.compile(
    r"\s*(?:\w+\s+){0,2}?(?:[:=\-–]|is|are)\s*(?:n/?a|not\s+(?:applicable|required|needed|in\s+scope|part\s+of)"
    r"|out\s+of\s+scope|none|excluded|\[?deleted\]?|\[?withdrawn\]?)\b",
    I,
)
# a fine-tune as the thing made, which this job uses (rd15): "checkpoints of our Qwen3 8B fine-tune", "serve
# our fine-tune"; not "we'll do the fine-tune" nor "a fine-tune of Llama 3"
_ARTIFACT_BEFORE = re.compile(
    r"\b(?:of|on|from|serve|serving|host|hosting|deploy|deploying|evaluat\w*|eval|benchmark\w*|test|testing)\s+"
    r"(?:our|my|their|the|this|that|your)\s+(?:[\w.-]+\s+){0,4}$",
    I,
)
_ARTIFACT_WORDS = 6  # _ARTIFACT_BEFORE's words: the verb, the determiner and up to 4 of the name
_ARTIFACT_AFTER = re.compile(
    r"s?(?=\s*(?:[;,.):]|$|\s+(?:checkpoints?|model|weights|adapters?|outputs?|to|behind)\b))", I
)
_ONLY_SERVING = keyed(r"\b(?:purely|only|just|solely)\s+(?:about\s+)?(?:serving|inference|hosting)\b", I)


def rule_workload(ctx: Ctx) -> None:
    """workload: continual pretraining > pretraining > fine-tuning > inference signals."""
    for s in ctx.sentences:
        if m := _ONLY_SERVING.search(s.text):
            ctx.add(s, "workload", "inference", q(m), "stated", m.start())
            ctx.workload = "inference"
            return
    hits: dict[str, list[tuple[Sentence, re.Match[str], str]]] = {}
    cpt = _CPT if not any(_SCRATCH.search(s.text) for s in ctx.sentences) else None
    for s in ctx.sentences:
        done = bool(_DONE.search(s.text) or _ADAPTED_BEFORE.search(s.text))
        for kind, rx, status in (
            ("continual_pretraining", _CONTINUED, "stated"),
            *((("continual_pretraining", cpt, "stated"),) if cpt is not None else ()),
            ("pretraining", _SCRATCH, "stated"),
            ("fine_tuning", _FINETUNE, "stated"),
            ("fine_tuning", _PEFT, "inferred"),
            ("inference", _INFER, "stated"),
            ("inference", _USERS_CUE, "inferred"),
        ):
            for m in rx.finditer(s.text):
                if done and kind != "inference":
                    continue
                if kind == "fine_tuning" and negated(s.text, m.start()):
                    continue
                # the cue spans at most _ARTIFACT_WORDS words: searched from there, not the whole head
                if kind == "fine_tuning" and _ARTIFACT_BEFORE.search(
                    s.text, words_back(s.text, m.start(), _ARTIFACT_WORDS), m.start()
                ) and _ARTIFACT_AFTER.match(s.text, m.end()):
                    continue  # "12 checkpoints of our Qwen3 8B fine-tune": the model made, run by this job
                if kind == "fine_tuning" and _DATA_FOR.match(s.text, m.end()) and _MAKES_DATA.search(s.text):
                    continue  # "synthetic data gen for our math SFT set": the data is for a later fine-tune
                if (
                    kind == "inference"
                    and ctx.prior is not None
                    and ctx.prior.workload in _TRAINING_WORKLOADS
                    and _placed_hosting(s.text, m)
                ):
                    continue  # a later turn's "EU hosting please" says where the training runs, not what
                if kind != "inference" and _NOT_APPLICABLE.match(s.text[m.end() : m.end() + 50]):
                    continue  # "Model fine-tuning: N/A for this Lot", "Fine-tuning: not applicable"
                hits.setdefault(kind, []).append((s, m, status))
        if "continual_pretraining" not in hits or not any(h[0] is s for h in hits["continual_pretraining"]):
            pretrain = list(_PRETRAIN.finditer(s.text))  # the sentence's test asked once, not per match
            if pretrain and not done and not _CONTINUED.search(s.text):
                for m in pretrain:
                    hits.setdefault("pretraining", []).append((s, m, "stated"))
    for kind in ("continual_pretraining", "pretraining", "fine_tuning", "inference"):
        if kind in hits:
            best = next((h for h in hits[kind] if h[2] == "stated"), hits[kind][0])
            s, m, status = best
            ev = q(m) if status == "stated" else f'"{q(m)}" -> {kind.replace("_", " ")}'
            ctx.add(s, "workload", kind, ev, status, m.start())
            ctx.workload = kind
            return
    if any(_TRAINS.search(s.text) for s in ctx.sentences):
        return
    for s in ctx.sentences:
        if m := _SERVE_HINT.search(s.text):
            ctx.add(s, "workload", "inference", f'"{q(m)}" -> serving (inference)', "inferred", m.start())
            ctx.workload = "inference"
            return


_FULL = keyed(
    r"\bfull(?:[- ]parameter)?[- ]?(?:fine[- ]?tun(?:e|ed|ing)|FT|finetun(?:e|ing)|training|weights)\b|"
    r"\ball (?:the )?weights\b|\bfull[- ]param(?:eter)?s?\b|\bfull[- ]weights?\b"
    # "a full SFT of Llama 3.1 70B", "FFT" (full fine-tuning, upper case only): expert review 12, R12;
    # plain "SFT" names no method (LoRA SFT is common) and stays unstated
    r"|\bfull[- ](?:parameter[- ])?SFT\b|(?-i:\bFFT\b)"
    r"|\b(?:fine[- ]?tun\w*|finetun\w*|train\w*)\s*\(\s*full\b"  # "fine-tune (full, not LoRA) ..."
    r"|\bfully[- ](?:fine[- ]?tun\w*|finetun\w*|train\w*|updat\w*|re-?train\w*)"
    # the adverb after the model: "finetune llama 3.1 70B fully on 5B tokens", "train all of it in full"
    r"|\b(?:fine[- ]?tun\w*|finetun\w*|re-?train\w*)\s+(?:[\w.\-]+\s+){1,5}?(?:fully|in\s+full)\b"
    r"(?!\s+(?:offline|managed|automated|remote))",
    I,
)
_QLORA = keyed(r"\bQ-?LoRA\b", I)
_FOURBIT = keyed(r"\b(?:4|four)[- ]?bit\b|\bnf4\b|\bbitsandbytes\b", I)
# not Q-LoRA; a command line's flag or a script's name is LoRA ("--lora-r 32", "train_lora.py", evals v18)
_LORA = keyed(
    r"(?<![Qq])(?<![Qq]-)(?:\b|(?<=_))LoRA(?:\b|(?=_))|\bPEFT\b|\badapters?\b|\bparameter[- ]efficient\b", I
)


# a command line's set of choices ("--method {full,lora,qlora} (we pass: lora)"): options, not the one used
_CHOICES = re.compile(r"\{[\w\s-]*(?:,[\w\s-]*)+\}")


def _in_choices(text: str, at: int) -> bool:
    return any(c.start() < at < c.end() for c in _CHOICES.finditer(text))


def rule_method(ctx: Ctx) -> None:
    """method by priority (QLoRA/4-bit > full > LoRA/PEFT), corrections first; none for inference."""
    if ctx.workload == "inference":
        return
    found: list[tuple[int, int, Sentence, str, str, str, int]] = []  # (correction, priority, ...)
    for s in ctx.sentences:
        corr = 1 if CORRECTION.search(s.text) else 0
        for rx, method, status, prio in (
            (_QLORA, "qlora", "stated", 3),
            (_FOURBIT, "qlora", "inferred", 2),
            (_FULL, "full", "stated", 2),
            (_LORA, "lora", "stated", 1),
        ):
            for m in rx.finditer(s.text):
                if negated(s.text, m.start()) or _in_choices(s.text, m.start()):
                    continue
                if method == "lora" and m.group(0).lower() != "lora":
                    status = "inferred"
                ev = q(m) if status == "stated" else f'"{q(m)}" -> {method}'
                found.append((corr, prio, s, method, status, ev, m.start()))
    if found:
        corr, prio, s, method, status, ev, off = max(found, key=lambda t: (t[0], t[1], t[2].start))
        ctx.add(s, "method", method, ev, status, off)
    elif ctx.workload in ("pretraining", "continual_pretraining"):
        s = ctx.sentences[0]
        ctx.add(s, "method", "full", f"{ctx.workload.replace('_', ' ')} trains all weights", "inferred")


# keyed: run only on a sentence holding one of the pattern's words (a tuple's patterns are not among the
# module-level ones rules.py keys; all 7 ran on every sentence, ~10 ms of 20,000 characters; speed8)
_PRECISION = (
    (keyed(r"\bfp8\b|\bfloat8\b", I), "fp8"),
    (keyed(r"\bint8\b|\b8[- ]?bit\b", I), "int8"),
    (keyed(r"\bnf4\b", I), "nf4"),
    (keyed(r"\bint4\b|\b(?:4|four)[- ]?bit\b|\bawq\b|\bgptq\b|\bq4_k_m\b", I), "int4"),
    (keyed(r"\bbf16\b|\bbfloat16\b", I), "bf16"),
    (keyed(r"\bfp16\b|\bfloat16\b|\bhalf precision\b", I), "fp16"),
    (keyed(r"\bfp32\b|\bfloat32\b|\bfull precision\b", I), "fp32"),
)


@read_once
def rule_precision(ctx: Ctx) -> None:
    """precision of the stored weights (serving only for 8/4-bit and fp8). The workload is this text's or,
    in a follow-up that names none ("What if we run it in FP8 instead?"), the earlier turns' (expert review
    12, R19: the FP8 what-if after a serving conversation was dropped and BF16 kept)."""
    workload = ctx.workload or (ctx.prior.workload if ctx.prior is not None else None)
    for s in ctx.sentences_with(*(rx for rx, _prec in _PRECISION)):  # a finding needs one to match
        # QLoRA stores the frozen base in 4 bits: "4-bit" / "NF4" said beside it (the same sentence) is the
        # stored weights' precision (evals v10, v17, v18: "QLoRA (4-bit)", "4-bit NF4 (QLoRA)")
        qlora = _QLORA.search(s.text) is not None
        for rx, prec in _PRECISION:
            for m in rx.finditer(s.text):
                if prec in ("int4", "nf4", "int8", "fp8") and workload != "inference":
                    # `precision` is the stored weights' precision. In training, 4-bit means QLoRA (the
                    # method rule); "train in fp8" is compute precision on bf16 master weights.
                    if not (qlora and prec in ("int4", "nf4")):
                        continue
                    if prec == "int4" and re.search(r"\bnf4\b", s.text, I):
                        continue  # "4-bit NF4": the NF4 reading says which 4 bits
                if prec == "int8" and re.search(r"optimi[sz]er|adam", s.text[m.end() : m.end() + 20], I):
                    continue
                ctx.add(s, "precision", prec, q(m), "stated", m.start())


# =========================================================================== model and size
_SIZE_ALONE = re.compile(
    rf"(?<![\w$€£.])(?P<num>{NUMBER})\s*(?P<unit>b|bn|billion|m|million)(?![\w])"
    rf"(?P<tail>[\s-]*(?:param(?:eter)?s?|parameters?|dense|moe|llm|(?:(?:open|base|draft|student|teacher|decoder|encoder|language|reward|custom|chat|instruct)"
    rf"(?:[\s-]+only)?[\s-]+)?models?)?)",
    I,
)
_MODEL_WORD = keyed(r"\b(?:model|llm|param|lora|qlora|fine|train|dense|moe|ft)\w*", I)
# a bare size right after a verb that takes a model ("serve 70B 24/7", "fine-tune a 13b on ...")
_SIZE_AFTER_VERB = re.compile(
    r"\b(?:serv(?:e|es|ing)|host(?:s|ing)?|run(?:s|ning)?|deploy(?:s|ing)?|fine[- ]?tun(?:e|es|ing)"
    r"|finetun(?:e|es|ing)|train(?:s|ing)?|pre-?train(?:s|ing)?|q?lora)\s+(?:a|an|the|our|my|one)?\s*$",
    I,
)
# a bare size right before the run it sizes ("We're scoping a 7B pretrain on 1T tokens", expert review 15,
# R17; "a 13B fine-tune", "our 3B SFT run"): the model's size
_SIZE_BEFORE_RUN = re.compile(
    r"^[\s-]*(?:pre-?train(?:s|ing)?|fine[\s-]?tun(?:e|es|ing)|finetun(?:e|es|ing)|(?:sft|dpo|training|lora)\s+(?:run|job)s?)\b",
    I,
)
_NOT_PARAMS = keyed(
    r"^\s*(?:of\s+)?(?:training\s+|text\s+|english\s+|input\s+|prompt\s+|output\s+|unique\s+)?(?:tokens?|toks?|words?|examples?|samples?|documents?"
    r"|docs|rows|"
    r"records|pages|chars|characters|bytes|users|requests|dollars|usd|eur|euros|gb|tb)\b",
    I,
)


# the size before the family, a version maybe after it: "a 70B Llama (3.1, I believe)", "the 8B Qwen"
_SIZE_THEN_FAMILY = keyed(
    r"\b(?P<size>\d+(?:\.\d+)?)\s*b\s+(?P<family>llama|qwen|mistral|mixtral|gemma|phi|deepseek|falcon)\b"
    r"(?:\s*\(\s*(?:v(?:ersion)?\s*)?(?P<ver>\d+(?:\.\d+)?)\b[^)]{0,30}\))?",
    I,
)


def _size_then_family(s: Sentence) -> list[ModelMention]:
    """Model mentions written size first ("a 70B Llama (3.1, I believe)"), read as "Llama 3.1 70B"."""
    out: list[ModelMention] = []
    for m in _SIZE_THEN_FAMILY.finditer(s.text):
        name = " ".join(x for x in (m.group("family"), m.group("ver"), m.group("size") + "b") if x)
        for mm in find_models(name):
            if mm.model_id:
                said = dataclasses.replace(mm, text=m.group(0), id_inferred=True)
                out.append(dataclasses.replace(said, start=m.start(), end=m.end()))
    return out


_LIST_SEPARATOR = re.compile(
    r"\s*(?:,|/|&|\band\b|\bor\b|\bvs\.?|\bversus\b|\bplus\b)\s*(?:and\s+|or\s+)?", I
)


def _listed_models(text: str, mentions: list[ModelMention]) -> tuple[ModelMention, str, int] | None:
    """The largest of two or more different catalog models written as one list ("Llama 3.1 8B, Qwen2.5 7B
    and Gemma 2 9B", "Mistral 7B or Qwen2.5 7B"): the profile holds one model, and the largest one bounds
    memory and time; with the list's words and where they start. None when the models are not one list
    (each has its own role in the sentence)."""
    named = sorted((mm for mm in mentions if mm.model_id), key=lambda mm: mm.start)
    if len({mm.model_id for mm in named}) < 2:
        return None
    for a, b in zip(named, named[1:], strict=False):
        if not _LIST_SEPARATOR.fullmatch(text[a.end : b.start]):
            return None
    largest = max(named, key=lambda mm: mm.params_b or 0.0)
    return largest, text[named[0].start : named[-1].end], named[0].start


# a later turn that names only a size of the model already discussed: "scratch that, it's the 70B"
_SIBLING_SIZE = re.compile(
    r"\b(?:it'?s|it\s+is|make\s+it|use|go\s+with|switch\s+to|rather|actually|instead)\s+(?:the\s+|a\s+)?"
    r"(?P<num>\d+(?:\.\d+)?)\s*b\b(?!\s*(?:tokens?|params?|parameters|words?))",
    I,
)
_ID_SIZE = re.compile(r"(?<=-)\d+(?:\.\d+)?b$")


def _sibling(ctx: Ctx) -> None:
    """The same model family at the size a later turn names ("it's the 70B" after Llama 3.1 8B), when the
    catalog has it; nothing when this turn names a model of its own."""
    prior = ctx.prior.model_id if ctx.prior is not None else None
    if not prior or not _ID_SIZE.search(prior) or any(f.field == "model_id" for f in ctx.findings):
        return
    cat = _catalog()
    for s in ctx.sentences:
        if (m := _SIBLING_SIZE.search(s.text)) is None:
            continue
        sibling = _ID_SIZE.sub(f"{m.group('num')}b", prior)
        if sibling == prior or cat is None or not cat.has_model(sibling):
            continue
        ev = f'"{q(m)}": {sibling}, the {m.group("num")}B size of the {prior} named before'
        ctx.add(s, "model_id", sibling, ev, "inferred", m.start())
        ctx.add(s, "params_b", float(cat.model(sibling).published_params_b or float(m.group("num"))), ev,
                "inferred", m.start())  # fmt: skip
        return


# ... and so is "tokens is 260 billion", "token count is 40B", "number of tokens are 2T" (non-native word
# order, expert review 12, R06)
_TOKENS_KEY_BEFORE = re.compile(
    r"\b(?:tok(?:en)?s?(?:\s+count)?|number\s+of\s+tok(?:en)?s?)\s*(?:[:=]|\b(?:is|are|was|will\s+be)\b)"
    r"\s*(?:about|around|roughly|approx\w*\.?|~|≈)?\s*$",
    re.I,
)


def rule_model(ctx: Ctx) -> None:
    """model_id and params_b from model names (catalog) and bare sizes ("a 13B model")."""
    _rule_model(ctx)
    _sibling(ctx)


@read_once
def _rule_model(ctx: Ctx) -> None:
    for s in ctx.sentences:
        model_word = _MODEL_WORD.search(s.text) is not None  # once per sentence: linear in its length
        mentions = find_models(s.text)
        if not any(mm.model_id for mm in mentions):
            mentions += _size_then_family(s)
        spans = [(m.start, m.end) for m in mentions]
        if len(mentions) > 1:  # "serve Qwen2.5 72B instead of Llama 3 70B": the model ruled out is not it
            kept = [mm for mm in mentions if not negated(s.text, mm.start)]
            mentions = kept or mentions
        listed = _listed_models(s.text, mentions)
        if listed:  # "5 models (Llama 3.1 8B, Qwen2.5 7B, Gemma 2 9B)": one profile, sized for the largest
            mentions = [listed[0]]
        for mm in mentions:
            if mm.model_id:
                status = "inferred" if mm.id_inferred else "stated"
                ev = mm.text if not mm.id_inferred else f'"{mm.text}" -> closest catalog model {mm.model_id}'
                at = mm.start
                if listed:  # the whole list is quoted: every model named in it was read
                    ev, at = f'"{listed[1]}": sized for the largest model listed, {mm.text}', listed[2]
                ctx.add(s, "model_id", mm.model_id, ev, status, at)
            if mm.params_b is not None:
                if mm.size_stated:
                    ctx.add(s, "params_b", mm.params_b, mm.text, "stated", mm.start)
                else:
                    ev = f'"{mm.text}" -> catalog: {mm.params_b:g}B parameters'
                    ctx.add(s, "params_b", mm.params_b, ev, "inferred", mm.start)
        for m in _SIZE_ALONE.finditer(s.text):
            if any(a <= m.start() < b for a, b in spans):
                continue
            unit = m.group("unit").lower()
            tail = m.group("tail") or ""
            after = s.text[m.end("unit") : m.end("unit") + 60]  # the cues below are a few words long
            if _NOT_PARAMS.match(after):
                continue
            if unit in ("m", "million") and not re.search(r"param|model", tail, I):
                continue
            if not tail.strip() and re.match(r"\s*x\b", after):
                continue
            if _TOKENS_KEY_BEFORE.search(s.text[max(0, m.start() - 30) : m.start()]):
                continue  # "tokens: 40B" in a pasted config is the data's size (rules_data), not the model's
            verb_before = _SIZE_AFTER_VERB.search(s.text[: m.start()][-30:]) is not None
            run_after = _SIZE_BEFORE_RUN.match(after) is not None  # "a 7B pretrain"
            if not tail.strip() and not model_word and not verb_before and not run_after:
                continue
            value = parse_number(m.group("num")) * (1e-3 if unit in ("m", "million") else 1.0)
            ctx.add(s, "params_b", value, q(m), "stated", m.start())
