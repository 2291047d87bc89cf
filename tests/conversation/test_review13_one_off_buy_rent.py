"""Expert review 13, R07: a one-off training job rented because the team's own GPU cannot run it gets no
multi-year buy-vs-rent block unless buying was asked; when a block is shown, the horizon listed under
Assumed is the one it weighs (one horizon per reply)."""

from __future__ import annotations

import re

import pytest

from advisor.api import ask

R07 = (
    "I am need to do QLoRA for Llama 3 70B with my dataset 50 million token. I have only one RTX 4090 in my "
    "office. It is possible? How many days it take?"
)


def _horizons(reply: str) -> set[str]:
    """Every horizon the reply names: the block's '(..., 36 months)' and Assumed's 'horizon 12 months'."""
    block = re.findall(r"Buy vs rent \([^)]*?, (\d+) months\)", reply)
    assumed = re.findall(r"horizon (\d+) months", reply)
    return set(block) | set(assumed)


@pytest.mark.parametrize(
    "text",
    [
        R07,
        "We own 2x RTX 3090. We want to LoRA fine-tune Llama 3.1 70B on 100M tokens, a single run. How long "
        "will it take?",
        "our lab has a single RTX 4090; need to QLoRA Llama 3 70B once on 50M tokens, how long and how much?",
    ],
)
def test_a_one_off_job_gets_no_purchase_block(text: str) -> None:
    reply = str(ask(text)["reply"])
    assert "Recommended:" in reply and "Buy vs rent" not in reply
    assert "Cheapest over the horizon" not in reply


@pytest.mark.parametrize(
    "text",
    [
        # near misses: buying asked, a horizon said, runs that recur
        "I have one RTX 4090. QLoRA of Llama 3 70B on 50M tokens: should I buy GPUs or rent?",
        "I have one RTX 4090. QLoRA of Llama 3 70B on 50M tokens, over the next 3 years.",
        "We own one RTX 4090 and run QLoRA of Llama 3 70B on 50M tokens 8 times a month.",
    ],
)
def test_a_block_still_comes_when_buying_is_weighed_and_its_horizon_is_the_only_one(text: str) -> None:
    reply = str(ask(text)["reply"])
    assert "Buy vs rent (" in reply
    assert _horizons(reply) == {"36"}, _horizons(reply)
