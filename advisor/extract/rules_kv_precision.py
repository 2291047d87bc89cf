"""The KV cache's precision when said apart from the weights (expert review 19, P03: "Is one H200 enough to
serve Llama 3.3 70B with fp8 weights and an fp8 KV cache for ~50 concurrent users with 8k context?" got the
same "about 22 streams" as with a 16-bit cache; at 1 byte a value one H200 holds about 45 of them).

Forms read (kv_cache_precision, stated): "an fp8 KV cache", "FP8 KV", "KV cache in fp8", "kv-cache-dtype
fp8", "--kv-cache-dtype=fp8_e4m3", "KV cache quantized to 8-bit", "fp8 weights and KV cache", "bf16 KV
cache". An 8-bit integer cache ("int8 KV cache") holds one byte a value as FP8 does and is read as fp8
(inferred, the evidence says so). Not read: a negated one ("no fp8 KV cache", "without an FP8 KV cache"),
the weights' precision alone ("fp8 weights"), a KV cache with no precision. A weights precision read from
the KV phrase itself ("bf16 weights with an fp8 KV cache": the "fp8") is withdrawn: it is the cache's.
"""

from __future__ import annotations

import re

from advisor.extract.rules_ctx import Ctx, I, negated, q

_PREC = r"(?:fp8(?:[_-]?e4m3|[_-]?e5m2)?|8[\s-]?bit|int8|bf16|fp16|16[\s-]?bit|fp32)"
_KV = r"kv(?:[\s_-]?cache)?(?:[\s_-]?dtype)?"
_FORMS = (
    # "an fp8 KV cache", "FP8-quantized KV cache"
    re.compile(rf"\b(?P<p>{_PREC})(?:[\s-]+(?:quanti[sz]ed|compressed))?[\s-]+{_KV}\b", I),
    # "KV cache in fp8", "kv-cache-dtype fp8", "KV cache: FP8", "KV cache quantized to 8-bit"
    re.compile(
        rf"(?:--)?\b{_KV}\s*(?:(?:is|was|will\s+be|in|at|as|stored\s+in|kept\s+in|quanti[sz]ed\s+(?:to|in|as)"
        rf"|precision)\s+|[=:]\s*|\s)(?:an?\s+)?(?P<p>{_PREC})\b",
        I,
    ),
    # "fp8 weights and KV cache", "FP8 weights + KV"
    re.compile(rf"\b(?P<p>{_PREC})\s+weights\s+(?:and|&|\+|plus|with)\s+(?:an?\s+|the\s+)?{_KV}\b", I),
)
_VALUES = {"bf16": "bf16", "fp16": "fp16", "fp32": "fp32", "16": "bf16"}


def _value(said: str) -> tuple[str, bool]:
    """(catalog value, converted) for a precision as written: fp8 variants and 8-bit -> fp8."""
    word = said.lower().replace(" ", "").replace("-", "")
    if word.startswith("int8"):
        return "fp8", True  # one byte a value, as FP8
    if word.startswith(("fp8", "8bit")):
        return "fp8", word != "fp8"
    if word.startswith("16bit"):
        return "bf16", True
    return _VALUES[word], False


def rule_kv_precision(ctx: Ctx) -> None:
    """kv_cache_precision from a KV cache named with its precision (module docstring)."""
    for s in ctx.sentences:
        t = s.text
        if "kv" not in t.lower():
            continue
        for rx in _FORMS:
            m = rx.search(t)
            if m is None or negated(t, m.start()):
                continue
            value, converted = _value(m.group("p"))
            at = s.start + m.start("p")
            # the precision word of the cache is not the weights' ("bf16 weights with an fp8 KV cache")
            if rx is not _FORMS[2]:
                ctx.findings[:] = [
                    f for f in ctx.findings
                    if not (f.field == "precision" and at <= f.position < s.start + m.end("p"))
                ]  # fmt: skip
            said = q(m) if not converted else f'"{q(m)}": {value} (one value\'s bytes)'
            ctx.add(s, "kv_cache_precision", value, said, "inferred" if converted else "stated", m.start("p"))
            return
