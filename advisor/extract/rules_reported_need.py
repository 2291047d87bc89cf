"""A count of GPUs someone else says the job needs, reported to be checked (expert review 18, R08: "My vendor
says we need 4x H100 to serve Llama 3.1 8B for 50 concurrent users with 8k context. ... Is it?" became a
cap of 4 GPUs and "'Is it?': a question I could not answer").

The form: a reporting verb ("says", "claims", "told us", "insists", "reckons", "according to ..."), then what
needs the cards ("we", "it", "serving it", "this model"), a verb of need ("need", "needs", "requires", "would
need") and a counted GPU. Read as a claim that the count is the fewest that do the job (claimed_gpu_bound
"minimum"): tools/recommend answers it with the fewest that do, so "4x H100" is confirmed or refuted.

Not this: the team's own statement of what it needs ("We need 4x H100 for this", no one reported), nor a
report of something else ("the vendor says 4x H100 are in stock"), nor a count asked ("how many H100s do
we need?").
"""

from __future__ import annotations

import re

from advisor.extract.rules_claims import _claim_hardware
from advisor.extract.rules_ctx import Ctx, I
from advisor.extract.rules_models import GPU_RE

# the reporting verb, then up to a few words naming what needs the cards, then the verb of need and the count
_REPORTED_NEED = re.compile(
    r"\b(?:says?|said|claims?|claimed|insists?|insisted|thinks?|reckons?|believes?|maintains?|swears?"
    r"|(?:told|tells|assured|assures)\s+(?:us|me|them)|according\s+to\s+(?:\w+\s+){1,3}?)"
    r"\s*,?\s*(?:that\s+)?(?P<subject>(?:[^.?!;:]|\.(?=\d)){0,70}?)\s*"
    r"\b(?:(?:would|will|'d|'ll|really|definitely|absolutely|actually)\s+)?(?:need|needs|needed|require|requires"
    r"|required|must\s+have|has\s+to\s+have|have\s+to\s+have)\s+"
    r"(?:(?:at\s+least|a\s+minimum\s+of|minimum|min\.?)\s+)?(?:an?\s+|one\s+|a\s+single\s+)?"
    r"(?:\d+\s*[x×]?\s*|(?:two|three|four|five|six|eight|ten|twelve|sixteen)\s+)?(?:nvidia\s+)?$",
    I,
)
_WINDOW_CHARS = 140  # the reporting verb and the need are said within this many characters before the card


def rule_reported_need(ctx: Ctx) -> None:
    """claimed_gpu, claimed_gpu_count and claimed_gpu_bound 'minimum' of a reported need (module docstring),
    when rules_claims read no claim in the sentence."""
    for s in ctx.sentences:
        if s.start in ctx.claim_sentences:
            continue
        t = s.text
        for gpu in GPU_RE.finditer(t):
            head = t[max(0, gpu.start() - _WINDOW_CHARS) : gpu.start()]
            m = _REPORTED_NEED.search(head)
            if m is None:
                continue
            _claim_hardware(ctx, s, gpu)
            said = (head[m.start() :] + gpu.group(0)).strip()
            ctx.add(s, "claimed_gpu_bound", "minimum", said, "stated", gpu.start())
            return
