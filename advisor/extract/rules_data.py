"""Dataset size (tokens, words, pages, items, GB of text) and training-shape rules (epochs, sequence
length, LoRA rank, batch size)."""

from __future__ import annotations

import re

from advisor.extract import units_text as U
from advisor.extract.regex_keys import keyed
from advisor.extract.rules_ctx import Ctx, Gated, I, negated, q
from advisor.extract.rules_models import GPU_RE
from advisor.extract.rules_text import (
    APPROX,
    GENERATED_FROM_MODEL,
    MULT,
    MULTIPLIERS,
    NUM,
    NUMBER,
    context_length,
    parse_count,
    parse_number,
    parse_scaled,
)
from advisor.extract.sentence_memo import read_once

# =========================================================================== dataset and training shape
_TOKENS = Gated(
    re.compile(rf"(?P<num>{NUMBER})\s*(?P<mult>{MULT})?[\s-]*(?:training\s+|text\s+)?(?:tokens?|toks?)\b", I),
    "tok",
)
_RATE_AFTER = re.compile(
    r"^\s*(?:/\s*s|/sec|per\s+s(?:ec(?:ond)?)?\b|a\s+second|each second|/\s*second"
    # a rate served, not a dataset; a word needs its space: "an" + "d" must not read " and" as "a day"
    # (expert review 16, R16 "on 2T tokens and want it done in 60 days")
    r"|(?:/\s*|(?:per|a|an|each|every)\s+)(?:day|d|hour|hr|minute|min)\b)",
    I,
)
_WINDOW_CHARS = 60  # how far around a number its unit cues are looked for
_LEN_BEFORE = keyed(r"(?:sequence length|context|seq(?:uence)?s? of|length|window|max)\W*$", I)
_LEN_AFTER = keyed(
    r"^\s*(?:per\s+(?:sequence|sample|example|request|prompt|document|conversation|item)|each\b|of context"
    r"|context|"
    r"ctx|window|sequences?|seq|max|prompts?|long\b)",
    I,
)
_ITEM_NOUNS = (
    r"examples?|samples?|rows|records|conversations?|dialogues?|pairs|instructions|tickets|chats|prompts|"
    r"documents?|docs|articles|papers|contracts|files|reports|emails|transcripts|q&a pairs|items|summaries"
    r"|claims|notes|reviews|messages|posts|abstracts|threads|cases|calls|tickets"
    # more documents teams hold (evals v18: "12,000 pseudonymised discharge letters of ~1,500 tokens each")
    r"|letters|invoices|forms|applications|memos|briefs|filings|manuals"
)
_ITEMS_TOKENS = Gated(
    re.compile(
        rf"(?P<count>{NUMBER})\s*(?P<cmult>{MULT})?\s*(?:(?!\d|(?:on|with|for|from|using|in)\b)\w[\w/-]*\s+){{0,3}}?"
        rf"(?P<noun>{_ITEM_NOUNS})\b(?P<gap>[^.;]{{0,40}}?)"
        rf"(?P<cue>averag\w*|avg\.?|of|at|with|each|x|×|around|about|~"
        rf"|roughly)\s*{APPROX}(?P<each>{NUMBER})\s*(?P<emult>{MULT})?"
        rf"\s*(?P<unit>tokens?|toks?|words?|pages?)\b",
        I,
    ),
    "tok",
    "word",
    "page",
)
_WORDS = Gated(re.compile(rf"(?P<num>{NUMBER})\s*(?P<mult>{MULT})?\s*(?:\w+\s+)?words?\b", I), "word")
_PAGES = Gated(re.compile(rf"(?P<num>{NUMBER})\s*(?P<mult>{MULT})?\s*pages?\b", I), "page")
_BYTES = Gated(
    re.compile(rf"(?P<num>{NUMBER})\s*(?P<unit>[kmgtp]b|gigabytes?|terabytes?|megabytes?|petabytes?)\b", I),
    "gb",
    "tb",
    "mb",
    "kb",
    "pb",
    "byte",
)
_BYTES_GB = {"kb": 1e-6, "mb": 1e-3, "gb": 1.0, "tb": 1e3, "pb": 1e6, "megabyte": 1e-3, "gigabyte": 1.0,
             "terabyte": 1e3, "petabyte": 1e6}  # fmt: skip
