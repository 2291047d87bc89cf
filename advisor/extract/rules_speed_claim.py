"""A claim that one GPU is some times faster than another (expert review 16, R05: "is it true that an
H200 is 2x faster than an H100 for serving Llama 3.3 70B?" was dropped and neither card was sized).

- gpus_compared: the two GPUs, the claimed-faster one first, so both are sized side by side as in "H100
  vs H200" (advisor/extract/rules_gpu_lists.py);
- claimed_speedup: the ratio said ("2x", "twice", "3 times", "50% faster" -> 1.5), which
  tools/recommend/speed_claim.py checks against the tools' own figures per GPU.
Not a count ("2x H100 faster than 1x H200" is two set-ups: rules_gpu_lists reads those) and not a price
("2x the price of an H100").
"""

from __future__ import annotations

import re

from advisor.extract.regex_keys import keyed
from advisor.extract.rules_ctx import Ctx, I
from advisor.extract.rules_gpus import _in_catalog
from advisor.extract.rules_models import GPU_RE, resolve_gpu

_WORD_RATIOS = {"twice": 2.0, "double": 2.0, "thrice": 3.0, "three times": 3.0, "four times": 4.0}
# "2x faster than", "twice as fast as", "3 times the throughput of", "50% faster than", "1.5x quicker than"
_RATIO = keyed(
    r"(?:(?P<num>\d+(?:\.\d+)?)\s*(?:x|×|times)|(?P<pct>\d+(?:\.\d+)?)\s*%|(?P<word>twice|double|thrice"
    r"|three\s+times|four\s+times))\s*(?:faster|quicker|as\s+fast|the\s+(?:speed|throughput|performance"
    r"|tokens/s|inference\s+speed)|more\s+(?:throughput|tokens/s)|(?:the\s+)?speed(?:-|\s+)?up)\s+"
    r"(?:than|as|of|over|vs\.?|versus|compared\s+(?:to|with))\s+(?:an?\s+|the\s+|one\s+|a\s+single\s+)?",
    I,
)
_BEFORE_CHARS = 40  # how far before the ratio the claimed-faster GPU is looked for ("an H200 is really")
_NOT_A_COUNT = re.compile(r"\d\s*(?:x|×)\s*$", re.I)  # "2x H100": a set-up's count, not one GPU


def _ratio(m: re.Match[str]) -> float:
    if m.group("num"):
        return float(m.group("num"))
    if m.group("pct"):
        return 1 + float(m.group("pct")) / 100  # "50% faster" is 1.5x
    return _WORD_RATIOS[" ".join(m.group("word").lower().split())]


def rule_speed_claim(ctx: Ctx) -> None:
    """gpus_compared and claimed_speedup from "<GPU A> is N x faster than <GPU B>" (module docstring)."""
    if ctx.has("claimed_speedup"):
        return
    for s in ctx.sentences_with(_RATIO):  # a finding needs it to match
        t = s.text
        for m in _RATIO.finditer(t):
            b = GPU_RE.match(t, m.end())
            before = list(GPU_RE.finditer(t, max(0, m.start() - _BEFORE_CHARS), m.start()))
            if b is None or not before or _NOT_A_COUNT.search(t, 0, before[-1].start()):
                continue
            a = before[-1]
            ids = [resolve_gpu(a.group("gpu")), resolve_gpu(b.group("gpu"))]
            if ids[0] == ids[1] or not all(_in_catalog(i) for i in ids):
                continue
            said = t[a.start() : b.end()]
            if not ctx.has("gpus_compared"):
                ctx.add(s, "gpus_compared", ids, said, "stated", a.start())
            ctx.add(s, "claimed_speedup", _ratio(m), said, "stated", a.start())
            return
