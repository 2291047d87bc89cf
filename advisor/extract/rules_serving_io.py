"""Serving input/output rules: prompt and answer lengths, a batch generation volume, the power price.

- prompt_tokens / output_tokens: "prompts around 500 tokens and answers around 2000 tokens", "2k-token
  prompts", "responses of up to 1k tokens", "generate ~300 tokens per answer". With both, context_len
  is inferred as their sum (the tokens a sequence holds when its answer ends; units_text).
- generation_tokens: a batch generation job, "generate 2 billion tokens with Qwen2.5 72B within a week"
  (one million tokens or more). With a deadline in the same text, target_tokens_per_s is inferred as the
  aggregate rate that meets it (units_text.rate_from_volume).
- target_tokens_per_s from a request rate and the answer length: "sustain 40 req/s with 500-token
  answers", "120 requests per second, responses average 300 tokens", "2,400 requests per minute", "50 QPS"
  (requests/s x output tokens each, inferred); from a token rate per minute or hour ("2M output tokens an
  hour"); and from a batch of items with a per-item output and a deadline ("2M documents, ~400 output
  tokens each, within 3 days": generation_tokens = items x tokens each).
- power_price_usd_per_kwh: "our colo power is $0.10/kWh", "10 cents a kWh", "€0.25 per kWh" (FX as budgets).
"""

from __future__ import annotations

import re

from advisor.extract import units_text as U
from advisor.extract.base import select_findings
from advisor.extract.rules_ctx import Ctx, Gated, I, q
from advisor.extract.rules_languages import (
    TRANSLATE,
    batch_is_inference,
    target_languages,
    translation_volume,
)
from advisor.extract.rules_request_rate import (
    TOKEN_RATE,
    RequestRate,
    rate_target,
    request_rates,
    response_target,
    token_rates,
)
from advisor.extract.rules_text import (
    APPROX,
    GENERATED_FROM_MODEL,
    MULT,
    NUM,
    NUMBER,
    Sentence,
    parse_count,
    parse_number,
    parse_scaled,
)
from advisor.extract.sentence_memo import read_once