_DATA_WORDS = keyed(
    r"\b(?:data(?:set)?s?|corpus|corpora|text|jsonl|parquet|documents?|files|bucket|nas|stored|storage|s3"
    r"|gcs|blob|"
    r"tokeni[sz]ed|training set|training data|wiki|logs|papers|contracts)\b",
    I,
)
_NOT_TEXT = keyed(r"\b(?:images?|photos?|video|audio|pdfs?|scan(?:s|ned)?|pictures|binary)\b", I)
_VRAM_WORDS = keyed(r"\b(?:vram|memory|hbm|enough|card|gpus?|ram)\b", I)


# Between an item count and a size, these say the size is the total ("400k documents, which is about
# 250M tokens", "30k tickets (~15M tokens)", "100 chats, prompts around 1,500 tokens"), not per item.
_TOTAL_GAP = re.compile(r"[(,:]|\b(?:which|that|is|are|was|were|total\w*|altogether|overall)\b", I)
_PER_ITEM = re.compile(
    r"\b(?:each|per|avg|averag\w*|apiece|a piece|x)\b|×"
    # "95k rows, ~700 tokens a row" (evals v18): the size of one item, named after it
    r"|\ban?\s+(?:row|record|item|doc(?:ument)?|example|sample|conversation|chat|ticket|file|message|pair"
    r"|article|transcript|call|e-?mail|review|post|note|letter|contract|report|prompt)\b",
    I,
)
# "generate 2 billion tokens": an output volume (batch inference), not a training set ("we generated" is)
_GENERATE_BEFORE = keyed(
    r"\b(?:generat(?:e|es|ing)|produc(?:e|es|ing)|synthesi[sz](?:e|es|ing)|emits?)\W+(?:\w+\W+){0,3}$", I
)

_BASE_MODEL_TRAINED = re.compile(
    r"\b(?:meta|google|mistral|alibaba|qwen|openai|deepseek|microsoft|they|it\s+was|was|were)\s+(?:pre-?)?trained"
    r"\s+(?:it\s+|them\s+)?on\s+\W*$",
    I,
)
_FROM_MODEL = re.compile(rf"\s*{GENERATED_FROM_MODEL}", I)  # "4B tokens out of Llama 3.1 405B"


def _total_not_each(m: re.Match[str], each: float, after: str) -> bool:
    """Whether the size after an item count is the collection's total rather than a size per item
    (`after`: a few characters after the match, where "each" may stand)."""
    gap = m.group("gap") or ""
    per_item = _PER_ITEM.search(f"{gap} {m.group('cue')} {after}") is not None
    if per_item:
        return False
    return _TOTAL_GAP.search(gap) is not None or each >= 1e6  # a size per item of 1M+ tokens says "each"


def _inside(pos: int, spans: list[tuple[int, int]]) -> bool:
    return any(a <= pos < b for a, b in spans)


# An item count and the items' size said apart, in the same or a later sentence: "our support tickets, about
# 40k of them. They're around 600 tokens each", "about 40k tickets; each is ~600 tokens".
_ITEM_COUNT = re.compile(
    rf"(?P<count>{NUMBER})\s*(?P<cmult>{MULT})?\s*(?:(?!\d|(?:on|with|for|from|using|in)\b)\w[\w/-]*\s+){{0,3}}?"
    rf"(?P<noun>{_ITEM_NOUNS})\b"
    rf"|(?P<noun2>{_ITEM_NOUNS})\b[^.;]{{0,30}}?\b{APPROX}(?P<count2>{NUMBER})\s*(?P<cmult2>{MULT})?\s+of\s+them\b",
    I,
)
EACH_SIZE = re.compile(
    rf"{APPROX}(?P<each>{NUMBER})\s*(?P<emult>k)?\s*(?P<unit>tokens?|words?)\s+(?:each|apiece|a\s+piece"
    r"|per\s+(?:item|ticket|example|document|doc|sample|row|record|conversation|chat|email|one|piece|pair))\b"
    rf"|\b(?:each(?:\s+one)?|they(?:'re|\s+are)|averag\w*|avg\.?)\s+(?:\w+\s+){{0,3}}?{APPROX}(?P<each2>{NUMBER})"
    r"\s*(?P<emult2>k)?\s*(?P<unit2>tokens?|words?)\b",
    I,
)
_MIN_ITEMS = 100  # fewer: a handful of examples, not a data set


