"""A forward-pass-only batch job read as batch inference (expert review 13, R15): "embed 200M documents
with a 7B embedding model (avg 512 tokens each) in one week", "compute embeddings for 3M passages",
"rerank 5M query-document pairs", "score 40M reviews with a reward model", "classify 20M tweets", "run a 7B
model forward pass only over 102B input tokens". Such a job reads every item once and generates nothing;
it was sized as LoRA fine-tuning on the items' tokens.

- rule_forward_only_workload (after rule_workload, before the data rules): workload inference, so the
  items' tokens are not read as a training set. Not when the text trains (a training workload read, or a
  training word: "fine-tune a 7B embedding model on 2M pairs" is training).
- rule_forward_only_output (after the length rules, before rule_serving_io): one output token per item
  (tools.forward_only.FORWARD_ONLY_OUTPUT_TOKENS) unless an output length was said ("classify ... and
  write a 100-token reason"); rule_serving_io then reads items x 1 as the job's volume.
- rule_forward_only_total (after rule_serving_io): a job given as a total of input tokens ("over 102B input
  tokens"), no items counted: the items are the total over each item's length (stated, else the serving
  default prompt length, tools.compute.serving_constants.PROMPT_TOKENS_DEFAULT).
"""

from __future__ import annotations

import re

from advisor.extract.regex_keys import keyed
from advisor.extract.rules_ctx import Ctx, I, q
from advisor.extract.rules_text import MULT, NUMBER, Sentence, parse_scaled
from tools.compute.serving_constants import PROMPT_TOKENS_DEFAULT
from tools.forward_only import FORWARD_ONLY_OUTPUT_TOKENS, items_for_tokens

_TRAINING = ("fine_tuning", "continual_pretraining", "pretraining")
# a job that reads items and writes no text: the verb done to them, or the forward pass said outright
_FORWARD = keyed(
    r"\b(?:embed|embedding(?!\s+models?\b)|encode|encoding(?!\s+models?\b)|vectori[sz]e|vectori[sz]ing"
    r"|re-?rank|re-?ranking(?!\s+models?\b)|classify|classifying|scor(?:e|ing)\s+(?:all\s+|the\s+|our\s+|~\s*)?\d)"
    r"\b(?!\s+(?:model|models)\b)"
    r"|\b(?:compute|computing|generate|generating|create|creating|produce|producing|get|build|building)\s+"
    r"(?:\w+\s+)?(?:embeddings|vectors|scores)\s+(?:for|of)\b"
    r"|\bforward[\s-]pass(?:es)?\s+only\b|\bforward[\s-]only\b|\bonly\s+(?:an?\s+|the\s+)?forward\s+pass"
    r"|\bprefill[\s-]only\b|\bno\s+(?:token\s+)?generation\b",
    I,
)
# the text trains a model: the forward-only verb is then about what the trained model will do
_TRAINS = keyed(
    r"\b(?:fine[\s-]?tun\w*|finetun\w*|train(?:ing|s|ed)?|q?lora|sft|pre-?train\w*|distil\w*)\b", I
)
# a total of input tokens the job reads: "over 102B input tokens", "1.2 billion tokens of text"
_TOTAL = re.compile(
    rf"(?P<num>{NUMBER})\s*(?P<mult>{MULT})\s*(?:input\s+|text\s+|prompt\s+)?tok(?:en)?s\b", I
)
_MIN_TOTAL_TOKENS = 1e6  # fewer is a test, not a batch job
# each item's length said apart from the items: "(avg 512 tokens each)", "~300 tokens per passage"
_PER_ITEM = re.compile(
    rf"(?:\(\s*)?(?:avg\.?\s+|average\s+|on\s+average\s+|about\s+|around\s+|roughly\s+|~\s*)?"
    rf"(?P<num>{NUMBER})\s*(?P<k>k)?\s*tok(?:en)?s?\s+(?:each|apiece|per\s+(?!second|sec\b|s\b|hour|day|month)\w+"
    rf"|on\s+average|avg)\b",
    I,
)
_MAX_ITEM_TOKENS = 2_000_000  # above: not one item's length
# the items counted after the forward-only verb: "rerank 5M query-document pairs", "embed 200M documents"
_COUNTED = re.compile(
    rf"(?P<num>{NUMBER})\s*(?P<mult>{MULT})?\s+(?:(?!tok)[a-z][\w-]*\s+){{0,2}}?"
    r"(?P<item>(?!tokens\b|toks\b)[a-z]{3,}s)\b",
    I,
)
_MIN_ITEMS = 1000  # fewer items are a test run, not a batch (as rules_serving_io._MIN_BATCH_ITEMS)