_K = r"(?P<mult>k)?"
_FILL = (
    r"(?:(?:are|is|of|at|averag\w*|avg\.?|median|mean|p50|typically|usually|normally|mostly|maybe|probably"
    r"|generally|often|after\s+\w+"
    r"|length|size|len|each|short|long|lengthy|big|large|small|huge|brief|concise|going\s+in|carr(?:y|ies)"
    r"|contains?|includes?|holds?"
    r"|comes?\s+to|lands?\s+(?:near|at|around)|runs?(?:\s+(?:to|about))?|:|=|,"
    # a parenthesis that names the kind before the length: "prompts are long (RAG, ~6k tokens)"
    r"|\((?:[\w-]+\s+){0,2}[\w-]+\s*[,:]|\("
    # a requirement's modal: "Prompts shall be up to 6,000 tokens", "answers will not exceed 500 tokens"
    r"|(?:shall|will|must|should|may|can)\s+(?:be|not\s+exceed|not\s+be\s+(?:longer|more)\s+than)"
    r"|do(?:es)?\s+not\s+exceed"
    # the answer described before its length (evals v10): "answer is just a label so like 5 tokens"
    r"|just|only|an?\s+[\w/-]+\s+so(?:\s+like)?)\s*)*"
)
_PROMPT_NOUN = (
    r"(?:(?:user\s+|input\s+|system\s+)?prompts?|inputs?|input\s+tokens|questions?|queries|query|docs?"
    r"|documents?)"
)
_OUTPUT_NOUN = (
    r"(?:answers?|outputs?|output\s+tokens|responses?|completions?|replies|generations?|gens|summar(?:y|ies)"
    r"|solutions?|(?:reasoning\s+)?traces)"
)
_AFTER_NOUN = (  # a parenthesis may follow the noun: "the prompts (passage plus instructions) are ~700"
    rf"\b@NOUN@(?:\s+\([^()]{{0,60}}\)\s*|,\s*(?:including|incl\.?|with|plus)\s+[^,;()]{{0,50}},\s*|\s+){_FILL}{APPROX}(?P<num>{NUM})(?:\s*(?:-|–|to)\s*(?P<hi>{NUM}))?"
    rf"(?<![\d.,](?=[\d.,]))(?![\d.,]*\s*(?:m|mn|b|bn|million|billion)\b)\s*{_K}\s*(?:\w+\s+)?tok(?:en)?s?\b"
)
_BEFORE_NOUN = (
    rf"(?P<num2>{NUM})\s*(?P<mult2>k)?[\s-]*tok(?:en)?s?\s+(?:of\s+|per\s+|for\s+(?:the\s+|each\s+)?|in\s+(?:the\s+)?)?"
    r"@NOUN@"
)
# "300 prompt tokens", "a 300-token system prompt", "250 output tokens"
_ADJ_TOKENS = (
    r"|(?P<num5>{NUM})\s*(?P<mult5>k)?[\s-]+(?:@ADJ@)[\s-]+tok(?:en)?s?\b"
    r"(?!\s*(?:/|(?:per|a|an|each)\s+(?:s|sec|second|minute|min|hour|hr|day)\b))"  # "5,000 output tokens/s"
).replace("{NUM}", NUM)
_PROMPT = Gated(
    re.compile(
        (_AFTER_NOUN + "|" + _BEFORE_NOUN).replace("@NOUN@", _PROMPT_NOUN)
        + _ADJ_TOKENS.replace("@ADJ@", r"prompt|input|system[\s-]prompt")
        + r"|(?P<num6>" + NUM + r")\s*(?P<mult6>k)?[\s-]*tok(?:en)?s?[\s-]+(?:system[\s-]+)?prompts?\b"
        # "each request sends ~1,500 tokens of surrounding code"
        + r"|\beach\s+(?:request|call|query|turn)\s+(?:sends?|carries|has)\s+" + APPROX
        + r"(?P<num9>" + NUM + r")\s*(?P<mult9>k)?\s*tok(?:en)?s?\b"
        # "~2,500 tokens going in", "each review is ~300 tokens in, and ..."
        + r"|(?P<num7>" + NUM + r")\s*(?P<mult7>k)?[\s-]*tok(?:en)?s?\s+(?:going\s+)?in\b"
        + r"(?=\s*(?:[,;.)]|$|and\b))",
        I,
    ),
    "prompt", "input", "question", "quer", "going in", "tokens in", "doc", "sends", "carries",
)  # fmt: skip
_OUTPUT = Gated(
    re.compile(
        (_AFTER_NOUN + "|" + _BEFORE_NOUN).replace("@NOUN@", _OUTPUT_NOUN)
        + rf"|\bgenerat(?:e|es|ing)\s+{APPROX}(?P<num3>{NUM})\s*(?P<mult3>k)?\s*tokens?\s+"
        r"(?:per|each|for\s+each|a)\s+(?:answer|response|request|reply|query|question|call)\b"
        rf"|\bmax_?(?:new_)?tokens\s*[:=]?\s*(?P<num4>{NUM})\b"
        # "the label comes back as a small JSON blob, ~30 tokens"
        rf"|\bcomes?\s+back\s+(?:as\s+)?(?:[\w-]+[\s,(]+){{0,5}}?{APPROX}(?P<num8>{NUM})\s*tok(?:en)?s?\b"
        + _ADJ_TOKENS.replace("@ADJ@", r"output|completion|generated|response|answer")
        # "output is a single label": a class name, a few tokens (SINGLE_LABEL_TOKENS)
        + r"|\boutput\s+(?:is|=|:)\s+(?:just\s+)?(?:a\s+|one\s+)?(?P<single>single|one)\s+"
        + r"(?:label|class|category|word|token)"
        # "a ~150-token abstract", "one 40-token label": the output named by what it is
        + r"|(?P<num10>" + NUM + r")\s*(?P<mult10>k)?-tok(?:en)?\s+(?:abstract|summary|answer|reply|response"
        + r"|description|label|caption|title|rationale|translation)s?\b"
        # "about 300 tokens out each" (not "4B tokens out of Llama 3.1 405B", a volume)
        + r"|(?P<num11>" + NUM + r")\s*(?P<mult11>k)?[\s-]*tok(?:en)?s?\s+(?:of\s+[\w-]+\s+)?out\b"
        + r"(?!\s+of\b(?!\s+(?:it|them|each|every)\b))"
        # the output described before its length: "the output is just a small JSON with 3 fields, ~25 tokens"
        + r"|\b(?:output|answer|response|reply|completion)s?\s+(?:is|are|will\s+be)\b[^.;]{0,50}?,\s*"
        + APPROX + r"(?P<num12>" + NUM + r")\s*(?P<mult12>k)?\s*tok(?:en)?s?\b",
        I,
    ),
    "answer", "output", "respons", "complet", "repl", "generat", "max", "summar", "back", "-token", "out",
    "trace",
)  # fmt: skip
# an answer length with no unit, beside a prompt length in tokens: "prompts ~2k tokens, answers ~300",
# "average prompt 3k tokens and average output 800"
_BARE_OUTPUT = re.compile(
    rf"\b{_OUTPUT_NOUN}\s+{_FILL}{APPROX}(?P<num>{NUM})\s*(?P<mult>k)?\b"
    r"(?!\s*(?:%|ms|s\b|secs?|seconds?|minutes?|users?|requests?|per\b|/|x\b|gb|words?|chars?|characters?"
    r"|lines?|pages?|sentences?|items?))"
    # the number before the noun: "avg 800 tokens prompt, 250 completion"
    rf"|(?<![\w.,])(?P<num2>{NUM})\s*(?P<mult2>k)?\s+(?:of\s+(?:the\s+)?)?(?:output|completion|answer|response|reply"
    r"|generation)s?\b"
    r"(?!\s+(?:tokens?|words?|chars?|characters?|per\b|/|a\s+(?:day|month|week)))",
    I,
)
_GENERATION = Gated(
    re.compile(
        rf"\b(?:generat(?:e|es|ing|ion\s+of)|produc(?:e|es|ing)|synthesi[sz](?:e|es|ing)|emit(?:s|ting)?|output(?:ting)?)\s+"
        rf"(?:(?:about|around|roughly|some|~|approximately|at\s+least|over)\s*)?(?P<num>{NUMBER})\s*"
        rf"(?P<mult>{MULT})?\s*(?:(?:output|synthetic|new|generated)\s+)?tokens?\b"
        # "80M output tokens in total"; "4B tokens out of Llama 3.1 405B" (a volume of 1M+ only, below)
        rf"|(?P<num2>{NUMBER})\s*(?P<mult2>{MULT})?\s*(?:output|generated|synthetic)\s+tokens?\b"
        r"(?!\s*(?:a|an|per|/|each|every)\s*(?:day|hour|week|month|minute|second|sec|s)\b)"
        rf"|(?P<num3>{NUMBER})\s*(?P<mult3>{MULT})?\s*tokens?\s+{GENERATED_FROM_MODEL}",
        I,
    ),
    "generat", "produc", "synthesi", "emit", "output", "out of",
)  # fmt: skip
# "~1k tokens in, 250 out", "2k in / 300 out", "1k in 300 out": a prompt and an answer length in one breath
_IN_OUT = Gated(
    re.compile(
        rf"{APPROX}(?P<inp>{NUM})\s*(?P<imult>k)?\s*(?:tok(?:en)?s?\s+)?in\s*(?:[,/;&+]|and|(?=\s))\s*{APPROX}"
        rf"(?P<out>{NUM})\s*(?P<omult>k)?\s*(?:tok(?:en)?s?\s+)?out\b(?!\s+of)",
        I,
    ),
    " in",
)
_POWER = Gated(
    re.compile(
        rf"(?P<sym>us\$|\$|€|£)?\s*(?P<num>{NUM})\s*(?P<cents>cents?|ct|¢|pence|p(?=\s*(?:/|per\b|an?\s)))?\s*"
        rf"(?P<word>usd|dollars?|eur|euros?|gbp|pounds?|chf|€|\$|£)?\s*(?:/|per|an?|each)\s*"
        r"(?:kwh|kilowatt[\s-]?hours?)\b",
        I,
    ),
    "kwh", "kilowatt",
)  # fmt: skip
_CURRENCY = {"$": "USD", "us$": "USD", "€": "EUR", "£": "GBP", "usd": "USD", "dollar": "USD",
             "eur": "EUR", "euro": "EUR", "gbp": "GBP", "pound": "GBP", "chf": "CHF", "pence": "GBP",
             "p": "GBP"}  # fmt: skip