def _items_across_sentences(ctx: Ctx) -> None:
    """dataset_tokens from an item count and a size per item stated in different sentences (the size in
    the same or one of the next two sentences), when nothing else gave the data set's size."""
    if ctx.workload == "inference" or any(f.field == "dataset_tokens" for f in ctx.findings):
        return
    for i, s in enumerate(ctx.sentences):
        m = next((c for c in _ITEM_COUNT.finditer(s.text) if _count(c) >= _MIN_ITEMS), None)
        if m is None:
            continue
        for nxt in ctx.sentences[i : i + 3]:
            start = m.end() if nxt is s else 0
            size = EACH_SIZE.search(nxt.text, start)
            if size is None:
                continue
            key = "" if size.group("each") else "2"
            each = parse_number(size.group("each" + key)) * (1000 if size.group("emult" + key) else 1)
            noun = (m.group("noun") or m.group("noun2")).lower()
            if size.group("unit" + key).lower().startswith("word"):
                conv = U.tokens_from_items_words(_count(m), each, noun)
            else:
                conv = U.tokens_from_items(_count(m), each, noun)
            ev = f'"{q(m)}" x "{q(size)}": {conv.how}'
            ctx.add(s, "dataset_tokens", conv.value, ev, "inferred", s.start + m.start())
            return


def _count(m: re.Match[str]) -> float:
    key = "" if m.group("count") else "2"
    return _item_count(m.group("count" + key), m.group("cmult" + key))


def _item_count(num: str, mult: str | None) -> float:
    """A count of items: whole, so one dot group is a thousands separator ("120.000 examples" from a
    Brazilian or German writer is 120,000; evals v16 read 120); a multiplier scales it ("1.5k")."""
    return parse_count(num) * (MULTIPLIERS[mult.strip().lower()] if mult else 1.0)


def rule_dataset(ctx: Ctx) -> None:
    """dataset_tokens (tokens stated; words, pages, items x size, GB of text converted) and dataset_gb."""
    _rule_dataset(ctx)
    _items_across_sentences(ctx)
    _tokens_key(ctx)


# a pasted config's key and value: "tokens: 40B", "train_tokens = 2e9", "dataset tokens: 500M" (evals v13: a
# YAML block's "tokens: 40B" was read as a 40B model)
_TOKENS_KEY = keyed(
    rf"\b(?:(?:train(?:ing)?|dataset|data|corpus|total)[\s_-]+|number\s+of\s+)?tok(?:en)?s?(?:\s+count)?"
    # ... or said in words, non-native order: "tokens is 260 billion" (expert review 12, R06)
    rf"(?:\s*[:=]|\s+(?:is|are|was|will\s+be)\b)\s*{APPROX}"
    rf"(?P<num>{NUMBER})\s*(?P<mult>{MULT})?(?!\w|\.\d)",  # a full stop may end the sentence
    I,
)


MIN_KEYED_TOKENS = 1e5  # fewer is a length ("tokens: 2048"), not a data set


def _tokens_key(ctx: Ctx) -> None:
    if any(f.field == "dataset_tokens" for f in ctx.findings) or ctx.workload == "inference":
        return
    for s in ctx.sentences:
        for m in _TOKENS_KEY.finditer(s.text):
            value = parse_scaled(m.group("num"), m.group("mult"))
            if _RATE_AFTER.match(s.text[m.end() :]) or value < MIN_KEYED_TOKENS:
                continue  # "tokens: 500/s" is a rate; "tokens: 2048" a length
            ctx.add(s, "dataset_tokens", value, q(m), "stated", m.start())
            return