def _cue(ctx: Ctx) -> tuple[Sentence, re.Match[str]] | None:
    if any(_TRAINS.search(s.text) for s in ctx.sentences):
        return None
    return next(((s, m) for s in ctx.sentences if (m := _FORWARD.search(s.text)) is not None), None)


def rule_forward_only_workload(ctx: Ctx) -> None:
    """workload inference for a forward-only job (module docstring)."""
    if ctx.workload is not None or (cue := _cue(ctx)) is None:
        return
    s, m = cue
    ev = f'"{q(m)}": a forward pass over each item, no tokens generated -> batch inference'
    ctx.add(s, "workload", "inference", ev, "inferred", m.start())
    ctx.workload = "inference"


def rule_forward_only_output(ctx: Ctx) -> None:
    """One output token per item of a forward-only job with no output length said."""
    if ctx.workload != "inference" or ctx.has("output_tokens") or (cue := _cue(ctx)) is None:
        return
    s, m = cue
    ev = f'"{q(m)}": forward pass only, no generated tokens (one step per item yields its result)'
    ctx.add(s, "output_tokens", FORWARD_ONLY_OUTPUT_TOKENS, ev, "inferred", m.start())
    if ctx.has("prompt_tokens"):
        return
    for t in ctx.sentences:
        if (size := _PER_ITEM.search(t.text)) is not None:
            n = int(parse_scaled(size.group("num"), "k" if size.group("k") else None))
            if 1 <= n <= _MAX_ITEM_TOKENS:
                ctx.add(t, "prompt_tokens", n, f'"{q(size)}": the length of each item read', "inferred",
                        size.start())  # fmt: skip
            return


def rule_forward_only_total(ctx: Ctx) -> None:
    """generation_tokens (items x 1) of a forward-only job given as a total of input tokens."""
    if ctx.workload != "inference" or ctx.has("generation_tokens") or (cue := _cue(ctx)) is None:
        return
    s, verb = cue
    # items counted after the verb, no deadline or job word said ("rerank 5M pairs over the weekend")
    n = _COUNTED.search(s.text, verb.end())
    if n is not None and (items := parse_scaled(n.group("num"), n.group("mult"))) >= _MIN_ITEMS:
        ev = f'"{q(n)}": {items:,.0f} items, one forward pass each'
        ctx.add(s, "generation_tokens", items * FORWARD_ONLY_OUTPUT_TOKENS, ev, "inferred", n.start())
        return
    for s in ctx.sentences:
        for m in _TOTAL.finditer(s.text):
            total = parse_scaled(m.group("num"), m.group("mult"))
            if total < _MIN_TOTAL_TOKENS:
                continue
            said = next((f for f in ctx.findings if f.field == "prompt_tokens"), None)
            per_item = int(said.value) if said is not None else PROMPT_TOKENS_DEFAULT
            if said is None:
                ev = f"no length per item said: the serving default, {PROMPT_TOKENS_DEFAULT:,} tokens"
                ctx.add(s, "prompt_tokens", per_item, ev, "inferred", m.start(), estimate=True)
            items = items_for_tokens(total, per_item)
            ev = f'"{q(m)}" / {per_item:,} tokens per item = {items:,.0f} items, one forward pass each'
            ctx.add(s, "generation_tokens", items * FORWARD_ONLY_OUTPUT_TOKENS, ev, "inferred", m.start())
            return
