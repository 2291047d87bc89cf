"""Expert review 20, R18: "would buying 2 L40S be cheaper than keeping renting?" is weighed against what the
team rents now (tools.recommend.keep_renting), in words other than the review's; near misses keep the old
comparison (the GPUs bought, rented)."""

from __future__ import annotations

import pytest

from advisor.conversation import Conversation
from advisor.extract.rules import RulesExtractor

SERVE = "We serve Llama 3.1 8B around the clock to about 20 concurrent users with a 4k context"


@pytest.mark.parametrize(
    ("text", "gpu", "n"),
    [
        ("We are renting two H100s at Lambda right now for our chatbot.", "h100-sxm", 2),
        ("We currently rent a single A100 80GB from Nebius.", "a100-80gb-sxm", 1),
        ("Should we keep renting our 4x A100 or buy 4?", "a100-80gb-sxm", 4),
    ],
)
def test_a_fleet_said_without_its_bill_is_the_rental_now(text: str, gpu: str, n: int) -> None:
    p = RulesExtractor().extract(text)
    assert (p.current_gpu, p.current_gpu_count) == (gpu, n)


@pytest.mark.parametrize(
    "text",
    [
        "we rent 64x H100 for 3 months to pretrain a 7B model on 2T tokens.",  # a plan
        "Could we rent a single H100 from runpod for this instead?",  # a question
        "Would renting 8x H100 be faster?",
        "We're currently renting GPUs on RunPod.",  # no count, no GPU
    ],
)
def test_a_plan_or_a_question_is_no_rental_now(text: str) -> None:
    assert RulesExtractor().extract(text).current_gpu is None


def _buy_turn(first: str, second: str) -> tuple[str, object]:
    c = Conversation(explain=False)
    one = c.send(first)
    assert one.capacity is None  # no bill, no price asked: the fleet is context, not a question
    turn = c.send(second)
    return turn.reply, turn.recommendation


def test_buying_more_cards_than_rented_is_weighed_against_keeping_the_rental() -> None:
    reply, rec = _buy_turn(
        f"{SERVE}. We're renting one L40S on RunPod at the moment.",
        "Over 36 months, is purchasing a 2x L40S box cheaper than carrying on as we are?",
    )
    t = rec.buy_vs_rent  # type: ignore[attr-defined]
    assert t is not None and t.n_gpus == 2 and t.kept_rental is not None and t.kept_n_gpus == 1
    od = next(ln for ln in t.rents if ln.basis.name.startswith("on-demand"))
    # keeping one L40S on demand: 1 x $1.09 x 730 h x 36 months (prices.yaml runpod-secure), within $1
    assert od.total_usd == pytest.approx(1 * 1.09 * 730 * 36, abs=1.0)
    assert t.cheapest != "buy"
    assert reply.split("\n\n")[1].startswith("No: buying 2x NVIDIA L40S")
    assert "keeping your 1x NVIDIA L40S rented" in reply and "would not be needed" in reply


def test_the_same_cards_rented_and_bought_keep_the_plain_comparison() -> None:
    _reply, rec = _buy_turn(
        f"{SERVE}. We're currently renting 2x L40S on RunPod.",
        "Would buying a server with 2 L40S be cheaper over 3 years than keeping renting?",
    )
    t = rec.buy_vs_rent  # type: ignore[attr-defined]
    assert t is not None and t.n_gpus == 2 and t.kept_rental is None


def test_a_rental_that_cannot_run_the_work_is_no_rent_side() -> None:
    # one L4 (22 GiB usable) cannot hold Llama 3.1 70B: weighed against renting the cards bought
    _reply, rec = _buy_turn(
        "We serve Llama 3.1 70B around the clock to 10 users. We're currently renting 1x L4 on GCP.",
        "Would buying 4 H100s be cheaper over 3 years than keeping renting?",
    )
    t = rec.buy_vs_rent  # type: ignore[attr-defined]
    assert t is not None and t.kept_rental is None