_ITEMS = Gated(
    re.compile(
        rf"(?P<num>{NUMBER})\s*(?P<mult>{MULT})?\s*(?:[a-z][\w-]*\s+){{0,2}}?(?P<item>documents|docs|items|records|rows|prompts"
        r"|requests|samples|examples|pages|tickets|e-?mails|articles|products|descriptions|summaries|questions"
        r"|reviews|transcripts|calls|files|reports|passages|chunks|paragraphs|abstracts|papers|posts|comments"
        # what else teams count in a batch (evals v10): "600k pairs", "5M dialogues", "1.5M product titles"
        r"|messages|conversations|chats|listings|contracts|invoices|problems|solutions|tasks|pairs|dialog(?:ue)?s"
        r"|titles|headlines|captions|queries|snippets|outputs|completions|generations|responses|answers|replies"
        # a counted thing whose size follows it: "1.2M blurbs (~70 tokens each)", "20M outputs of ~500 tokens"
        r"|[a-z]{3,}s(?=\s*[(,]?\s*(?:of\s+)?(?:~|≈|about\s+|around\s+|roughly\s+)?\d[\d,.]*\s*k?\s*(?:output\s+)?"
        r"tok(?:en)?s?\s+(?:each|apiece|per\b)))\b",
        I,
    ),
    "tok", "doc", "item", "record", "row", "prompt", "request", "sample", "example", "page", "ticket", "mail",
    "article", "product", "descript", "summar", "question", "review", "transcript", "call", "file", "report",
    "passage", "chunk", "paragraph", "abstract", "paper", "post", "comment", "message", "conversation",
    "chat", "listing", "contract", "invoice", "problem", "solution", "task", "pair", "dialog", "title",
    "headline", "caption", "quer", "snippet",
)  # fmt: skip
_EACH_OUTPUT = re.compile(
    rf"\beach\s+(?:one\s+|reply\s+|answer\s+|output\s+)?(?:is\s+|of\s+|gets\s+|around\s+|~\s*)?(?:about\s+)?"
    rf"(?P<num2>{NUM})\s*(?P<mult2>k)?[\s-]*(?:output\s+)?tokens?\b|"
    rf"{APPROX}(?P<num>{NUM})\s*(?P<mult>k)?[\s-]*(?:output\s+|generated\s+|new\s+)?tokens?\s+(?:of\s+output\s+)?"
    r"(?:each|apiece|per\s+(?!(?:s|sec|second|minute|min|hour|hr|day|week|month|gpu|node)\b)[a-z][\w-]*)\b"
    rf"|(?P<num3>{NUM})\s*(?P<mult3>k)?-tok(?:en)?s?\s+(?:replies|responses|answers|outputs|summaries|drafts"
    r"|completions|generations|e-?mails|messages|descriptions)\b"
    # the output named by what it is: "a translated document comes to about 1,100 tokens"
    rf"|\b(?:an?|each)\s+(?:translated|generated|written|rewritten)\s+[a-z]+\s+(?:comes?\s+to|is|runs?\s+to)\s+"
    rf"{APPROX}(?P<num4>{NUM})\s*(?P<mult4>k)?\s*tok(?:en)?s?\b",
    I,
)
_GENERATES = re.compile(
    r"\bbatch\b|\b(?:output|generat|summar|produc|writ|rewrit|translat|label|classif|extract|personali[sz]|draft|repl"
    r"|respond|answer|caption|tag|scor)\w*",
    I,
)
_GENERATION_GROUPS = (("num", "mult"), ("num2", "mult2"), ("num3", "mult3"))
_MIN_GENERATION_TOKENS = 1e6
SINGLE_LABEL_TOKENS = 3
"""Tokens of an output that is 'a single label': a class name with the end-of-sequence token (1-3 BPE
tokens for a word, e.g. 'positive', 'billing'; the upper end, as a range gives its upper end)."""
_MIN_BATCH_ITEMS = 1000  # fewer items are a test run, not a batch volume
_JOB_WORDS = re.compile(
    r"\b(?:job|batch|offline|one[- ]off|eval\w*|benchmark\w*|backfill|synthetic|classif\w*|label\w*"
    # a verb done to a counted set of items: "score 40k documents", "caption 2M images"
    r"|scor(?:e|ing)|grad(?:e|ing)|judg(?:e|ing)|tag(?:ging)?|caption(?:ing)?|summari[sz](?:e|ing)"
    r"|translat(?:e|ing))\b",
    I,
)
_PER_PERIOD = re.compile(  # "2M documents a month", "40,000 reviews come in per day"
    r"(?:\s+(?:come|comes|coming|arrive|arrives|arriving|get|gets|are|is)(?:\s+(?:in|submitted|posted|created"
    r"|written|uploaded|filed|added))?)?"
    r"\s*(?:a|an|per|/|each|every)\s*(?P<unit>s|sec|second|min|minute|h|hr|hour|day|week|month)\b",
    I,
)
# an item's own length right after it: "40 million reviews (~120 tokens each", "50k docs of ~2k tokens"
_ITEM_SIZE = re.compile(
    rf"\s*(?:\(\s*|,\s*|of\s+)?(?:avg\.?\s+|average\s+|on\s+average\s+)?{APPROX}(?P<num>{NUM})\s*(?P<mult>k)?\s*"
    rf"tok(?:en)?s?\b(?:\s+(?:each|apiece|long))?",
    I,
)
# items of any kind a job reads or writes, named after its verb: "classify 20M short tweets", "embed
# 3 million chunks", "translate 400k listings"
_VERB_ITEMS = re.compile(
    rf"\b(?:classify|label|tag|score|summari[sz]e|translate|embed|moderate|rate|rank|filter|triage|caption"
    rf"|rewrite|annotate|process|grade|generate|write|draft|produce|create)\s+(?:all\s+)?(?:the\s+|our\s+|about\s+"
    rf"|around\s+|~\s*)?"
    rf"(?P<num>{NUMBER})\s*(?P<mult>{MULT})?\s+(?:[a-z-]+\s+){{0,2}}?(?P<item>[a-z]{{3,}}s)\b",
    I,
)
_OUTPUT_BEFORE = re.compile(rf"\b{_OUTPUT_NOUN}\s+(?:is|are|of|=|:)?\s*(?:about|around|roughly|~)?\s*$", I)
_SAYS_OUTPUT = re.compile(r"output|generat|answer|repl|response", I)
# a job that reads its items (their length is the prompt), as opposed to one that writes them
_READS_ITEMS = re.compile(
    r"\b(?:classif|label|tag|scor|extract|summari[sz]|moderat|screen|filter|rank|rout|detect|triag|categori[sz]"
    r"|grad|judg|review|evaluat|embed|translat)\w*",
    I,
)  # below: a per-request length, not a batch volume
_MAX_REQUEST_TOKENS = 2_000_000  # above: not a prompt or answer length


