"""Sizing, verdict and memory answers expert-buyer review 7 judged wrong or questionable
(evals/reviews/2026-11-27-expert-review-7.md: R12, R15, R18, R19, P11, P15). Each runs the real rules and
recommender through the conversation (explain=False) and asserts what the reply must say, with a near miss
where one applies. Reference figures are the review's (dense BF16 peaks, HBM bandwidths, catalog prices)."""

from __future__ import annotations

import re

import pytest

from advisor.conversation import Conversation


def _reply(*turns: str) -> str:
    c = Conversation(explain=False)
    reply = ""
    for t in turns:
        reply = c.send(t).reply
    return reply


def _line(reply: str, start: str) -> str:
    return next((line for line in reply.splitlines() if line.startswith(start)), "")


_FREE = re.compile(r"\((-?[\d.]+) GiB free\)")


# ---------------------------------------------------------------- P15: negative free memory is never a fit
@pytest.mark.parametrize(
    "text",
    [
        "Can one L4 serve Llama 3.1 8B at 100 tok/s for a single user?",
        "Serve Llama 3.1 8B at 100 tokens/s in total.",
        "We need about 2,000 tokens per second from Llama 3.1 8B, what GPU?",
    ],
)
def test_no_option_is_called_a_fit_with_negative_free_memory(text: str) -> None:
    reply = _reply(text)
    frees = [float(x) for x in _FREE.findall(reply)]
    assert frees, reply  # the pick's fit line is there
    assert all(f >= 0 for f in frees), reply
    for m in re.finditer(r"fits: ([\d.]+) GiB peak per GPU of ([\d.]+) usable", reply):
        assert float(m.group(1)) <= float(m.group(2)), m.group(0)
