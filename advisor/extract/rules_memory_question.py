"""memory_asked: the user asks how much GPU memory the workload needs (expert review 13, R14 "Also tell me
the GPU memory per card needed", R16 "how much VRAM do I need to run Llama 3.1 405B inference in FP8"):
the answer then quotes the memory estimate per card and in all (tools.recommend.memory_answer).

Read: "how much (GPU) memory / VRAM / HBM ...", "what/which (GPU) memory / VRAM do we need", "tell me /
give me / show the (GPU) memory (per card) (needed)", "VRAM / memory requirement(s)", "memory per card /
per GPU needed/required", "memory footprint?". Not read: memory said as a fact ("H100 80GB memory", "we
have 512 GB of RAM", "it needs less memory than a 70B"), CPU RAM ("how much RAM on the host?").

The smallest set-up asked for is the same figure (expert review 15, R09 "What's the minimum setup?", P09a
"What is the smallest GPU setup?", P09c "How many GPUs at minimum ...?"): the fewest GPUs that hold it. Not a
claim of a minimum count ("16 H100s minimum, right?": rules_claims) nor a minimum of something else ("what's
the minimum budget?", "the smallest model")."""

from __future__ import annotations

import re

from advisor.extract.rules_ctx import Ctx, I

_MEM = r"(?:(?:gpu|graphics|card|device)\s+)?(?:memory|vram|hbm)"
_ASKS = re.compile(
    rf"\bhow\s+much\s+(?:total\s+)?{_MEM}\b"
    rf"|\b(?:what|which)(?:'s|\s+is|\s+are)?\s+(?:the\s+)?(?:total\s+|minimum\s+)?{_MEM}\b"
    rf"(?=[^.!?]*\b(?:need|needed|required|requirements?|footprint|do\s+(?:we|i)|would)\b)"
    rf"|\b(?:tell|give|show|send)\s+(?:me|us)\s+(?:the\s+|how\s+much\s+)?(?:total\s+|minimum\s+)?{_MEM}\b"
    rf"|\b{_MEM}\s+(?:requirements?|footprint)\b(?=[^.!]*(?:\?|$))"
    rf"|\b{_MEM}\s+(?:per\s+(?:card|gpu|device)\s+)?(?:(?:is\s+|would\s+be\s+)?(?:needed|required)|do\s+(?:we|i)\s+need)\b",
    I,
)
_SETUP = (
    r"(?:(?:gpu|hardware|compute|cluster)\s+)?(?:set[\s-]?up|config(?:uration)?|hardware|cluster|footprint)"
)
_MINIMUM = re.compile(
    rf"\b(?:what(?:'s|\s+is|\s+would\s+be|\s+are)|which\s+is)\s+(?:the\s+|our\s+)?(?:bare\s+|absolute\s+)?"
    rf"(?:minimum|minimal|smallest|min)\s+(?:{_SETUP}|number\s+of\s+(?:gpus|cards|nodes)|gpus?|cards|nodes)\b"
    r"|\bhow\s+many\s+(?:gpus|cards|nodes|[ahb]\d{3}s?)\s+(?:\w+\s+){0,4}?at\s+(?:the\s+)?(?:minimum|least|min)\b"
    r"|\b(?:fewest|least\s+number\s+of)\s+(?:gpus|cards|nodes)\s+(?:we|i|it)\s+(?:need|can)\b",
    I,
)


def rule_memory_question(ctx: Ctx) -> None:
    """memory_asked from the first sentence that asks for the memory figure."""
    if ctx.has("memory_asked"):
        return
    for s in ctx.sentences_with(_ASKS, _MINIMUM):  # a finding needs one of them to match
        m = _ASKS.search(s.text) or _MINIMUM.search(s.text)
        if m is not None:
            ctx.add(s, "memory_asked", True, s.text[m.start() : m.end()].strip(), "stated", m.start())
            return