def _length(m: re.Match[str]) -> int | None:
    """The length a match states, tokens; a range ("output is 1-5 tokens") gives its upper end."""
    if "single" in m.re.groupindex and m.group("single"):
        return SINGLE_LABEL_TOKENS
    if "hi" in m.re.groupindex and m.group("hi"):
        value = (parse_count(m.group("hi")) if not m.group("mult") else parse_number(m.group("hi"))) * (
            1000 if m.group("mult") else 1
        )
        return int(value) if 1 <= value <= _MAX_REQUEST_TOKENS else None
    for n, k in (("num", "mult"), ("num2", "mult2"), ("num3", "mult3"), ("num4", None), ("num5", "mult5"),
                 ("num6", "mult6"), ("num7", "mult7"), ("num8", None), ("num9", "mult9"),
                 ("num10", "mult10"), ("num11", "mult11"), ("num12", "mult12")):  # fmt: skip
        if n in m.re.groupindex and m.group(n):
            mult = m.group(k) if k else None
            value = (parse_count(m.group(n)) if not mult else parse_number(m.group(n))) * (
                1000 if mult else 1
            )
            return int(value) if 1 <= value <= _MAX_REQUEST_TOKENS else None
    return None


def rule_serving_io(ctx: Ctx) -> None:
    """prompt_tokens, output_tokens (context_len from both), generation_tokens (target rate with a
    deadline; from a request rate), power_price_usd_per_kwh."""
    _serving_io_sentences(ctx)
    _items_batch(ctx)
    _items_times_lengths(ctx)
    translation_volume(ctx)
    _derived(ctx, request_rates(ctx))


