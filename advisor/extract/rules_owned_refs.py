"""How a question refers to the hardware the team owns (issue 12, evals v14 read as development data).

A feasibility question may name the team's machine before the text describes it ("Can our cluster do this
in 2 days? Script below. #SBATCH --nodes=2 ..."), call a committed reservation by its name ("does the
reservation cover it in under 10 days?"), or ask indirectly, without a question mark, in the formal style
of a letter ("Kindly advise whether the same will get completed in 3 days on this server."), or call the
cards by a word of their name ("Could our four NVLs get through it in 36 hours?", evals v16).
"""

from __future__ import annotations

import re

from advisor.extract.rules_ctx import I
from advisor.extract.rules_text import NUMBER

# the team's own machine named with a possessive or demonstrative: it may come before the description
OWN_MACHINE_AHEAD = re.compile(
    r"\b(?:our|this|my)\s+(?:own\s+)?(?:cluster|box|server|machine|rig|workstation|node|nodes|partition"
    r"|reservation|allocation|hardware)\b",
    I,
)
# a held reservation referred to by its name: "the reservation", "that commitment", "our allocation"
RESERVATION_REF = re.compile(
    r"\b(?:the|that|this|our)\s+(?:reservation|commitment|allocation|partition|capacity\s+block)\b", I
)
# an indirect question: "kindly advise whether", "please confirm if", "let me know whether"
INDIRECT_QUESTION = re.compile(
    r"\b(?:advise|confirm|tell\s+(?:me|us)|let\s+(?:me|us)\s+know|check|wondering|asking)\s+(?:whether|if)\b",
    I,
)
# the owned cards called by a word of their name after a determiner and a count (evals v16)
_NAME_REF = re.compile(
    rf"\b(?:the|our|those|these|all)\s+(?:(?P<said>{NUMBER})\s+)?(?P<word>[a-z0-9][\w-]*?)s?\b(?!['\u2019])",
    I,
)


def owned_name_ref(t: str, gpu_id: str) -> re.Match[str] | None:
    """The owned cards called by a word of their catalog id after a determiner: "our four NVLs" of h100-nvl,
    "those 4090s" of rtx-4090 (a word of three or more characters of the id, after a determiner)."""
    words = {w for w in gpu_id.lower().split("-") if len(w) >= 3}
    return next((m for m in _NAME_REF.finditer(t) if m.group("word").lower() in words), None)
