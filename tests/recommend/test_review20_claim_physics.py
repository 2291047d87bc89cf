"""Expert review 20, R06: a per-user speed claimed on GPUs the model does not fit is answered with the
physics (tools/recommend/claim_physics.py: the weights' size, the read-rate ceiling per stream, what a full
node gives), in words other than the review's; the question is not listed as unanswered; a claim with no
speed gets no such note."""

from __future__ import annotations

import re

from advisor.conversation import Conversation


def _lead(text: str) -> tuple[str, str]:
    turn = Conversation(explain=False).send(text)
    rec = turn.recommendation
    assert rec is not None
    lead = next((c.explanation for c in rec.expectation_checks if c.leads), "")
    return lead, turn.reply


def test_a_claimed_speed_on_too_few_gpus_is_answered_with_the_physics() -> None:
    lead, reply = _lead(
        "Our vendor says one A100 80GB runs Llama 3.1 70B in BF16 at 800 tokens/s per user for 10 users. "
        "Is that technically possible?"
    )
    assert lead.startswith("No") and "The weights alone are" in lead
    m = re.search(r"caps one stream at ([\d,]+) tokens/s even ideally, ([\d,]+)x short", lead)
    assert m is not None, lead
    # A100 80GB SXM 2.04 TB/s (gpus.yaml) over ~141 GB of BF16 weights: ~14 tokens/s, within 15%
    assert abs(int(m.group(1)) - 2.04e12 / 141.1e9) / (2.04e12 / 141.1e9) < 0.15
    assert "A full 8-GPU node of them" in lead
    assert "could not answer" not in reply


def test_a_claim_without_a_speed_gets_no_physics_note() -> None:
    lead, _reply = _lead("Can one H100 serve Llama 3.1 70B in FP16 for 30 users?")
    assert "caps one stream" not in lead
