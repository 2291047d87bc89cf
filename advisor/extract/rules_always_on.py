"""A model kept running around the clock on GPUs is served, not trained (expert review 14, P11: "Monthly
cost of Llama 3.1 8B 24/7 on 1x L40S at GCP?" was read as fine-tuning on an assumed 100M tokens).

Cue: an always-on phrase ("24/7", "24x7", "around the clock", "always on", "round-the-clock") in a
sentence that names no training word (train, fine-tune, LoRA, epochs, pre-train, SFT, DPO, dataset): a
training run ends, so a cost that runs all month is a served model's. Read only when no workload was
stated or inferred before."""

from __future__ import annotations

import re

from advisor.extract.rules_ctx import Ctx, I, q

_ALWAYS_ON = re.compile(
    r"\b24\s*/\s*7\b|\b24\s*x\s*7\b|\b(?:a|)round[\s-]the[\s-]clock\b|\balways[\s-]on\b|\bnon[\s-]?stop\b", I
)
_TRAINING = re.compile(
    r"\b(?:train\w*|fine[\s-]?tun\w*|finetun\w*|lora|qlora|epochs?|pre[\s-]?train\w*|sft|dpo|rlhf|corpus"
    r"|dataset)\b",
    I,
)


def rule_always_on_serving(ctx: Ctx) -> None:
    """workload inference for a model kept running around the clock (module docstring)."""
    if ctx.workload is not None:
        return
    for s in ctx.sentences:
        m = _ALWAYS_ON.search(s.text)
        if m is None or any(_TRAINING.search(t.text) for t in ctx.sentences):
            continue
        ev = f'"{q(m)}": a model kept running around the clock is served, not trained'
        ctx.add(s, "workload", "inference", ev, "inferred", m.start())
        ctx.workload = "inference"
        return
