"""Questions the check of a claimed box beside the set-up asked about answers (expert review 19, R06/P06):
"Would we be better off renting 8x H200?", "How fast would 8x H200 serve it?", "Should we rent 8x H200
instead?" are answered by tools/recommend/claim_alternative.py's comparison; "Is that plausible?" after a
claim by the claim's own check. Kept apart from advisor/extract/answered_requests.py, which lists them."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tools.recommend.models import Recommendation

I = re.I  # noqa: E741

BETTER_OFF_Q = re.compile(
    r"\bbetter\s+off\b|\b(?:should|would|could)\s+(?:we|i)\s+(?:rather\s+|just\s+)?(?:rent|go\s+with|use|buy"
    r"|switch\s+to|pick|take)\b|\binstead\b|\bwhat\s+about\b|\bhow\s+about\b|\bcompar\w*\b"
    r"|\bhow\s+(?:fast|quickly|many\s+tokens)\b|\bwould\s+\w+\s+be\s+(?:better|cheaper|faster)\b",
    I,
)
PLAUSIBLE_Q = re.compile(
    r"\b(?:is|was|does)\s+(?:that|this|it|the\s+claim)\s+(?:even\s+|really\s+)?(?:plausible|believable|credible"
    r"|sound|hold\s+up|add\s+up|check\s+out|legit)\b"
    # "Is that even physically possible?" of a claim (expert review 20, R06)
    r"|\b(?:is|was)\s+(?:that|this|it|the\s+claim)\s+(?:even\s+)?(?:physically|technically|really|actually)\s+"
    r"(?:possible|feasible|achievable|realistic)\b",
    I,
)


def alternative_patterns(rec: Recommendation) -> list[re.Pattern[str]]:
    """BETTER_OFF_Q when the claimed box was compared with the set-up asked about; PLAUSIBLE_Q when a claim
    was checked."""
    # lazy: tools.recommend loads the whole recommender; the extractors import this module without it
    from tools.recommend.claim_alternative import CLAIM_PREFIX  # noqa: PLC0415

    out = [BETTER_OFF_Q] if any(c.claim.startswith(CLAIM_PREFIX) for c in rec.expectation_checks) else []
    claimed = rec.profile.claimed_gpu is not None or rec.profile.claimed_speedup is not None
    return out + ([PLAUSIBLE_Q] if claimed and rec.expectation_checks else [])
