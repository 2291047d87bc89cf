"""The `rules` extractor: offline, deterministic regular-expression rules from text to a WorkloadProfile.

It reads facts, never guesses: a value the user wrote is "stated"; a value derived from their words by a
named conversion (GB of text -> tokens, EUR -> USD, "by Friday" -> hours) is "inferred", with the
arithmetic as evidence (advisor/extract/units_text.py). Unknowns stay None for the recommender's
defaults. Text addressed to an AI system is dropped first (advisor/extract/rules_text.py), so an
instruction inside a brief cannot change a number.

Rules by topic: workload and method, model and size, dataset size and training shape, money and time,
data location, cadence / utilisation / horizon, inference serving, constraints (EU, operations,
providers, objective), claims. Each rule reads one sentence at a time.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from advisor.extract import units_text as U
from advisor.extract.base import Finding, clip_evidence, merge_findings
from advisor.extract.rules_models import GPU_RE, HYPERSCALERS, find_models, find_providers, resolve_gpu
from advisor.extract.rules_text import (
    APPROX,
    MULT,
    NUM,
    NUMBER,
    Sentence,
    context_length,
    parse_number,
    parse_scaled,
    split_sentences,
)
from tools.profile import WorkloadProfile

I = re.I  # noqa: E741
CORRECTION = re.compile(
    r"\b(?:actually|instead|sorry|scratch that|correction|i meant|make it|change (?:it|that) to|switch to|"
    r"update:|rather|now)\b",
    I,
)
NEGATION = re.compile(
    r"(?:\bnot|\bno|\bwithout|\binstead of|\brather than|n't|\bnever)\s+(?:\w+\s+){0,2}$", I
)


@dataclass(frozen=True)
class Analysis:
    """What the rules read from one text: findings per field and the sentences they ignored."""

    findings: tuple[Finding, ...]
    ignored: tuple[str, ...]


@dataclass
class _Ctx:
    sentences: tuple[Sentence, ...]
    reference_time: dt.datetime
    findings: list[Finding] = field(default_factory=list)
    workload: str | None = None
    claim_sentences: set[int] = field(default_factory=set)

    def add(
        self,
        s: Sentence,
        name: str,
        value: Any,
        evidence: str,
        status: str = "stated",
        offset: int = 0,
        rank: int | None = None,
    ) -> None:
        pos = s.start + offset if rank is None else rank
        self.findings.append(
            Finding(
                field=name,
                value=value,
                status="inferred" if status == "inferred" else "stated",
                evidence=clip_evidence(evidence),
                position=pos,
                correction=bool(CORRECTION.search(s.text)),
            )
        )

    def has(self, name: str) -> bool:
        return any(f.field == name for f in self.findings)


def _negated(text: str, start: int) -> bool:
    return bool(NEGATION.search(text[max(0, start - 30) : start]))


def _q(m: re.Match[str]) -> str:
    return m.group(0).strip()


# =========================================================================== workload and method
_DONE = re.compile(r"\b(?:is|was|are|were|been|already)\s+(?:done|finished|complete|completed|over)\b", I)
_SCRATCH = re.compile(
    r"\bfrom scratch\b|\bpre-?train(?:ing)?\s+(?:a|an|our|the)\b[^.]{0,40}\bbase model\b", I
)
_CONTINUED = re.compile(
    r"\b(?:continued|continual|continuing|further|domain[- ]adaptive|extended|additional)[\s-]+pre-?train(?:ing|ed)?\b",
    I,
)
_PRETRAIN = re.compile(r"\bpre-?train(?:ing|ed)?\b", I)
_FINETUNE = re.compile(
    r"\bfine[- ]?tun(?:e|ing)\b|\bfinetun(?:e|ing)\b|\bSFT\b|\binstruction[- ]tun(?:e|ing)\b|\bfull[- ]?FT\b|\bre-?train",
    I,
)
_PEFT = re.compile(r"\bQ?-?LoRA\b|\bPEFT\b|\badapters?\b", I)
_INFER = re.compile(
    r"\b(?:serve|serving|inference|deploy(?:ing|ed|ment)?|host(?:ed|ing)?|self-host\w*|concurrent|simultaneous|"
    r"at the same time|per user|each user|chat ?bot|endpoint)\b",
    I,
)


def _workload(ctx: _Ctx) -> None:
    hits: dict[str, list[tuple[Sentence, re.Match[str], str]]] = {}
    for s in ctx.sentences:
        done = bool(_DONE.search(s.text))
        for kind, rx, status in (
            ("continual_pretraining", _CONTINUED, "stated"),
            ("pretraining", _SCRATCH, "stated"),
            ("fine_tuning", _FINETUNE, "stated"),
            ("fine_tuning", _PEFT, "inferred"),
            ("inference", _INFER, "stated"),
        ):
            for m in rx.finditer(s.text):
                if done and kind != "inference":
                    continue
                if kind == "fine_tuning" and _negated(s.text, m.start()):
                    continue
                hits.setdefault(kind, []).append((s, m, status))
        if "continual_pretraining" not in hits or not any(h[0] is s for h in hits["continual_pretraining"]):
            for m in _PRETRAIN.finditer(s.text):
                if not done and not _CONTINUED.search(s.text):
                    hits.setdefault("pretraining", []).append((s, m, "stated"))
    for kind in ("continual_pretraining", "pretraining", "fine_tuning", "inference"):
        if kind in hits:
            best = next((h for h in hits[kind] if h[2] == "stated"), hits[kind][0])
            s, m, status = best
            ev = _q(m) if status == "stated" else f'"{_q(m)}" -> fine-tuning'
            ctx.add(s, "workload", kind, ev, status, m.start())
            ctx.workload = kind
            return


_FULL = re.compile(
    r"\bfull(?:[- ]parameter)?[- ]?(?:fine[- ]?tun(?:e|ed|ing)|FT|finetun(?:e|ing)|training|weights)\b|"
    r"\ball (?:the )?weights\b|\bfull[- ]parameter\b",
    I,
)
_QLORA = re.compile(r"\bQ-?LoRA\b", I)
_FOURBIT = re.compile(r"\b(?:4|four)[- ]?bit\b|\bnf4\b|\bbitsandbytes\b", I)
_LORA = re.compile(r"(?<![Qq-])\bLoRA\b|\bPEFT\b|\badapters?\b|\bparameter[- ]efficient\b", I)


def _method(ctx: _Ctx) -> None:
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
                if _negated(s.text, m.start()):
                    continue
                if method == "lora" and m.group(0).lower() != "lora":
                    status = "inferred"
                ev = _q(m) if status == "stated" else f'"{_q(m)}" -> {method}'
                found.append((corr, prio, s, method, status, ev, m.start()))
    if found:
        corr, prio, s, method, status, ev, off = max(found, key=lambda t: (t[0], t[1], t[2].start))
        ctx.add(s, "method", method, ev, status, off)
    elif ctx.workload in ("pretraining", "continual_pretraining"):
        s = ctx.sentences[0]
        ctx.add(s, "method", "full", f"{ctx.workload.replace('_', ' ')} trains all weights", "inferred")


_PRECISION = (
    (re.compile(r"\bfp8\b|\bfloat8\b", I), "fp8"),
    (re.compile(r"\bint8\b|\b8[- ]?bit\b", I), "int8"),
    (re.compile(r"\bnf4\b", I), "nf4"),
    (re.compile(r"\bint4\b|\b(?:4|four)[- ]?bit\b|\bawq\b|\bgptq\b|\bq4_k_m\b", I), "int4"),
    (re.compile(r"\bbf16\b|\bbfloat16\b", I), "bf16"),
    (re.compile(r"\bfp16\b|\bfloat16\b|\bhalf precision\b", I), "fp16"),
    (re.compile(r"\bfp32\b|\bfloat32\b|\bfull precision\b", I), "fp32"),
)


def _precision(ctx: _Ctx) -> None:
    for s in ctx.sentences:
        for rx, prec in _PRECISION:
            for m in rx.finditer(s.text):
                if prec in ("int4", "nf4") and ctx.workload != "inference":
                    continue  # 4-bit in training means QLoRA (the method rule); its base precision follows
                if prec == "int8" and re.search(r"optimi[sz]er|adam", s.text[m.end() : m.end() + 20], I):
                    continue
                ctx.add(s, "precision", prec, _q(m), "stated", m.start())


# =========================================================================== model and size
_SIZE_ALONE = re.compile(
    rf"(?<![\w$€£.])(?P<num>{NUMBER})\s*(?P<unit>b|bn|billion|m|million)(?![\w])"
    rf"(?P<tail>[\s-]*(?:param(?:eter)?s?|parameters?|dense|moe|llm|(?:open[\s-]+|base[\s-]+)?models?)?)",
    I,
)
_NOT_PARAMS = re.compile(
    r"^\s*(?:of\s+)?(?:training\s+|text\s+|english\s+)?(?:tokens?|words?|examples?|samples?|documents?|docs|rows|"
    r"records|pages|chars|characters|bytes|users|requests|dollars|usd|eur|euros|gb|tb)\b",
    I,
)


def _model(ctx: _Ctx) -> None:
    for s in ctx.sentences:
        mentions = find_models(s.text)
        spans = [(m.start, m.end) for m in mentions]
        for mm in mentions:
            if mm.model_id:
                status = "inferred" if mm.id_inferred else "stated"
                ev = mm.text if not mm.id_inferred else f'"{mm.text}" -> closest catalog model {mm.model_id}'
                ctx.add(s, "model_id", mm.model_id, ev, status, mm.start)
            if mm.params_b is not None:
                if mm.size_stated:
                    ctx.add(s, "params_b", mm.params_b, mm.text, "stated", mm.start)
                else:
                    ctx.add(s, "params_b", mm.params_b, f'"{mm.text}" -> catalog: {mm.params_b:g}B parameters',
                            "inferred", mm.start)  # fmt: skip
        for m in _SIZE_ALONE.finditer(s.text):
            if any(a <= m.start() < b for a, b in spans):
                continue
            unit = m.group("unit").lower()
            tail = m.group("tail") or ""
            after = s.text[m.end("unit") :]
            if _NOT_PARAMS.match(after):
                continue
            if unit in ("m", "million") and not re.search(r"param|model", tail, I):
                continue
            if not tail.strip() and re.match(r"\s*(?:x\b|\w)", after):
                continue
            if not tail.strip() and not re.search(
                r"\b(?:model|llm|param|lora|qlora|fine|train|dense|moe|ft)\w*", s.text, I
            ):
                continue
            value = parse_number(m.group("num")) * (1e-3 if unit in ("m", "million") else 1.0)
            ctx.add(s, "params_b", value, _q(m), "stated", m.start())
            if not ctx.has("model_id"):
                pass


# =========================================================================== dataset and training shape
_TOKENS = re.compile(rf"(?P<num>{NUMBER})\s*(?P<mult>{MULT})?\s*(?:training\s+|text\s+)?tokens?\b", I)
_RATE_AFTER = re.compile(r"^\s*(?:/\s*s|/sec|per\s+s(?:ec(?:ond)?)?\b|a\s+second|each second|/\s*second)", I)
_LEN_AFTER = re.compile(
    r"^\s*(?:per\s+(?:sequence|sample|example|request|prompt|document|conversation|item)|each\b|of context|context|"
    r"ctx|window|sequences?|seq|max|prompts?|long\b)",
    I,
)
_ITEM_NOUNS = (
    r"examples?|samples?|rows|records|conversations?|dialogues?|pairs|instructions|tickets|chats|prompts|"
    r"documents?|docs|articles|papers|contracts|files|reports|emails|transcripts|q&a pairs|items"
)
_ITEMS_TOKENS = re.compile(
    rf"(?P<count>{NUMBER})\s*(?P<cmult>{MULT})?\s*(?:\w+\s+){{0,2}}?(?P<noun>{_ITEM_NOUNS})\b[^.;]{{0,40}}?"
    rf"(?:averag\w*|avg\.?|of|at|with|each|x|×|around|about|~|roughly)\s*{APPROX}(?P<each>{NUMBER})\s*(?P<emult>{MULT})?"
    rf"\s*(?P<unit>tokens?|words?|pages?)\b",
    I,
)
_WORDS = re.compile(rf"(?P<num>{NUMBER})\s*(?P<mult>{MULT})?\s*(?:\w+\s+)?words?\b", I)
_PAGES = re.compile(rf"(?P<num>{NUMBER})\s*(?P<mult>{MULT})?\s*pages?\b", I)
_BYTES = re.compile(
    rf"(?P<num>{NUMBER})\s*(?P<unit>[kmgtp]b|gigabytes?|terabytes?|megabytes?|petabytes?)\b", I
)
_BYTES_GB = {"kb": 1e-6, "mb": 1e-3, "gb": 1.0, "tb": 1e3, "pb": 1e6, "megabyte": 1e-3, "gigabyte": 1.0,
             "terabyte": 1e3, "petabyte": 1e6}  # fmt: skip
_DATA_WORDS = re.compile(
    r"\b(?:data(?:set)?s?|corpus|corpora|text|jsonl|parquet|documents?|files|bucket|nas|stored|storage|s3|gcs|blob|"
    r"tokeni[sz]ed|training set|training data|wiki|logs|papers|contracts)\b",
    I,
)
_NOT_TEXT = re.compile(r"\b(?:images?|photos?|video|audio|pdfs?|scan(?:s|ned)?|pictures|binary)\b", I)
_VRAM_WORDS = re.compile(r"\b(?:vram|memory|hbm|enough|card|gpus?|ram)\b", I)


def _dataset(ctx: _Ctx) -> None:
    for s in ctx.sentences:
        t = s.text
        claim = s.start in ctx.claim_sentences
        rank = -1 if claim else None  # numbers inside a claim lose to any other mention
        item_spans: list[tuple[int, int]] = []
        for m in _ITEMS_TOKENS.finditer(t):
            count = parse_scaled(m.group("count"), m.group("cmult"))
            each = parse_scaled(m.group("each"), m.group("emult"))
            unit = m.group("unit").lower()
            noun = m.group("noun").lower()
            if unit.startswith("token"):
                conv = U.tokens_from_items(count, each, noun)
            elif unit.startswith("word"):
                conv = U.tokens_from_items_words(count, each, noun)
            else:
                conv = U.tokens_from_pages(count * each)
                conv = U.Converted(conv.value, f"{count:g} {noun} x {each:g} pages; {conv.how}")
            ctx.add(s, "dataset_tokens", conv.value, f'"{_q(m)}": {conv.how}', "inferred", m.start(), rank)
            item_spans.append((m.start(), m.end()))
        inside = lambda pos: any(a <= pos < b for a, b in item_spans)  # noqa: E731
        for m in _TOKENS.finditer(t):
            if inside(m.start()):
                continue
            after = t[m.end() :]
            if _RATE_AFTER.match(after) or _LEN_AFTER.match(after):
                continue
            if re.search(
                r"(?:sequence length|context|seq(?:uence)?s? of|length|window|max)\W*$", t[: m.start()], I
            ):
                continue
            value = parse_scaled(m.group("num"), m.group("mult"))
            if value < 1e6:
                continue  # a length, not a dataset
            ctx.add(s, "dataset_tokens", value, _q(m), "stated", m.start(), rank)
        for m in _WORDS.finditer(t):
            if inside(m.start()):
                continue
            words = parse_scaled(m.group("num"), m.group("mult"))
            if words < 1000:
                continue
            conv = U.tokens_from_words(words)
            ctx.add(s, "dataset_tokens", conv.value, f'"{_q(m)}": {conv.how}', "inferred", m.start(), rank)
        for m in _PAGES.finditer(t):
            if inside(m.start()):
                continue
            pages = parse_scaled(m.group("num"), m.group("mult"))
            if pages < 100:
                continue
            conv = U.tokens_from_pages(pages)
            ctx.add(s, "dataset_tokens", conv.value, f'"{_q(m)}": {conv.how}', "inferred", m.start(), rank)
        for m in _BYTES.finditer(t):
            unit = m.group("unit").lower().rstrip("s")
            factor = _BYTES_GB.get(unit[:2] if len(unit) == 2 else unit)
            if factor is None:
                continue
            before = t[max(0, m.start() - 25) : m.start()]
            after = t[m.end() : m.end() + 25]
            if (
                GPU_RE.search(before[-12:])
                or _VRAM_WORDS.search(after[:12])
                or _VRAM_WORDS.search(before[-10:])
            ):
                continue
            if re.match(r"\s*(?:/|per\s)", after):
                continue
            if not _DATA_WORDS.search(t):
                continue
            gb = parse_number(m.group("num")) * factor
            ctx.add(s, "dataset_gb", gb, _q(m), "stated", m.start())
            if not _NOT_TEXT.search(t):
                conv = U.tokens_from_gb(gb)
                # an inference from bytes never beats tokens the user gave (rank below any stated value)
                ctx.add(s, "dataset_tokens", conv.value, f'"{_q(m)}": {conv.how}', "inferred", m.start())


_EPOCHS = re.compile(
    rf"(?P<num>{NUMBER})\s*(?:full\s+)?(?:epochs?|passes(?: over the data)?|pass over the data)\b", I
)
_EPOCHS2 = re.compile(rf"\bepochs?\s*(?:[:=]|of|is|are|to)?\s*(?P<num>{NUMBER})\b", I)
_SEQ = re.compile(
    rf"(?:(?P<num>{NUM})\s*(?P<mult>k)?[\s-]*(?:tokens?[\s-]+)?(?P<kind>context(?:\s+window|\s+length)?|ctx|"
    rf"sequence(?:\s+length)?s?|seq(?:uence)?[\s_-]?len(?:gth)?|token\s+sequences|tokens?\s+per\s+sequence|"
    rf"tokens?\s+of\s+context|max(?:imum)?\s+length))"
    rf"|(?:(?P<kind2>sequence\s+length|seq[\s_-]?len(?:gth)?|context(?:\s+length|\s+window)?|max(?:imum)?\s+length|"
    rf"context\s+of)\s*(?:[:=]|of|is|to|up\s+to)?\s*(?:about\s+|~)?(?P<num2>{NUM})\s*(?P<mult2>k)?)",
    I,
)
_RANK = re.compile(
    r"\b(?:lora[\s-]+)?rank\s*(?:[:=]|of)?\s*(?P<num>\d+)\b|\br\s*=\s*(?P<num2>\d+)\b|\blora[\s-]?r?(?P<num3>\d+)\b",
    I,
)
_BATCH = re.compile(
    rf"\b(?:micro[\s-]?)?batch(?:[\s-]?size)?\s*(?:[:=]|of|is)?\s*(?P<num>{NUMBER})\b|"
    rf"\b(?P<num2>{NUMBER})\s+sequences per (?:gpu|batch)",
    I,
)


def _training_shape(ctx: _Ctx) -> None:
    inference = ctx.workload == "inference"
    for s in ctx.sentences:
        t = s.text
        for m in list(_EPOCHS.finditer(t)) + list(_EPOCHS2.finditer(t)):
            if _negated(t, m.start()) and "not" in t[max(0, m.start() - 6) : m.start()]:
                continue
            ctx.add(s, "epochs", parse_number(m.group("num")), _q(m), "stated", m.start())
        for m in _SEQ.finditer(t):
            num = m.group("num") or m.group("num2")
            mult = m.group("mult") or m.group("mult2")
            kind = (m.group("kind") or m.group("kind2") or "").lower()
            length = context_length(num, mult)
            if length < 128 or length > 10_000_000:
                continue
            per_sequence = "sequence" in kind or "seq" in kind
            target = "context_len" if inference or ("context" in kind and not per_sequence and ctx.workload is None
                                                      and re.search(r"\b(?:serv|inferen|users?|requests?)", t, I)) else "seq_len"  # fmt: skip
            if (
                not inference
                and "context" in kind
                and ctx.workload is None
                and not re.search(r"train|tun|lora", t, I)
            ):
                target = "context_len"
            ctx.add(s, target, length, _q(m), "stated", m.start())
        for m in _RANK.finditer(t):
            num = m.group("num") or m.group("num2") or m.group("num3")
            if num and 1 <= int(num) <= 4096:
                ctx.add(s, "lora_rank", int(num), _q(m), "stated", m.start())
        for m in _BATCH.finditer(t):
            num = m.group("num") or m.group("num2")
            v = parse_number(num)
            if v >= 1 and v == int(v):
                ctx.add(s, "batch_size", int(v), _q(m), "stated", m.start())


# =========================================================================== money and time
_CUR_SYM = {"$": "USD", "us$": "USD", "€": "EUR", "£": "GBP"}
_CUR_WORD = {
    "usd": "USD", "dollars": "USD", "dollar": "USD", "bucks": "USD", "eur": "EUR", "euro": "EUR", "euros": "EUR",
    "gbp": "GBP", "pounds": "GBP", "pound": "GBP", "chf": "CHF", "k€": "EUR",
}  # fmt: skip
_MONEY = re.compile(
    rf"(?P<sym>us\$|\$|€|£|\bchf\s?|\beur\s?|\busd\s?)\s*(?P<num>{NUMBER})\s*(?P<mult>{MULT})?"
    rf"|(?P<num2>{NUMBER})\s*(?P<mult2>{MULT})?\s*(?P<word>usd|dollars?|bucks|eur|euros?|gbp|pounds?|chf|k€|€|\$)(?!\w)",
    I,
)
_RATE = re.compile(r"^\s*(?:/|per\s|an?\s+(?:hour|month|day|year|gpu)|each\b|hourly|monthly)", I)
_BUDGET_CUE = re.compile(
    r"\b(?:budget\w*|afford|spend|spending|grant|funding|cap|capped|limit|approved|allocated|have|got|"
    r"under|max(?:imum)?|at most|up to|no more than|less than|below|within|around|about)\b|~|≈",
    I,
)
_NOT_BUDGET = re.compile(
    r"\b(?:cost(?:s|ing)? (?:is|was|of)|egress|price[sd]?|charges?|paid|quote[sd]? at|saves?)\b", I
)


def _budget(ctx: _Ctx) -> None:
    short = len(ctx.sentences) <= 3
    for s in ctx.sentences:
        t = s.text
        for m in _MONEY.finditer(t):
            after = t[m.end() :]
            if _RATE.match(after):
                continue
            sym = (m.group("sym") or "").strip().lower()
            word = (m.group("word") or "").lower()
            cur = (
                _CUR_SYM.get(sym) or _CUR_WORD.get(sym) or _CUR_SYM.get(word) or _CUR_WORD.get(word) or "USD"
            )
            num = m.group("num") or m.group("num2")
            mult = m.group("mult") or m.group("mult2")
            if word == "k€":
                mult, cur = "k", "EUR"
            before = t[max(0, m.start() - 60) : m.start()]
            if not (_BUDGET_CUE.search(before) or re.search(r"\bbudget\b", t, I) or short):
                continue
            if _NOT_BUDGET.search(before[-25:]):
                continue
            amount = parse_scaled(num, mult)
            conv = U.usd_from(amount, cur)
            status = "stated" if cur == "USD" else "inferred"
            ev = _q(m) if cur == "USD" else f'"{_q(m)}": {conv.how}'
            ctx.add(s, "budget_usd", conv.value, ev, status, m.start())
        # "budget is 5000" without a currency: read as USD
        for m in re.finditer(
            rf"\bbudget\s*(?:is|of|:|=|around|about|~)?\s*(?P<num>{NUMBER})\s*(?P<mult>{MULT})?(?!\s*[%\w$€£])",
            t,
            I,
        ):
            amount = parse_scaled(m.group("num"), m.group("mult"))
            if amount >= 10:
                ctx.add(
                    s,
                    "budget_usd",
                    amount,
                    f'"{_q(m)}": no currency given, read as USD',
                    "inferred",
                    m.start(),
                )


_WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
_MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
           "november", "december"]  # fmt: skip
_MON = r"(?P<mon>jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?"  # noqa: E501
_BY_WEEKDAY = re.compile(
    r"\b(?:by|before|until|till|due|on|for)\s+(?:this\s+|next\s+|the\s+)?(?P<day>"
    + "|".join(_WEEKDAYS)
    + r")\b",
    I,
)
_BY_DATE = re.compile(
    rf"\b(?:by|before|until|till|due(?:\s+on)?|deadline(?:\s+is)?:?|on)\s+(?:the\s+)?(?:{_MON}\s+(?P<d1>\d{{1,2}})(?:st|nd|rd|th)?"
    rf"|(?P<d2>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?{_MON.replace('?P<mon>', '?P<mon2>')})(?:,?\s+(?P<year>20\d\d))?\b"
    r"|\b(?:by|before|until|due(?:\s+on)?)\s+(?P<iso>20\d\d-\d\d-\d\d)\b",
    I,
)
_BY_END = re.compile(
    r"\b(?:by|before)\s+(?:the\s+)?end\s+of\s+(?:the\s+|this\s+)?(?P<what>week|month|quarter|year)\b|\bby tomorrow\b|\bby tonight\b",
    I,
)
_WITHIN = re.compile(
    rf"\b(?:within|in(?:\s+under)?|in\s+the\s+next|under|inside\s+of|no\s+later\s+than|less\s+than|have|got|"
    rf"deadline\s*(?:is|:|of)?|due\s+in|turnaround\s+(?:of|is)?|need(?:ed)?\s+(?:it\s+)?(?:done\s+)?in)\s+{APPROX}"
    rf"(?P<num>{NUMBER})[\s-]*(?P<unit>hours?|hrs?|h|days?|weeks?|months?)\b",
    I,
)
_BARE_DURATION = re.compile(rf"(?P<num>{NUMBER})[\s-]*(?P<unit>hours?|hrs?|days?|weeks?)\b", I)
_DEADLINE_CUE = re.compile(
    r"\b(?:deadline|due|need|needs|needed|finish|finished|done|ready|deliver|turnaround|have)\b", I
)
_UNIT = {"h": "hour", "hr": "hour", "hrs": "hour", "hour": "hour", "hours": "hour", "day": "day", "days": "day",
         "week": "week", "weeks": "week", "month": "month", "months": "month"}  # fmt: skip


def _end_of_day(d: dt.date, tz: dt.tzinfo | None) -> dt.datetime:
    return dt.datetime.combine(d + dt.timedelta(days=1), dt.time(0, 0), tzinfo=tz)


def _month_index(name: str) -> int:
    name = name.lower()[:3]
    return [m[:3] for m in _MONTHS].index(name) + 1


def _deadline(ctx: _Ctx) -> None:
    ref = ctx.reference_time
    for s in ctx.sentences:
        if s.start in ctx.claim_sentences:
            continue
        t = s.text
        for m in _BY_WEEKDAY.finditer(t):
            target = _WEEKDAYS.index(m.group("day").lower())
            days = (target - ref.weekday()) % 7 or 7
            if re.search(r"\bnext\b", m.group(0), I) and days < 7:
                days += 7
            due = _end_of_day(ref.date() + dt.timedelta(days=days), ref.tzinfo)
            conv = U.hours_until(ref, due, f'"{_q(m)}" (end of that day)')
            ctx.add(s, "deadline_hours", conv.value, conv.how, "inferred", m.start())
        for m in _BY_DATE.finditer(t):
            if m.group("iso"):
                d = dt.date.fromisoformat(m.group("iso"))
            else:
                mon = _month_index(m.group("mon") or m.group("mon2"))
                day = int(m.group("d1") or m.group("d2"))
                year = int(m.group("year")) if m.group("year") else ref.year
                try:
                    d = dt.date(year, mon, day)
                except ValueError:
                    continue
                if d < ref.date() and not m.group("year"):
                    d = d.replace(year=ref.year + 1)
            due = _end_of_day(d, ref.tzinfo)
            if due <= ref:
                continue
            conv = U.hours_until(ref, due, f'"{_q(m)}" (end of that day)')
            ctx.add(s, "deadline_hours", conv.value, conv.how, "inferred", m.start())
        for m in _BY_END.finditer(t):
            what = (m.group("what") or "").lower()
            d = ref.date()
            if "tomorrow" in m.group(0).lower():
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
            conv = U.hours_until(ref, _end_of_day(d, ref.tzinfo), f'"{_q(m)}"')
            ctx.add(s, "deadline_hours", conv.value, conv.how, "inferred", m.start())
        spans: list[tuple[int, int]] = []
        for m in _WITHIN.finditer(t):
            after = t[m.end() : m.end() + 25]
            if re.match(
                r"\s*(?:a|per|/|each|every)\s*(?:day|week|month)\b|\s+of\s+(?:compute|gpu|training)", after, I
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
                _q(m) if status == "stated" else f'"{_q(m)}": {conv.how}',
                status,
                m.start(),
            )
            spans.append((m.start(), m.end()))
        if _DEADLINE_CUE.search(t):
            for m in _BARE_DURATION.finditer(t):
                if any(a <= m.start() < b for a, b in spans):
                    continue
                after = t[m.end() : m.end() + 20]
                before = t[max(0, m.start() - 20) : m.start()]
                if re.match(r"\s*(?:a|per|/|each|every|of\s+(?:gpu|compute|training))\b", after, I):
                    continue
                if re.search(r"\b(?:in|takes?|took|for|over|on)\s+$", before, I):
                    continue
                unit = _UNIT[m.group("unit").lower()]
                conv = U.hours_from(parse_number(m.group("num")), unit)
                ctx.add(s, "deadline_hours", conv.value, f'"{_q(m)}": {conv.how}', "inferred", m.start())


# =========================================================================== data location
_LOCATIONS = (
    (
        re.compile(
            r"\b(?:s3|amazon s3|aws s3|s3 bucket)\b|\b(?:data|dataset|corpus|bucket)\b[^.]{0,30}\b(?:on|in) aws\b",
            I,
        ),
        "aws",
    ),
    (
        re.compile(
            r"\b(?:gcs|google cloud storage|gs://)|\b(?:data|dataset|corpus|bucket)\b[^.]{0,30}\b(?:on|in) (?:gcp|google cloud)\b",
            I,
        ),
        "gcp",
    ),  # noqa: E501
    (
        re.compile(
            r"\b(?:azure blob(?: storage)?|adls|azure data lake|azure storage)\b|\b(?:data|dataset|corpus)\b[^.]{0,30}\b(?:on|in) azure\b",
            I,
        ),
        "azure",
    ),  # noqa: E501
    (
        re.compile(
            r"\b(?:on[\s-]?prem(?:ise|ises)?|in[\s-]house|our own (?:nas|servers?|storage|data ?cent(?:er|re))|"
            r"nas\b|local (?:file ?system|disks?|storage)|university cluster)",
            I,
        ),
        "on_prem",
    ),  # fmt: skip
)
_AWS_REGION = re.compile(
    r"\b(?:us|eu|ap|sa|ca|me|af|il|mx)-(?:east|west|north|south|central|northeast|southeast|northwest|southwest)-\d\b",
    I,
)
_GCP_REGION = re.compile(
    r"\b(?:us|europe|asia|australia|northamerica|southamerica|me|africa)-(?:west|east|central|north|south|northeast|southeast|southwest|northwest)\d{1,2}\b",
    I,
)  # noqa: E501
_AZURE_REGION = re.compile(
    r"\b(?:westeurope|northeurope|eastus2?|westus[23]?|centralus|southcentralus|northcentralus|uksouth|ukwest|"
    r"francecentral|germanywestcentral|swedencentral|switzerlandnorth|norwayeast|polandcentral|italynorth|"
    r"spaincentral|westcentralus|canadacentral|japaneast|australiaeast|southeastasia|eastasia|centralindia)\b",
    I,
)
_DATA_CONTEXT = re.compile(r"\b(?:data|dataset|corpus|stored|storage|sits|lives|bucket|files|text|nas)\b", I)


def _location(ctx: _Ctx) -> None:
    for s in ctx.sentences:
        t = s.text
        for rx, loc in _LOCATIONS:
            for m in rx.finditer(t):
                if _negated(t, m.start()):
                    continue
                if loc == "on_prem" and not _DATA_CONTEXT.search(t):
                    continue
                ctx.add(s, "data_location", loc, _q(m), "stated", m.start())
        for rx, loc in ((_AWS_REGION, "aws"), (_GCP_REGION, "gcp"), (_AZURE_REGION, "azure")):
            for m in rx.finditer(t):
                ctx.add(s, "data_region", m.group(0).lower(), _q(m), "stated", m.start())
                if not ctx.has("data_location"):
                    ctx.add(s, "data_location", loc, f'region "{_q(m)}" -> {loc}', "inferred", m.start())
        if re.search(
            r"\b(?:cache[sd]?|copy|copied)\b[^.]{0,40}\b(?:once|after the first pull|locally)\b", t, I
        ):
            ctx.add(s, "data_cached", True, t, "stated")


# =========================================================================== cadence, utilisation, horizon
_RUN_NOUN = r"(?:experiments?|runs?|training runs?|fine[\s-]?tun(?:es|ing runs?)|jobs?|retrains?|re-trains?|iterations)"
_CADENCE_NUM = re.compile(
    rf"(?P<num>{NUMBER})\s*(?:\w+\s+){{0,2}}?{_RUN_NOUN}\s*(?:a|per|each|every|/)\s*(?P<per>day|week|month|quarter|year)\b",
    I,
)
_CADENCE_TIMES = re.compile(
    rf"\b(?P<times>once|twice|thrice|(?:{NUMBER})\s+times)\s+(?:a|per|each|every)\s+(?P<per>day|week|month|quarter|year)\b",
    I,
)
_CADENCE_ADV = re.compile(
    r"\b(?P<adv>daily|nightly|weekly|biweekly|bi-weekly|fortnightly|monthly|quarterly|every (?:day|night|week|month|quarter|other week|two weeks))\b",
    I,
)  # noqa: E501
_ADV = {"daily": (1, "day"), "nightly": (1, "day"), "weekly": (1, "week"), "biweekly": (0.5, "week"),
        "bi-weekly": (0.5, "week"), "fortnightly": (0.5, "week"), "monthly": (1, "month"), "quarterly": (1, "quarter"),
        "every day": (1, "day"), "every night": (1, "day"), "every week": (1, "week"), "every month": (1, "month"),
        "every quarter": (1, "quarter"), "every other week": (0.5, "week"), "every two weeks": (0.5, "week")}  # fmt: skip
_TRAIN_WORD = re.compile(
    r"\b(?:re-?train\w*|train\w*|fine[\s-]?tun\w*|experiments?|runs?|jobs?|lora|qlora)\b", I
)


def _cadence(ctx: _Ctx) -> None:
    for s in ctx.sentences:
        t = s.text
        if ctx.workload == "inference" and not re.search(r"re-?train|fine[\s-]?tun|experiment", t, I):
            continue
        for m in _CADENCE_NUM.finditer(t):
            conv = U.runs_per_month_from(parse_number(m.group("num")), m.group("per").lower())
            ctx.add(s, "runs_per_month", conv.value, _q(m) if m.group("per").lower() == "month" else f'"{_q(m)}": {conv.how}',
                    "stated" if m.group("per").lower() == "month" else "inferred", m.start())  # fmt: skip
        if not _TRAIN_WORD.search(t):
            continue
        for m in _CADENCE_TIMES.finditer(t):
            times = m.group("times").lower()
            n = {"once": 1.0, "twice": 2.0, "thrice": 3.0}.get(times) or parse_number(times.split()[0])
            per = m.group("per").lower()
            conv = U.runs_per_month_from(n, per)
            ctx.add(s, "runs_per_month", conv.value, f'"{_q(m)}": {conv.how}', "stated" if per == "month" else "inferred",
                    m.start())  # fmt: skip
        for m in _CADENCE_ADV.finditer(t):
            n, per = _ADV[m.group("adv").lower()]
            conv = U.runs_per_month_from(n, per)
            ctx.add(s, "runs_per_month", conv.value, f'"{_q(m)}": {conv.how}', "inferred", m.start())


_PERCENT = re.compile(r"(?P<num>\d{1,3}(?:\.\d+)?)\s*(?:%|percent)", I)
_UTIL_CUE = re.compile(
    r"\b(?:utili[sz](?:ation|ed)|busy|in use|loaded|occupied|duty cycle|of the time|usage|used)\b", I
)
_FRACTION_TIME = re.compile(
    r"\b(?P<frac>half|a third|a quarter|two thirds|three quarters|most|all)\s+(?:of\s+)?the\s+time\b", I
)
_FRACTIONS = {"half": 0.5, "a third": 1 / 3, "a quarter": 0.25, "two thirds": 2 / 3, "three quarters": 0.75,
              "most": 0.8, "all": 1.0}  # fmt: skip
_ALWAYS_ON = re.compile(
    r"\b24\s*/\s*7\b|\baround the clock\b|\bround the clock\b|\balways[\s-]on\b|\bcontinuously\b", I
)
_SCHEDULE = re.compile(
    rf"(?P<h>{NUMBER})\s*(?:hours?|h|hrs?)\s*(?:a|per|/)\s*day(?:\s*(?:on|,)?\s*(?P<wk>weekdays|work ?days|business days|"
    rf"(?P<d>{NUMBER})\s*days\s*(?:a|per)\s*week))?",
    I,
)
_HORIZON = re.compile(
    rf"\b(?:over|across|for\s+the\s+next|in\s+the\s+next|next|horizon\s+of|pays?\s+off\s+(?:with)?in|break[\s-]?even\s+(?:with)?in|"
    rf"amorti[sz]ed?\s+over|depreciat\w+\s+over|lifetime\s+of|for)\s+(?:a\s+|the\s+)?{APPROX}(?P<num>{NUMBER})[\s-]*"
    rf"(?P<unit>years?|yrs?|months?)\b(?P<tail>[\s-]*horizon)?"
    rf"|(?P<num2>{NUMBER})[\s-]*(?P<unit2>years?|months?)[\s-]+(?:planning\s+)?horizon\b",
    I,
)


def _utilisation(ctx: _Ctx) -> None:
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
                    s, "utilization", _FRACTIONS[m.group("frac").lower()], f'"{_q(m)}"', "inferred", m.start()
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
                ctx.add(s, "utilization", conv.value, f'"{_q(m)}": {conv.how}', "inferred", m.start())
        for m in _ALWAYS_ON.finditer(t):
            if ctx.workload == "inference" or re.search(
                r"\b(?:serv|inference|service|endpoint|runs?)\w*", t, I
            ):
                ctx.add(s, "utilization", 1.0, f'"{_q(m)}" -> in use all the time', "inferred", m.start())
        for m in _HORIZON.finditer(t):
            num = m.group("num") or m.group("num2")
            unit = (m.group("unit") or m.group("unit2")).lower()
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
                _q(m) if status == "stated" else f'"{_q(m)}": {conv.how}',
                status,
                m.start(),
            )


# =========================================================================== inference serving
_CONC = re.compile(
    rf"(?P<num>{NUMBER})\s*(?P<mult>k)?\+?\s*(?:(?:concurrent|simultaneous|parallel|active)\s+(?:users?|requests?|sessions?|"
    rf"sequences?|connections?|streams?|chats?|conversations?)|(?:users?|requests?|sessions?|people|employees)\s+"
    rf"(?:at\s+(?:the\s+same|any|one)\s+time|concurrently|simultaneously|in\s+parallel|at\s+once)|"
    rf"(?:concurrent|simultaneous|parallel)(?:ly)?\b|at\s+the\s+same\s+time|at\s+once)"
    rf"|\bconcurrency\s*(?:of|:|=|is)?\s*(?P<num2>{NUMBER})",
    I,
)
_USERS = re.compile(
    rf"\b(?:for|serve|serving|support|handle)\s+{APPROX}(?P<num>{NUMBER})\s*(?P<mult>k)?\+?\s*(?:users|requests|customers|clients|people)\b|(?P<num2>{NUMBER})\s+users\b",
    I,
)  # noqa: E501
_LATENCY = re.compile(
    rf"(?P<num>{NUMBER})\s*(?:ms|milliseconds?)\s*(?:/|per)\s*(?:output\s+)?token"
    rf"|(?:latency|tpot|time per (?:output )?token|inter-token latency)\b[^.]{{0,30}}?(?P<num2>{NUMBER})\s*(?:ms|milliseconds?)\b",
    I,
)
_RATE_TOKENS = re.compile(
    rf"(?P<num>{NUMBER})\s*(?P<mult>k)?\s*(?:output\s+)?(?:tokens?|tok)\s*(?:/\s*s(?:ec)?|per\s+s(?:ec(?:ond)?)?|a\s+second)\b"
    rf"(?P<tail>[^.;]{{0,30}})",
    I,
)
_PER_USER = re.compile(
    r"^\W*(?:for\s+)?(?:per|each|every|a|/)\s*(?:user|sequence|request|stream|session|conversation)", I
)


def _serving(ctx: _Ctx) -> None:
    for s in ctx.sentences:
        t = s.text
        conc_spans: list[int] = []
        for m in _CONC.finditer(t):
            num = m.group("num") or m.group("num2")
            v = parse_number(num) * (1000 if m.group("mult") else 1)
            if v >= 1:
                ctx.add(s, "concurrency", int(v), _q(m), "stated", m.start())
                conc_spans.append(m.start())
        if ctx.workload == "inference" and not conc_spans:
            for m in _USERS.finditer(t):
                if re.search(r"\b(?:employees|staff)\b", t[m.end() : m.end() + 15], I):
                    continue
                num = m.group("num") or m.group("num2")
                v = parse_number(num) * (1000 if m.group("mult") else 1)
                ctx.add(
                    s, "concurrency", int(v), f'"{_q(m)}" read as concurrent users', "inferred", m.start()
                )
        for m in _LATENCY.finditer(t):
            v = parse_number(m.group("num") or m.group("num2"))
            if v > 0:
                ctx.add(s, "latency_ms_per_token", v, _q(m), "stated", m.start())
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
                ctx.add(s, "latency_ms_per_token", ms, f'"{_q(m).strip()}": 1000 ms / {v:g} tokens/s = {ms:.1f} ms/token',
                        "inferred", m.start())  # fmt: skip
            elif (
                re.search(
                    r"\b(?:aggregate|total|overall|throughput|in total|combined|across)\b",
                    tail + " " + before,
                    I,
                )
                or ctx.workload == "inference"
            ):  # noqa: E501
                ctx.add(s, "target_tokens_per_s", v, _q(m), "stated", m.start())


# =========================================================================== constraints
_EU = re.compile(
    r"\b(?:eu[\s-]only|eu[\s-]based|eu data residency|data residency|gdpr|schrems|within the (?:eu|european union|eea)|"
    r"(?:stay|remain|be processed|be hosted|be stored|kept|stays|remains)\s+(?:with)?in\s+(?:the\s+)?(?:eu|european union|eea|europe)|"
    r"(?:leave|leaves|leaving)\s+(?:the\s+)?(?:eu|european union|eea|europe)|european (?:providers?|clouds?|data ?cent(?:er|re)s?) only|"
    r"only (?:eu|european) (?:providers?|regions?|clouds?|data ?cent(?:er|re)s?)|(?:in|outside)\s+(?:the\s+)?eu\b)",
    I,
)
_EU_NO = re.compile(
    r"\b(?:no|not|don't need|doesn't need|without)\s+(?:an?\s+)?(?:eu|gdpr|data residency)\b|\bnot eu[\s-]only\b",
    I,
)
_OPS_NONE = re.compile(
    r"\b(?:no|without(?:\s+an?)?|zero|lack\s+(?:an?\s+)?|don't have (?:an?\s+)?|do not have (?:an?\s+)?)\s*"
    r"(?:dedicated\s+|in-house\s+|real\s+)?(?:infra(?:structure)?|devops|dev ops|ops|operations|mlops|platform|sre|"
    r"it|sysadmin|cluster)\s*(?:team|staff|people|engineers?|support|capacity|experience|person|folks)?\b"
    r"|\b(?:don't|do not|can't|cannot)\s+(?:want to\s+)?(?:manage|run|operate|maintain)\s+(?:our own\s+)?(?:infra|infrastructure|servers|clusters?|hardware)\b"  # noqa: E501
    r"|\bfully managed\b",
    I,
)
_OPS_LIMITED = re.compile(
    r"\b(?:one|a single|1|a)\s+(?:part[\s-]time\s+)?(?:devops|ops|sre|infra(?:structure)?|platform|mlops)\s*(?:engineer|person|guy)?\b"
    r"|\blimited\s+(?:ops|operations|devops|infra)\b|\bpart[\s-]time\s+(?:ops|devops|sre|admin)\b",
    I,
)
_OPS_DEDICATED = re.compile(
    rf"\b(?:(?:{NUMBER})[\s-]*(?:person|people)\s+)?(?:infra(?:structure)?|devops|ops|platform|sre|mlops|hpc)\s+team\b"
    rf"|\b(?:{NUMBER})\s+(?:sres|devops engineers|infra engineers|platform engineers)\b|\bsres\b"
    r"|\brun(?:s|ning)?\s+(?:our own\s+)?(?:kubernetes|slurm|k8s)\b|\bhave run\s+\w+\s+clusters\b",
    I,
)
_OBJ_CHEAP = re.compile(
    r"\b(?:as cheap(?:ly)? as possible|cheapest|lowest[\s-]cost|least expensive|minimi[sz]e (?:the )?costs?|keep (?:the )?costs? (?:down|low)|cost is (?:what|all) (?:matters|we care)|budget[\s-]conscious|not in a hurry)\b",
    I,
)  # noqa: E501
_OBJ_FAST = re.compile(
    r"\b(?:as fast as possible|fastest|as quickly as possible|quickest|speed matters|time matters most|asap|time[\s-]to[\s-]result)\b",
    I,
)  # noqa: E501
_PREFER = re.compile(
    r"\b(?:prefer\w*|first choices?|would like to use|we'd like to use|like to use|favou?r|have credits|credits (?:on|with)|happy with|our (?:usual|current) provider|if we rent)\b",
    I,
)  # noqa: E501
_EXCLUDE = re.compile(
    r"\b(?:not|no|anything but|except|avoid|excluding|exclude|can't use|cannot use|can not use|not allowed to use|won't use|will not use|don't want|never|without|ban(?:ned)?|other than)\b",
    I,
)  # noqa: E501
_HYPER = re.compile(
    r"\b(?:no|not|avoid|without|anything but|except)\s+(?:the\s+)?(?:big\s+(?:three\s+)?)?hyperscalers?\b|\bno big (?:three|3) clouds?\b",
    I,
)  # noqa: E501
_CONSUMER = re.compile(
    r"\b(?:my|our|a)\s+(?:own\s+)?(?:gaming\s+(?:pc|rig)|home\s+(?:pc|server|rig)|workstation|desktop|laptop)\b|\bat home\b|\bmy\s+(?:rtx\s?)?\d{4}\b|\bmy\s+rtx\b",
    I,
)  # noqa: E501
_ONPREM_DEPLOY = re.compile(
    r"\b(?:run|host|deploy|train|keep|operate)\w*\b[^.]{0,30}\bon[\s-]?prem\w*|\b(?:buy(?:ing)?|purchas\w+|own)\s+(?:our\s+own\s+)?(?:the\s+)?(?:gpus|servers|hardware|nodes|machines)\b",
    I,
)  # noqa: E501


def _constraints(ctx: _Ctx) -> None:
    for s in ctx.sentences:
        t = s.text
        for m in _EU.finditer(t):
            if _EU_NO.search(t):
                ctx.add(s, "eu_only", False, _q(m), "stated", m.start())
                break
            status = "inferred" if m.group(0).lower() in ("gdpr", "schrems", "data residency") else "stated"
            ev = _q(m) if status == "stated" else f'"{_q(m)}" -> keep data and processing in the EU'
            ctx.add(s, "eu_only", True, ev, status, m.start())
            break
        none = _OPS_NONE.search(t)
        if none:
            ctx.add(s, "ops_capacity", "none", _q(none), "stated", none.start())
        else:
            lim = _OPS_LIMITED.search(t)
            if lim:
                ctx.add(s, "ops_capacity", "limited", _q(lim), "stated", lim.start())
            else:
                ded = _OPS_DEDICATED.search(t)
                if ded and not _negated(t, ded.start()):
                    ctx.add(s, "ops_capacity", "dedicated", _q(ded), "inferred", ded.start())
        cheap, fast = _OBJ_CHEAP.search(t), _OBJ_FAST.search(t)
        if cheap and fast:
            ctx.add(s, "objective", "balanced", f"{_q(cheap)} / {_q(fast)}", "stated", cheap.start())
        elif cheap:
            ctx.add(s, "objective", "cheapest", _q(cheap), "stated", cheap.start())
        elif fast:
            ctx.add(s, "objective", "fastest", _q(fast), "stated", fast.start())
        cons = _CONSUMER.search(t)
        if cons:
            ctx.add(s, "deployment_preference", "consumer", _q(cons), "stated", cons.start())
        elif (op := _ONPREM_DEPLOY.search(t)) and not re.search(r"\b(?:or|vs\.?|versus|whether)\b", t, I):
            ctx.add(s, "deployment_preference", "on_prem", _q(op), "stated", op.start())
        _providers(ctx, s)


def _providers(ctx: _Ctx, s: Sentence) -> None:
    t = s.text
    hyper = _HYPER.search(t)
    if hyper:
        ctx.add(s, "providers_excluded", list(HYPERSCALERS), _q(hyper), "stated", hyper.start())
    named = find_providers(t)
    if not named:
        return
    # clauses: a cue applies to the providers of its own clause
    offset = 0
    for clause in re.split(r"(?<=[,;:])\s+|\s+(?:while|whereas)\s+", t):
        idx = t.find(clause, offset)
        offset = idx + len(clause)
        in_clause = [(p, a, b) for p, a, b in named if idx <= a < idx + len(clause)]
        if not in_clause:
            continue
        ex = _EXCLUDE.search(clause)
        pref = _PREFER.search(clause)
        data_like = re.compile(r"\b(?:s3|gcs|blob|bucket|data|dataset|corpus|stored|sits|lives)\b", I)
        for pid, a, _b in in_clause:
            local = clause[: a - idx]
            if ex and ex.start() < a - idx and not (pref and pref.start() > ex.end()):
                ctx.add(s, "providers_excluded", [pid], clause, "stated", a)
            elif pref or (re.search(r"\bor\b", clause) and any(f.field == "providers_preferred" for f in ctx.findings
                                                                 if f.position >= s.start)):  # fmt: skip
                if not data_like.search(local):
                    ctx.add(s, "providers_preferred", [pid], clause, "stated", a)


# =========================================================================== claims
_CLAIM_CUE = re.compile(
    r"\b(?:claim\w*|told|tells|said|says|promis\w*|quoted|advertis\w*|vendor|blog|someone|supposedly|reportedly|"
    r"according to|we could do|could do|can do|benchmark\w*|marketing|their sales)\b",
    I,
)
_CLAIM_HOURS = re.compile(
    rf"\b(?:in|takes?|took|within|under|about)\s+{APPROX}(?P<num>{NUMBER})\s*(?P<unit>hours?|hrs?|h|days?|minutes?|mins?)\b",
    I,
)  # noqa: E501
_GPU_COUNT = re.compile(rf"(?P<num>{NUMBER})\s*(?:x\s*|×\s*)?$", I)


def _claims(ctx: _Ctx) -> None:
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
        ctx.add(s, "claimed_gpu", gid, _q(gpu), "stated", gpu.start())
        cm = _GPU_COUNT.search(t[max(0, gpu.start() - 14) : gpu.start()])
        count = int(parse_number(cm.group("num"))) if cm else 1
        ctx.add(s, "claimed_gpu_count", count, t[max(0, gpu.start() - 14) : gpu.end()].strip(),
                "stated" if cm else "inferred", gpu.start())  # fmt: skip
        unit = hours.group("unit").lower()
        n = parse_number(hours.group("num"))
        h = n * 24 if unit.startswith("d") else (n / 60 if unit.startswith("m") else n)
        ctx.add(
            s, "claimed_hours", h, _q(hours), "stated" if unit.startswith("h") else "inferred", hours.start()
        )


RULES: tuple[Callable[[_Ctx], None], ...] = (
    _claims,  # first: marks claim sentences so time and rate rules skip them
    _workload,
    _method,
    _precision,
    _model,
    _dataset,
    _training_shape,
    _budget,
    _deadline,
    _location,
    _cadence,
    _utilisation,
    _serving,
    _constraints,
)


class RulesExtractor:
    """Offline, deterministic extractor. `reference_time` anchors relative deadlines ("by Friday");
    None means the current time when `extract` runs."""

    name = "rules"

    def __init__(self, reference_time: dt.datetime | None = None) -> None:
        self.reference_time = reference_time

    def with_reference_time(self, when: dt.datetime | None) -> RulesExtractor:
        """A copy anchored at `when` (the eval harness pins a date so 'by Friday' is reproducible)."""
        return RulesExtractor(reference_time=when)

    def analyse(self, text: str) -> Analysis:
        """All findings in `text` (before merging), and the sentences ignored as instructions to a machine."""
        cleaned = split_sentences(text)
        ref = self.reference_time or dt.datetime.now(dt.UTC)
        ctx = _Ctx(sentences=cleaned.sentences, reference_time=ref)
        if ctx.sentences:
            for rule in RULES:
                rule(ctx)
        return Analysis(findings=tuple(ctx.findings), ignored=cleaned.ignored)

    def extract(self, text: str, prior: WorkloadProfile | None = None) -> WorkloadProfile:
        """`prior` with the facts of `text` merged in (see advisor.extract.base for the merge rules)."""
        return merge_findings(prior, self.analyse(text).findings)