@read_once
def _serving_io_sentences(ctx: Ctx) -> None:
    """rule_serving_io's reading of each sentence."""
    # each step of the loop needs one of these to match
    for s in ctx.sentences_with(_PROMPT, _OUTPUT, _IN_OUT, _GENERATION, TOKEN_RATE, _POWER):
        t = s.text
        lengths: set[str] = set()
        for field, rx in (("prompt_tokens", _PROMPT), ("output_tokens", _OUTPUT)):
            for m in rx.finditer(t):
                n = _length(m)
                if field == "prompt_tokens" and _OUTPUT_BEFORE.search(t, max(0, m.start() - 30), m.start()):
                    continue  # "output is ~5 tokens per doc": the answer's length, per item read
                if n is not None:
                    if "single" in m.re.groupindex and m.group("single"):  # an assumed length, said so
                        ctx.add(s, field, n, f'"{q(m)}" read as ~{n} tokens (a class name)', "inferred",
                                m.start())  # fmt: skip
                    else:
                        ctx.add(s, field, n, q(m), "stated", m.start())
                    lengths.add(field)
        if lengths == {"prompt_tokens"} and (bare := _BARE_OUTPUT.search(t)):
            n = _length(bare)  # "prompts ~2k tokens, answers ~300": the prompt's unit carries over
            if n is not None:
                ctx.add(s, "output_tokens", n, f'"{q(bare)}" (tokens, as the prompt beside it)', "inferred",
                        bare.start())  # fmt: skip
        for m in _IN_OUT.finditer(t):
            for field, num, mult in (("prompt_tokens", "inp", "imult"), ("output_tokens", "out", "omult")):
                length = (parse_count(m.group(num)) if not m.group(mult) else parse_number(m.group(num))) * (
                    1000 if m.group(mult) else 1
                )
                if 1 <= length <= _MAX_REQUEST_TOKENS:
                    ctx.add(s, field, int(length), q(m), "stated", m.start(num))
        for m in _GENERATION.finditer(t):
            num, mult = next((m.group(n), m.group(k)) for n, k in _GENERATION_GROUPS if m.group(n))
            value = parse_scaled(num, mult)
            if value >= _MIN_GENERATION_TOKENS:
                ctx.add(s, "generation_tokens", value, q(m), "stated", m.start())
        token_rates(ctx, s)
        for m in _POWER.finditer(t):
            cur = _currency(m)
            conv = U.usd_per_kwh_from(parse_number(m.group("num")), cur, bool(m.group("cents")))
            if 0 < conv.value < 5:  # a price per kWh, not a monthly bill
                status = "stated" if cur == "USD" and not m.group("cents") else "inferred"
                ev = q(m) if status == "stated" else f'"{q(m)}": {conv.how}'
                ctx.add(s, "power_price_usd_per_kwh", conv.value, ev, status, m.start())


