"""How a question refers to the hardware the team owns (issue 12, evals v14 read as development data).

A feasibility question may name the team's machine before the text describes it ("Can our cluster do this
in 2 days? Script below. #SBATCH --nodes=2 ..."), call a committed reservation by its name ("does the
reservation cover it in under 10 days?"), or ask indirectly, without a question mark, in the formal style
of a letter ("Kindly advise whether the same will get completed in 3 days on this server.").
"""

from __future__ import annotations

import re

from advisor.extract.rules_ctx import I

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
