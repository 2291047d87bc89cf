"""Expert review 13 (evals/reviews/2026-11-27-expert-review-13.md), R15 / P15, with the real rules extractor
and recommender: a forward-only embedding job is timed as batch inference over its input tokens, not as
LoRA fine-tuning (16x B200, $7,835-14,221 before)."""

from __future__ import annotations

import pytest

from advisor.conversation import Conversation


@pytest.mark.parametrize(
    "text",
    [
        "embed 200M documents with a 7B embedding model (avg 512 tokens each) in one week",
        "run a 7B model forward pass only over 102B input tokens within a week",
    ],
)
def test_embedding_job_is_forward_only_batch_inference(text: str) -> None:
    t = Conversation(explain=False).send(text)
    assert t.recommendation is not None and t.recommendation.primary is not None
    c = t.recommendation.primary
    assert c.serving is not None and c.serving.batch_job
    assert c.wall_hours.high <= 168  # the week asked for
    # review's check: 2 x 7e9 x 1.02e11 = 1.4e21 FLOP ~ 800 H100-hours at MFU 0.5 (H100 989 TFLOP/s dense
    # BF16); the serving model's range must bracket it within 2x either way
    assert 400 <= c.gpu_hours.low <= 1600 <= c.gpu_hours.high * 2
    assert c.cost_usd.high < 7_835  # below the fine-tuning answer's low end
    assert "LoRA" not in t.reply and "fine tuning" not in t.reply
