"""Framework rule: the training stack a team says it uses (WorkloadProfile.framework, the names of
tools.vocabulary.Framework), which sets the time model's efficiency band.

"we use axolotl", "with Unsloth", "our Megatron-LM setup", "NeMo", "DeepSpeed ZeRO-3", "TRL",
"PEFT library", "HF Trainer", "LLaMA-Factory", "torchtune", "torchtitan". A name after a negation
("not DeepSpeed", "instead of Axolotl") is not the stack. When one sentence names several, the most
specific wins: a launcher (Axolotl, LLaMA-Factory, Unsloth, torchtune, torchtitan, NeMo) over the
engine it drives (Megatron-LM, DeepSpeed), and either over Transformers / TRL / PEFT ("Axolotl with
DeepSpeed ZeRO-3" is Axolotl); of two launchers the later ("from Axolotl to torchtune"). Across
sentences the latest statement wins, as for every field.
"""

from __future__ import annotations

import re

from advisor.extract.rules_ctx import Ctx, Gated, I, negated, q
from advisor.extract.sentence_memo import read_once

# (framework, pattern gated by its key words)
_FRAMEWORKS: tuple[tuple[str, Gated], ...] = (
    ("axolotl", Gated(re.compile(r"\baxolotl\b", I), "axolotl")),
    ("llama-factory", Gated(re.compile(r"\bllama[\s_-]?factory\b", I), "factory")),
    ("unsloth", Gated(re.compile(r"\bunsloth\b", I), "unsloth")),
    ("torchtune", Gated(re.compile(r"\btorch[\s-]?tune\b", I), "tune")),
    ("torchtitan", Gated(re.compile(r"\btorch[\s-]?titan\b", I), "titan")),
    # "Mistral NeMo" / "Mistral-Nemo-12B" is a model, not NVIDIA's framework
    (
        "nemo",
        Gated(re.compile(r"(?<!mistral )(?<!mistral-)\bnemo\b(?![\s-]*\d+(?:\.\d+)?\s*b\b)", I), "nemo"),
    ),
    ("megatron", Gated(re.compile(r"\bmegatron(?:[\s-](?:lm|core|deepspeed))?\b", I), "megatron")),
    (
        "deepspeed",
        Gated(re.compile(r"\bdeep[\s-]?speed(?:\s+zero(?:[\s-]?(?:stage\s*)?[123])?)?\b", I), "speed"),
    ),
    (
        "hf",
        Gated(
            re.compile(
                r"\b(?:hf|hugging\s?face|transformers)(?:'s)?\s+(?:transformers\s+)?trainer\b"
                r"|\b(?:hf|hugging\s?face)\s+transformers\b|\bsft\s?trainer\b|\btrl\b|\bpeft\s+library\b"
                r"|\b(?:use|using|with|via|on|in|run|runs|running)\s+(?:the\s+)?peft\b",
                I,
            ),
            "trainer",
            "transformers",
            "trl",
            "peft",
        ),
    ),
)
_TIER = {"megatron": 1, "deepspeed": 1, "hf": 2}
"""Launchers are tier 0, the engines they drive 1, Transformers / TRL / PEFT 2; the lowest tier wins."""


@read_once
def rule_framework(ctx: Ctx) -> None:
    """framework: the stack each sentence names (the most specific one), with the words as evidence."""
    for s in ctx.sentences_with(*(rx for _name, rx in _FRAMEWORKS)):  # a finding needs one to match
        t = s.text
        found: list[tuple[int, int, str, str]] = []  # (tier, -start, name, words): the latest of a tier
        for name, rx in _FRAMEWORKS:
            for m in rx.finditer(t):
                if not negated(t, m.start()):
                    found.append((_TIER.get(name, 0), -m.start(), name, q(m)))
        if found:
            _prio, neg_start, name, words = min(found)
            ctx.add(s, "framework", name, words, "stated", -neg_start)