def _items_batch(ctx: Ctx) -> None:
    """generation_tokens from a batch of items and the output each gets ("2M documents, ~400 output
    tokens each"; "Draft 10M emails. Each one is about 150 tokens."), only for an inference job that
    writes something (not a training set's size). The count and the size per item are looked for in one
    sentence first, then in a sentence that writes the items and the next one."""
    if ctx.workload not in ("inference", None) or not any(_GENERATES.search(s.text) for s in ctx.sentences):
        return
    pairs: list[tuple[Sentence, Sentence]] = [(s, s) for s in ctx.sentences]
    pairs += list(zip(ctx.sentences, ctx.sentences[1:], strict=False))
    for s, nxt in pairs:
        if _items_pair(ctx, s, nxt):
            return


def _items_times_lengths(ctx: Ctx) -> None:
    """A batch of items with the lengths stated apart ("2M prompts, ~300 tokens in / 600 tokens out each",
    "40 million reviews (~120 tokens each, output is 1-5 tokens) ... over the weekend"): generation_tokens
    = items x the output length read elsewhere, for a job (a deadline or a job word; not "N a day"). An
    item's own length is its prompt when the job reads the items (classify, label, summarise, score)."""
    if ctx.workload not in ("inference", None) or any(f.field == "generation_tokens" for f in ctx.findings):
        return
    job = any(f.field == "deadline_hours" for f in ctx.findings) or any(
        _JOB_WORDS.search(s.text) for s in ctx.sentences
    )
    for s in ctx.sentences:
        for m in [*_ITEMS.finditer(s.text), *_VERB_ITEMS.finditer(s.text)]:
            after = s.text[m.end() : m.end() + 60]
            if (per := _PER_PERIOD.match(after)) is not None:
                _items_rate(ctx, s, m, per)  # "2M new documents a month, ~150-token abstract each"
                continue
            if not job:
                continue
            count = parse_scaled(*m.group("num", "mult")) if m.group("mult") else parse_count(m.group("num"))
            if count < _MIN_BATCH_ITEMS:
                continue
            size = _ITEM_SIZE.match(after)
            if size is not None and _READS_ITEMS.search(s.text) and not _found(ctx, "prompt_tokens"):
                n = int(parse_number(size.group("num")) * (1000 if size.group("mult") else 1))
                if 1 <= n <= _MAX_REQUEST_TOKENS:
                    ctx.add(s, "prompt_tokens", n, f'"{q(size)}": the length of each item the job reads',
                            "inferred", m.end() + size.start())  # fmt: skip
            out = select_findings(f for f in ctx.findings if f.field == "output_tokens").get("output_tokens")
            if out is None:
                continue
            times = _repeats(ctx)
            total = count * float(out.value) * (times[0] if times else 1)
            if total >= _MIN_GENERATION_TOKENS:
                over = f' x "{times[1]}"' if times else ""
                ev = f'"{q(m)}" x "{out.evidence}"{over} = {total:,.0f} output tokens'
                ctx.add(s, "generation_tokens", total, ev, "inferred", m.start())
                batch_is_inference(ctx, s, m.start())
                return