PER_ITEM_MAX_TOKENS = 2e6  # above: no sequence's length, so "each" is per run (rules_serving_io's bound)


def _per_run(after: re.Match[str], m: re.Match[str]) -> bool:
    """"2B tokens each" after "weekly runs" is each run's data, not a sequence length (review 13 R17)."""
    return after.group(0).strip().lower() == "each" and parse_scaled(m.group("num"), m.group("mult")) > (
        PER_ITEM_MAX_TOKENS
    )


@read_once
def _rule_dataset(ctx: Ctx) -> None:
    for s in ctx.sentences_with(_ITEMS_TOKENS, _TOKENS, _WORDS, _PAGES, _BYTES):  # a finding needs one
        t = s.text
        claim = s.start in ctx.claim_sentences
        rank = -1 if claim else None  # numbers inside a claim lose to any other mention
        item_spans: list[tuple[int, int]] = []
        for m in _ITEMS_TOKENS.finditer(t):
            if ctx.workload == "inference":
                break  # items x tokens each is a batch's output (advisor/extract/rules_serving_io.py)
            count = _item_count(m.group("count"), m.group("cmult"))
            each = parse_scaled(m.group("each"), m.group("emult"))
            if count < _MIN_ITEMS:
                continue  # "25 question/answer pairs at ~120 tokens": what each item holds, not a data set
            if _total_not_each(m, each, t[m.end() : m.end() + 12]):
                continue  # "30k tickets (~15M tokens)": the stated figure is the total, read below
            unit = m.group("unit").lower()
            noun = m.group("noun").lower()
            if unit.startswith("tok"):
                conv = U.tokens_from_items(count, each, noun)
            elif unit.startswith("word"):
                conv = U.tokens_from_items_words(count, each, noun)
            else:
                conv = U.tokens_from_pages(count * each)
                conv = U.Converted(conv.value, f"{count:g} {noun} x {each:g} pages; {conv.how}")
            ctx.add(s, "dataset_tokens", conv.value, f'"{q(m)}": {conv.how}', "inferred", m.start(), rank)
            item_spans.append((m.start(), m.end()))
        for m in _TOKENS.finditer(t):
            if _inside(m.start(), item_spans):
                continue
            after = t[m.end() : m.end() + _WINDOW_CHARS]  # bounded windows keep the rule linear in t
            if _RATE_AFTER.match(after):
                continue
            if (ln := _LEN_AFTER.match(after)) is not None and not _per_run(ln, m):
                continue
            if _LEN_BEFORE.search(t[max(0, m.start() - _WINDOW_CHARS) : m.start()]):
                continue
            if _GENERATE_BEFORE.search(t[max(0, m.start() - 40) : m.start()]) or _FROM_MODEL.match(after):
                continue  # tokens to generate (advisor/extract/rules_serving_io.py)
            if _BASE_MODEL_TRAINED.search(t[max(0, m.start() - 50) : m.start()]):
                continue  # "Meta pretrained it on ~15T tokens": the base model's data, not this job's
            value = parse_scaled(m.group("num"), m.group("mult"))
            if value < 1e6:
                continue  # a length, not a dataset
            ctx.add(s, "dataset_tokens", value, q(m), "stated", m.start(), rank)
        for m in _WORDS.finditer(t):
            if _inside(m.start(), item_spans):
                continue
            words = parse_scaled(m.group("num"), m.group("mult"))
            if words < 1000:
                continue
            conv = U.tokens_from_words(words)
            ctx.add(s, "dataset_tokens", conv.value, f'"{q(m)}": {conv.how}', "inferred", m.start(), rank)
        for m in _PAGES.finditer(t):
            if _inside(m.start(), item_spans):
                continue
            pages = parse_scaled(m.group("num"), m.group("mult"))
            if pages < 100:
                continue
            conv = U.tokens_from_pages(pages)
            ctx.add(s, "dataset_tokens", conv.value, f'"{q(m)}": {conv.how}', "inferred", m.start(), rank)
        data_words = _DATA_WORDS.search(t) is not None  # sentence-wide cues, read once per sentence
        not_text = _NOT_TEXT.search(t) is not None
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
            if not (data_words or re.match(r"\s*(?:of|worth of)\s+\w", after)):
                continue
            gb = parse_number(m.group("num")) * factor
            ctx.add(s, "dataset_gb", gb, q(m), "stated", m.start())
            if not not_text:
                conv = U.tokens_from_gb(gb)
                # an inference from bytes never beats tokens the user gave (rank below any stated value)
                ctx.add(s, "dataset_tokens", conv.value, f'"{q(m)}": {conv.how}', "inferred", m.start(),
                        estimate=True)  # fmt: skip


