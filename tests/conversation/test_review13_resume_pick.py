"""Expert review 13, R01, real extractor and recommender: a job that cannot resume is not placed on spot
or a community host (a 1x RTX 4090 runpod-community pick before), and the pick says why."""

from __future__ import annotations

from advisor.conversation import Conversation
from tools.recommend.risk import COMMUNITY_TIERS

R01 = (
    "hey folks, we want to LoRA fine-tune Llama 3.1 8B on ~300M tokens of support tickets, rank 16. cheapest "
    "way to get it done by friday? no spot instances pls, our jobs can't checkpoint well"
)


def test_r01_pick_is_on_a_host_that_will_not_interrupt_it() -> None:
    t = Conversation(explain=False).send(R01)
    assert t.recommendation is not None and t.recommendation.primary is not None
    for c in [t.recommendation.primary, *t.recommendation.alternatives]:
        assert c.pricing != "spot" and c.tier.lower() not in COMMUNITY_TIERS, c.summary
    assert "cannot resume from a checkpoint" in " ".join(t.recommendation.primary.why)
    unused = t.reply.split("I did not use")[1].split("\n\n")[0] if "I did not use" in t.reply else ""
    assert "checkpoint" not in unused