def _items_rate(ctx: Ctx, s: Sentence, m: re.Match[str], per: re.Match[str]) -> None:
    """Items arriving per period with an output length each: the steady output rate they need."""
    out = select_findings(f for f in ctx.findings if f.field == "output_tokens").get("output_tokens")
    if out is None or _found(ctx, "target_tokens_per_s") or m.group("item").lower() in _RATE_ITEMS:
        return  # "120 requests per second": a request rate, read by _request_rates
    period = _PERIOD_UNITS.get(per.group("unit").lower()[:3])
    if period is None:  # items a second or a minute are a request rate
        return
    count = parse_scaled(*m.group("num", "mult")) if m.group("mult") else parse_count(m.group("num"))
    conv = U.rate_from_volume(count * float(out.value), U.hours_from(1.0, period).value)
    ev = f'"{q(m)} {q(per)}" x "{out.evidence}": {conv.how}'
    ctx.add(s, "target_tokens_per_s", conv.value, ev, "inferred", m.start())
    if ctx.workload is None:  # a steady stream of outputs is served, not trained on
        ctx.add(s, "workload", "inference", f'"{q(m)} {q(per)}" with an output each -> serving', "inferred",
                m.start())  # fmt: skip
        ctx.workload = "inference"


_RATE_ITEMS = frozenset({"requests", "calls", "prompts", "queries"})
_PERIOD_UNITS = {"h": "hour", "hr": "hour", "hou": "hour", "day": "day", "wee": "week", "mon": "month"}


def _repeats(ctx: Ctx) -> tuple[int, str] | None:
    """How many times an eval set is run or each item sampled, when the text says so: "against 30
    checkpoints", "for each of the 12 models", "8 completions per prompt" (count, the words); None
    otherwise."""
    for s in ctx.sentences:
        if m := _REPEATS.search(s.text):
            n = int(parse_number(m.group("num") or m.group("num2") or m.group("num3")))
            if 1 < n <= _MAX_REPEATS:
                return n, q(m)
    return None


_REPEATS = re.compile(
    rf"(?:\b(?:against|on|for|across|over)\s+(?:each\s+of\s+)?(?:the\s+|all\s+)?|(?:\bx|×|\btimes)\s*)"
    rf"(?P<num>{NUMBER})\s+"
    r"(?:\w+\s+)?(?:checkpoints|model\s+variants|variants|seeds|(?:candidate\s+|different\s+)?models)\b"
    # several outputs for each input: "sampling 8 completions per prompt", "2 versions per ticket" (rd15)
    rf"|\b(?P<num2>{NUMBER})\s+(?:\w+\s+)?(?:completions|samples|generations|candidates|responses|answers|rollouts"
    r"|outputs|rewrites|variants|versions)\s+(?:per|for\s+each|for\s+every|each|a)\s+(?!(?:day|week|month|night)\b)\w+\b"
    # "for each one Qwen3 writes 25 question/answer pairs", "for each of 120k reviews we want 3 rewrites"
    rf"|\bfor\s+each\s+(?:one|of\s+them|\w+)\b[^;!?]{{0,40}}?\b(?:writes?|generates?|produces?|gets?|creates?|want"
    rf"|need)\s+(?P<num3>{NUMBER})\s+(?:[\w/-]+\s+){{0,2}}?(?:pairs|questions|answers|samples|completions|variants"
    r"|examples|rewrites|versions|paraphrases|outputs)\b",
    I,
)
_MAX_REPEATS = 1000


def _found(ctx: Ctx, field: str) -> bool:
    return any(f.field == field for f in ctx.findings)


# "each around 500 tokens in and 300 tokens out": a figure marked as input is the prompt, not the output
_INPUT_AFTER = re.compile(r"\s*(?:in\b|input\b|of\s+input\b|of\s+prompt\b|prompt\b|going\s+in\b)", I)