_EPOCHS = Gated(
    re.compile(
        rf"(?P<num>{NUMBER})\s*(?:full\s+)?(?:epochs?|eps?|passes(?: over the data)?|pass over the data)\b", I
    ),
    "epoch",
    "pass",
    "eps",
    "ep",
)
# "we'd only make a single pass over it": one epoch
_ONE_PASS = re.compile(r"\b(?:a\s+single|single|just\s+one|only\s+one|one)\s+(?:pass|epoch)\b", I)
_EPOCHS2 = Gated(
    re.compile(rf"(?:\b|_)epochs?\s*(?:[:=]|of|is|are|to)?\s*(?P<num>{NUMBER})\b", I), "epoch"
)  # "epochs: 3", "num_train_epochs=3"
_SEQ = Gated(
    re.compile(
        # (not across a command line's next flag: "--lora-r 32 --seq-len 4096" is no length of 32)
        rf"(?:(?P<num>{NUM})\s*(?P<mult>k)?(?:\s|-(?!-))*(?:tokens?[\s-]+)?(?P<kind>context(?:\s+window"
        rf"|\s+length)?|ctx|"
        rf"sequence(?:\s+length)?s?|seq(?:uence)?[\s_-]?len(?:gth)?|seq\b|token\s+sequences"
        rf"|tokens?\s+per\s+sequence|"
        rf"tokens?\s+of\s+context|max(?:imum)?\s+length))"
        rf"|(?:(?P<kind2>sequence\s+length|seq[\s_-]?len(?:gth)?|context(?:\s+length|\s+window)?"
        # "ctx 4k", "ctx: 8192" (expert review 20, R15); a bare "ctx" only before its figure
        rf"|max(?:imum)?\s+length|max_?seq_?len|(?<=--)max-len(?:gth)?|seq(?=\s*[:=]?\s*\d)|(?<!num_)ctx(?=\s*[:=]?\s*~?\s*\d)|"
        # "sequences of 1024", "sequences of 4,096 tokens" (evals v18): the figure is the length
        rf"sequences?(?=\s+of\s+~?\d[\d,.]*\s*(?:k\b)?\s*(?:tokens?\b|[,.;)]|$))|"
        rf"context\s+of)(?:\s+(?:at|for|during|in)\s+(?:inference|serving|training)"
        # "Context per conversation: 8,192 tokens" (rd12)
        rf"|\s+per\s+(?:conversation|session|chat|request|user|query|call|turn|document|doc))?"
        rf"\s*(?:[:=]|of|is|to|up\s+to)?\s*(?:about\s+|~)?(?P<num2>{NUM})\s*(?P<mult2>k)?)",
        I,
    ),
    "context",
    "seq",
    "length",
    "ctx",
    "token",
)
_SEQ_ITEMS = Gated(
    re.compile(
        rf"(?P<num>{NUM})\s*(?P<mult>k)?-tokens?\s+(?:long\s+)?(?:documents?|examples?|samples?|inputs?"
        rf"|records?|texts?)"
        # "each conversation can be up to 8,000 tokens long": the length one sequence reaches
        rf"|\b(?:each|every|a|one)\s+(?:conversation|chat|session|dialog(?:ue)?|thread|request|exchange)\s+"
        rf"(?:can\s+be|could\s+be|may\s+be|is|runs?|goes|gets|reaches)\s+(?:up\s+to\s+|at\s+most\s+|about\s+"
        rf"|around\s+|roughly\s+|~\s*)?(?P<num2>{NUM})\s*(?P<mult2>k)?\s*tok(?:en)?s?\b",
        I,
    ),
    "-token",
    "conversation", "chat", "session", "dialog", "thread", "request", "exchange",
)  # fmt: skip
_RANK = Gated(
    re.compile(
        r"\b(?:lora[\s-]+)?rank\s*(?:[:=]|of)?\s*(?P<num>\d+)\b|\br\s*=\s*(?P<num2>\d+)\b"
        # "lora16", "LoRA-r 32", "--lora-r 32", "--lora-rank 16" (a command line's flag, evals v18)
        r"|\blora[\s_-]?(?:r(?:ank)?)?[\s_=:-]*(?P<num3>\d+)\b",
        I,
    ),
    "rank",
    "r=",
    "r =",
    "lora",
)
_BATCH = Gated(
    re.compile(
        rf"\b(?:micro[\s-]?)?batch(?:[\s-]?size)?\s*(?:[:=]|of|is)?\s*(?P<num>{NUMBER})\b|"
        rf"\b(?P<num2>{NUMBER})\s+sequences per (?:gpu|batch)"
        r"|\b(?:micro_?|per_device_train_)?(?:m?bs|batch_size)\s*[:=]?\s*(?P<num3>\d+)\b",  # "bs 8", "mbs=4"
        I,
    ),
    "batch",
    "sequences per",
    "bs",
)


