"""Expert review 20, R08: two workloads in one message with a question that compares them ("what would
each cost?", "which needs the bigger box?") get both parts sized and the comparison answered
(advisor/both_parts.py, tools/recommend/two_parts.py), in words other than the review's; near misses do not
size the other part."""

from __future__ import annotations

import pytest

from advisor.conversation import Conversation
from tools.recommend.two_parts import CLAIM_PREFIX

TWO = (
    "Two jobs this quarter. First, a QLoRA of Qwen2.5 7B on 100M tokens. Second, we will host Llama 3.3 70B "
    "for a support assistant, around 30 concurrent users with an 8k context. {q}"
)


@pytest.mark.parametrize(
    "question",
    [
        "How much would each of them cost, and which one requires more hardware?",
        "Which of the two needs the larger box?",
    ],
)
def test_both_parts_are_sized_and_compared(question: str) -> None:
    turn = Conversation(explain=False).send(TWO.format(q=question))
    rec = turn.recommendation
    assert rec is not None
    check = next((c for c in rec.expectation_checks if c.claim.startswith(CLAIM_PREFIX)), None)
    assert check is not None and check.leads
    text = check.explanation
    assert "a run" in text and "/month" in text  # the job's cost and the endpoint's
    # the 70B endpoint holds its weights (~131 GiB in BF16) and 30 users' KV: it is the bigger box
    assert "Serving llama-3.3-70b" in text.split("needs the bigger box")[0]
    assert "could not answer" not in turn.reply


@pytest.mark.parametrize(
    "question",
    [
        "What GPU should we use for the fine-tune?",  # one part asked about
        "Can one box do both?",  # the one-box question has its own answer (advisor/one_box.py)
    ],
)
def test_no_comparison_asked_no_both_parts(question: str) -> None:
    rec = Conversation(explain=False).send(TWO.format(q=question)).recommendation
    assert rec is not None
    assert not any(c.claim.startswith(CLAIM_PREFIX) for c in rec.expectation_checks)
