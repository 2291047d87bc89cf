"""Expert review 16, R20: on a reservation that already finishes the job, turn 2's "Can we finish it on the
reservation?" and turn 3's "and if not, how many more GPUs would we need?" are answered by the pick on the
reservation (none more needed), not listed as a question or constraint not understood."""

from __future__ import annotations

import pytest

from advisor.conversation import Conversation

TURN1 = "We have 8x H200 reserved on Nebius for the next 2 months."
TURN2 = "We want to continue pre-training Qwen2.5 32B on 20B tokens. Can we finish it on the reservation?"


def _unused(reply: str) -> str:
    head = reply.split("Recommended:")[0]
    return head.split("I did not use", 1)[1] if "I did not use" in head else ""


@pytest.mark.parametrize(
    "turn3",
    [
        "and if not, how many more GPUs would we need?",  # the review's turn 3
        "but if not - how many more H200s?",
        "And if not, how many more would we need to add?",
    ],
)
def test_r20_if_not_is_answered_by_the_pick_on_the_reservation(turn3: str) -> None:
    c = Conversation(explain=False)
    c.send(TURN1)
    second = c.send(TURN2).reply
    # 6 x 32.8e9 x 2e10 = 3.9e21 FLOP / (8 x 989e12 x 0.35) = 390 h, inside the 1,460 h term (review 16, R20)
    assert "at your hardware (your reservation)" in second
    assert "finish it on the reservation" not in _unused(second)
    third = c.send(turn3).reply
    assert "at your hardware (your reservation)" in third
    assert "if not" not in _unused(third)


def test_r20_near_miss_if_not_without_held_cards_is_still_flagged() -> None:
    c = Conversation(explain=False)
    c.send("We want to continue pre-training Qwen2.5 32B on 20B tokens within 2 months.")
    third = c.send("and if not, how many more GPUs would we need?").reply
    assert "if not" in _unused(third)