@read_once
def rule_training_shape(ctx: Ctx) -> None:
    """epochs, seq_len (context_len when serving), lora_rank, batch_size."""
    inference = ctx.workload == "inference"
    # a finding needs one of these to match
    for s in ctx.sentences_with(_EPOCHS, _EPOCHS2, _ONE_PASS, _SEQ_ITEMS, _SEQ, _RANK, _BATCH):
        t = s.text
        for m in list(_EPOCHS.finditer(t)) + list(_EPOCHS2.finditer(t)):
            if negated(t, m.start()) and "not" in t[max(0, m.start() - 6) : m.start()]:
                continue
            ctx.add(s, "epochs", parse_number(m.group("num")), q(m), "stated", m.start())
        for m in _ONE_PASS.finditer(t):
            ctx.add(s, "epochs", 1.0, q(m), "stated", m.start())
        for m in _SEQ_ITEMS.finditer(t):
            length = context_length(m.group("num") or m.group("num2"), m.group("mult") or m.group("mult2"))
            if 128 <= length <= 10_000_000:
                ctx.add(s, "context_len" if inference else "seq_len", length, q(m), "stated", m.start())
        for m in _SEQ.finditer(t):
            num = m.group("num") or m.group("num2")
            mult = m.group("mult") or m.group("mult2")
            kind = (m.group("kind") or m.group("kind2") or "").lower()
            length = context_length(num, mult)
            if length < 128 or length > 10_000_000:
                continue
            per_sequence = "sequence" in kind or "seq" in kind
            serving_words = re.search(r"\b(?:serv|inferen|users?|requests?)", t, I)
            undecided_context = "context" in kind and not per_sequence and ctx.workload is None
            target = "context_len" if inference or (undecided_context and serving_words) else "seq_len"
            if (
                not inference
                and "context" in kind
                and ctx.workload is None
                and not re.search(r"train|tun|lora", t, I)
            ):
                target = "context_len"
            if s.section is not None:  # a brief's section decides: serving context vs training length
                target = "context_len" if s.section == "serving" else "seq_len"
            ctx.add(s, target, length, q(m), "stated", m.start())
        for m in _RANK.finditer(t):
            num = m.group("num") or m.group("num2") or m.group("num3")
            if num and 1 <= int(num) <= 4096:
                ctx.add(s, "lora_rank", int(num), q(m), "stated", m.start())
        for m in _BATCH.finditer(t):
            num = m.group("num") or m.group("num2") or m.group("num3")
            v = parse_number(num)
            if v >= 1 and v == int(v):
                ctx.add(s, "batch_size", int(v), q(m), "stated", m.start())
