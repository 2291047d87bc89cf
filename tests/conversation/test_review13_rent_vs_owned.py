"""Expert review 13, R19: a budget said beside owned GPUs that run the job is answered with what renting buys
within it: the rental's time and cost against the owned run, how many times faster, and whether it fits."""

from __future__ import annotations

import re

import pytest

from advisor.api import ask
from advisor.conversation import Conversation

R19 = [
    "fine-tune Llama 3.1 70B for our domain",
    "About 400M tokens, QLoRA is fine. We have 2x A100 80GB in our lab.",
    "How long would that take on our cards, and would renting be meaningfully faster for under $500?",
]
# '<rental>, <h>, <$>: about <n>x faster than your <owned> (<h>, <$>)'
_LINE = re.compile(
    r"Renting (?:within|for under) \$([\d,]+): \d+x .*?, [\d.]+ – [\d.]+ (?:h|min), \$[\d,]+ – "
    r"\$[\d,]+: about (\d+)x faster than your \d+x NVIDIA A100 80GB SXM4 \("
)


def test_the_follow_up_rental_question_is_answered_not_repeated() -> None:
    conv = Conversation(explain=False)
    replies = [conv.send(m).reply for m in R19]
    t2, t3 = replies[1], replies[2]
    assert t3 != t2
    m = _LINE.search(t3)
    assert m is not None and m.group(1) == "500" and int(m.group(2)) >= 10  # ~20x: 8x B200 vs 2x A100
    assert "within $500 only at the low end of its cost range" in t3
    assert t3.index("Renting") < t3.index("Recommended: 2x NVIDIA A100 80GB SXM4 at your hardware")


@pytest.mark.parametrize(
    ("text", "fits"),
    [
        (
            "We have 4x A100 80GB. QLoRA Llama 3.1 70B on 400M tokens. Would renting be faster if we "
            "spend up to $500?",
            "only at the low end",
        ),
        (
            "We own 2x A100 80GB; LoRA Llama 3.1 8B on 200M tokens. Budget $300 if we rent, worth it?",
            "within the budget",
        ),
        (
            "We own 2x A100 80GB; QLoRA Llama 3.1 70B on 400M tokens; we could spend $2,000 on cloud GPUs "
            "to go faster",
            "within the budget",
        ),
    ],
)
def test_phrasings_of_a_rental_budget_beside_owned_gpus(text: str, fits: str) -> None:
    reply = str(ask(text)["reply"])
    assert _LINE.search(reply) is not None and fits in reply
    assert "at your hardware (owned)" in reply


@pytest.mark.parametrize(
    "text",
    [
        "We own 2x A100 80GB; QLoRA Llama 3.1 70B on 400M tokens.",  # owned, no budget
        "QLoRA Llama 3.1 70B on 400M tokens, budget $500",  # a budget, nothing owned
    ],
)
def test_no_rental_line_without_both_owned_gpus_and_a_budget(text: str) -> None:
    reply = str(ask(text)["reply"])
    assert "Recommended:" in reply and not re.search(r"Renting (within|for under)", reply)
