"""Translation jobs: the languages a translation writes, and a corpus to translate read as a batch volume
(one full output per target language)."""

from __future__ import annotations

import re

from advisor.extract.base import select_findings
from advisor.extract.rules_ctx import Ctx, I, q
from advisor.extract.rules_text import MULT, NUMBER, Sentence, parse_number, parse_scaled

TRANSLATE = re.compile(r"\b(?:translat\w*|locali[sz]\w*)", I)
_LANGUAGES = (
    r"English|German|French|Spanish|Italian|Portuguese|Dutch|Polish|Japanese|Chinese|Korean|Arabic|Russian"
    r"|Turkish|Swedish|Norwegian|Danish|Finnish|Czech|Greek|Hindi|Ukrainian|Romanian|Hungarian|Vietnamese|Thai"
)
_N_LANGUAGES = re.compile(
    rf"\b(?:into|in|to|for)\s+(?P<num>{NUMBER})\s+(?:other\s+|target\s+|more\s+|different\s+)?languages\b",
    I,
)
_MAX_LANGUAGES = 50
_LANGUAGE = re.compile(rf"\b(?:{_LANGUAGES})\b")
_SOURCE_LANGUAGE = re.compile(
    rf"\b(?:from\s+(?P<lang>{_LANGUAGES})|(?P<lang2>{_LANGUAGES})(?:\s+(?:source|original)|-language))\b"
)


def target_languages(ctx: Ctx) -> list[str]:
    """The languages a translation job writes ("into German, French and Spanish", "targets are German and
    French"): each is a full output; the source language ("English source", "from English") is not."""
    text = " ".join(s.text for s in ctx.sentences)
    if not TRANSLATE.search(text):
        return []
    if (n := _N_LANGUAGES.search(text)) is not None:  # "into 5 languages (DE, FR, ES, IT, NL)"
        count = int(parse_number(n.group("num")))
        if 1 < count <= _MAX_LANGUAGES:
            return [f"language {i + 1}" for i in range(count)]
    sources = {(m.group("lang") or m.group("lang2")).lower() for m in _SOURCE_LANGUAGE.finditer(text)}
    seen: list[str] = []
    for m in _LANGUAGE.finditer(text):
        name = m.group(0).lower()
        if name not in sources and name not in seen:
            seen.append(name)
    return [n.capitalize() for n in seen]


def translation_volume(ctx: Ctx) -> None:
    """A corpus to translate ("translate our catalogue (40M words) into 5 languages"): the text read as a
    data set is the input, and each target language gets about as much output (generation_tokens =
    tokens x languages); not when the text trains a model on it."""
    if ctx.workload not in ("inference", None) or any(f.field == "generation_tokens" for f in ctx.findings):
        return
    text = " ".join(s.text for s in ctx.sentences)
    if not TRANSLATE.search(text) or _TRAINS_ON.search(text):
        return
    data = select_findings(f for f in ctx.findings if f.field == "dataset_tokens").get("dataset_tokens")
    if data is None:
        _items_to_translate(ctx)
        return
    languages = max(1, len(target_languages(ctx)))
    total = float(data.value) * languages
    s = next((x for x in ctx.sentences if x.start <= data.position < x.start + len(x.text)), ctx.sentences[0])
    ev = f'"{data.evidence}" to translate x {languages} language(s) = {total:,.0f} output tokens'
    # ctx.add takes the offset inside the sentence; the data finding's position is the text's
    ctx.add(s, "generation_tokens", total, ev, "inferred", data.position - s.start)
    batch_is_inference(ctx, s, data.position - s.start)


_TRAINS_ON = re.compile(r"\b(?:fine[\s-]?tun\w*|finetun\w*|train\w*|lora|qlora|sft)\b", I)


def batch_is_inference(ctx: Ctx, s: Sentence, position: int) -> None:
    """A batch volume read with no workload word ("Translate 1.2M descriptions ..."): a model runs it."""
    if ctx.workload is None:
        ctx.add(
            s, "workload", "inference", "a batch of outputs to generate -> inference", "inferred", position
        )
        ctx.workload = "inference"


# items counted where the translation is asked, their length said apart (rd15): "translate half a million
# support articles into German ... The articles average eight hundred tokens"
_ITEM_COUNT = re.compile(
    rf"(?P<num>{NUMBER})\s*(?P<mult>{MULT})?\s+(?:[a-z][\w-]*\s+){{0,2}}?(?P<item>[a-z]{{3,}}s)\b", I
)
_ITEM_LENGTH = re.compile(
    r"\b(?:they|each(?:\s+one)?|(?:the|these|those|our)\s+(?:[a-z][\w-]*\s+)?(?P<item>[a-z]{3,}s))\s+(?:average"
    r"|averages|are|run|come\s+to|have)\s+(?:on\s+average\s+|about\s+|around\s+|roughly\s+|~\s*)?"
    rf"(?P<num>{NUMBER})\s*(?P<mult>k)?\s+tokens?\b",
    I,
)
_MIN_ITEMS = 100  # fewer is not a batch to size


def _items_to_translate(ctx: Ctx) -> None:
    """generation_tokens = items x their length x languages, each item's length its prompt and its output
    (a translation is about as long as its source)."""
    length = next((m for s in ctx.sentences for m in _ITEM_LENGTH.finditer(s.text)), None)
    if length is None:
        return
    item = (length.group("item") or "").lower()
    for s in ctx.sentences:
        if not TRANSLATE.search(s.text):
            continue
        for m in _ITEM_COUNT.finditer(s.text):
            count = parse_scaled(m.group("num"), m.group("mult"))
            if count < _MIN_ITEMS or (item and m.group("item").lower() != item):
                continue
            tokens = int(parse_number(length.group("num")) * (1000 if length.group("mult") else 1))
            languages = max(1, len(target_languages(ctx)))
            total = count * tokens * languages
            ev = f'"{q(m)}" x "{q(length)}" x {languages} language(s) = {total:,.0f} output tokens'
            for field in ("prompt_tokens", "output_tokens"):
                if not any(f.field == field for f in ctx.findings):
                    ctx.add(s, field, tokens, f'"{q(length)}": each item, and its translation', "inferred",
                            m.start())  # fmt: skip
            ctx.add(s, "generation_tokens", total, ev, "inferred", m.start())
            batch_is_inference(ctx, s, m.start())
            return