def _items_pair(ctx: Ctx, s: Sentence, nxt: Sentence) -> bool:
    """Whether items in `s` with their output each in `nxt` (this or the next sentence) gave a volume."""
    t, n = s.text, nxt.text
    each = next((e for e in _EACH_OUTPUT.finditer(n) if not _INPUT_AFTER.match(n, e.end())), None)
    if each is None:
        return False
    said = select_findings(f for f in ctx.findings if f.field == "output_tokens").get("output_tokens")
    if said is not None and not _SAYS_OUTPUT.search(each.group(0)) and _READS_ITEMS.search(t):
        return False  # "summarise 18k calls, transcript ~4k tokens each, summary ~200": read, not written
    for m in _ITEMS.finditer(t):
        if nxt is s and m.start() <= each.start() <= m.end():
            continue
        if m.group("item").lower() in _RATE_ITEMS and _PER_PERIOD.match(t, m.end()):
            continue  # "2M requests per month": a steady request rate (_request_rates), not one batch
        attached = _ITEM_SIZE.match(t, m.end()) if nxt is s else None
        if (
            attached is not None
            and attached.end() >= each.start()
            and _READS_ITEMS.search(t)
            and not _SAYS_OUTPUT.search(each.group(0))
            and not TRANSLATE.search(t)  # a translation writes about as much as it reads
        ):
            continue  # "classify 40M reviews (~120 tokens each": the items' own length, a prompt
        count = parse_scaled(*m.group("num", "mult")) if m.group("mult") else parse_count(m.group("num"))
        key = next(k for k in ("", "2", "3", "4") if each.group("num" + k))
        num, mult = each.group("num" + key), each.group("mult" + key)
        tokens_each = parse_number(num) * 1000 if mult else parse_count(num)
        languages = target_languages(ctx)
        times = _repeats(ctx)  # "8 completions per prompt", "for each one ... writes 25 pairs"
        total = count * tokens_each * max(1, len(languages)) * (times[0] if times else 1)
        if total >= _MIN_GENERATION_TOKENS:
            into = f" x {len(languages)} languages ({', '.join(languages)})" if len(languages) > 1 else ""
            into += f' x "{times[1]}"' if times else ""
            ev = f'"{q(m)}" x "{q(each)}"{into} = {total:,.0f} output tokens'
            ctx.add(s, "generation_tokens", total, ev, "inferred", m.start())
            batch_is_inference(ctx, s, m.start())
            if 1 <= tokens_each <= _MAX_REQUEST_TOKENS:  # the answer each item gets is the output length
                ctx.add(nxt, "output_tokens", int(tokens_each), q(each), "stated", each.start())
            return True
    return False


def _currency(m: re.Match[str]) -> str:
    for key in (m.group("sym"), m.group("word"), m.group("cents")):
        if key:
            k = key.strip().lower().rstrip("s")
            if k in _CURRENCY:
                return _CURRENCY[k]
    return "USD"


def _derived(ctx: Ctx, rates: list[RequestRate]) -> None:
    """context_len from prompt + output; target_tokens_per_s from a generation volume and a deadline, or
    from a request rate and the answer length."""
    best = select_findings(
        f for f in ctx.findings if f.field in ("prompt_tokens", "output_tokens", "generation_tokens",
                                               "deadline_hours")
    )  # fmt: skip
    prompt, output = best.get("prompt_tokens"), best.get("output_tokens")
    anchor = ctx.sentences[0]
    if prompt is not None and output is not None:
        conv = U.context_from_prompt_output(float(prompt.value), float(output.value))
        ev = f'"{prompt.evidence}" + "{output.evidence}": {conv.how}'
        rank = max(prompt.position, output.position)
        ctx.add(anchor, "context_len", int(conv.value), ev, "inferred", rank=rank)
    response_target(ctx, output)  # a whole answer's latency (rules_request_rate)
    gen, deadline = best.get("generation_tokens"), best.get("deadline_hours")
    if gen is not None and deadline is not None:
        conv = U.rate_from_volume(float(gen.value), float(deadline.value))
        ev = f'"{gen.evidence}" by the deadline: {conv.how}'
        ctx.add(anchor, "target_tokens_per_s", conv.value, ev, "inferred", rank=gen.position)
    rate_target(ctx, rates, output)  # after the token rates and the deadline rate, which win
