"""A prompt length said as a context size (expert review 19, R18: "Time to first token for a full 128k prompt
must be under 10 s" was sized on a short prompt, 0.02-0.09 s against ~11-17 s for 131k tokens).

prompt_tokens, stated, from:
- a full context's worth of prompt: "a full 128k prompt", "for a full 128k context", "the whole 100k-token
  input", "maxed-out 32k prompts";
- a prompt that fills the window: "each prompt fills the 128k window", "prompts use the whole 32k context";
- what the users paste or send: "paste whole contracts of ~60k tokens", "they upload 60k-token contracts",
  "users send the full 32k context every time", "paste whole contracts, up to 100k tokens," (review 20, R16);
- one prompt's size: "TTFT under 10 s for a 100k prompt", "each 30k-token input" (review 20, R16).
A context size alone ("128k context", "a 128k context window") is the longest sequence the service must
hold (context_len, rules_context), not the prompt every request brings: the time to the first token stays
sized on the typical prompt then (tools/defaults.py).
"""

from __future__ import annotations

import re

from advisor.extract.rules_ctx import Ctx, Gated, I, q
from advisor.extract.rules_text import APPROX, NUM, context_length, parse_number

_MAX_PROMPT_TOKENS = 2_000_000  # above: not one request's prompt
_TOKENS = r"(?:[\s-]*tok(?:en)?s?)?"
_WINDOW = r"(?:context(?:\s+window)?|window|prompts?|inputs?)"
_FULL_PROMPT = Gated(
    re.compile(
        # "a full 128k prompt", "for a full 128k context", "the whole 100k-token input", "maxed-out 32k input"
        rf"\b(?:full|whole|entire|complete|max(?:ed)?[\s-]?out|maximum)\s+(?:~\s*)?(?P<num>{NUM})\s*(?P<mult>k)?"
        rf"{_TOKENS}[\s-]+(?:prompts?|inputs?)\b"
        rf"|\bfor\s+(?:a|an|the|one)\s+(?:full|whole|entire|complete|maxed[\s-]out)\s+(?:~\s*)?(?P<num2>{NUM})\s*"
        rf"(?P<mult2>k)?{_TOKENS}[\s-]+(?:context|window)\b"
        # "each prompt fills the 128k window", "prompts use the whole 32k context"
        rf"|\b(?:prompts?|inputs?|requests?)\s+(?:fills?|fill\s+up|uses?|takes?\s+up|max(?:es)?\s+out)\s+(?:the\s+)?"
        rf"(?:(?:whole|full|entire|complete)\s+)?(?:~\s*)?(?P<num3>{NUM})\s*(?P<mult3>k)?{_TOKENS}[\s-]+{_WINDOW}\b"
        # "paste whole contracts of ~60k tokens", "upload 60k-token contracts", "send the full 32k context"
        # "paste whole contracts, up to 100k tokens," (expert review 20, R16)
        rf"|\b(?:past|upload|send|submit|attach|drop)\w*\s+(?:in\s+)?(?:(?:whole|full|entire|complete|their|our|the"
        rf"|an?)\s+)*(?:[a-z][\w-]*(?:\s+|\s*,\s*|\s*[-–—]\s*)){{0,2}}?(?:of\s+|with\s+|\(\s*)?{APPROX}"
        rf"(?P<num4>{NUM})\s*(?P<mult4>k)?(?:[\s-]*tok(?:en)?s?\b|[\s-]+(?:context|window)\b)"
        # one prompt of a size: "for a 100k prompt", "each 30k-token input" (expert review 20, R16); not a
        # window ("a 128k context window": rules_context)
        rf"|\b(?:a|an|one|each|every|per|single)\s+(?:single\s+)?(?:~\s*)?(?P<num5>{NUM})\s*(?P<mult5>k)?"
        rf"{_TOKENS}[\s-]+(?:prompts?|inputs?)\b",
        I,
    ),
    "full", "whole", "entire", "complete", "max", "fill", "use", "take", "past", "upload", "send", "submit",
    "attach", "drop", "prompt", "input",
)  # fmt: skip


def rule_full_prompt(ctx: Ctx) -> None:
    """prompt_tokens from a prompt length said as a context size (module docstring); serving only."""
    if ctx.workload not in ("inference", None):
        return
    for s in ctx.sentences_with(_FULL_PROMPT):  # a finding needs it to match
        for m in _FULL_PROMPT.finditer(s.text):
            key = next(k for k in ("", "2", "3", "4", "5") if m.group("num" + k))
            num, mult = m.group("num" + key), m.group("mult" + key)
            # a window's size in k is 1,024 tokens on power-of-two sizes ("a full 128k prompt" = 131,072;
            # rules_text.context_length); a count said in tokens ("contracts of ~60k tokens", "the whole
            # 100k-token input") or one prompt's size ("a 100k prompt"), 1,000 (as rules_serving_io)
            counted = "tok" in m.group(0).lower() or key == "5"
            tokens = int(parse_number(num) * (1000 if mult else 1)) if counted else context_length(num, mult)
            if 1 <= tokens <= _MAX_PROMPT_TOKENS:
                ctx.add(s, "prompt_tokens", tokens, f'"{q(m)}": the prompt each request brings', "stated",
                        m.start())  # fmt: skip
