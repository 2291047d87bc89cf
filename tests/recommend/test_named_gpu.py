"""A GPU the user asks about ('can a 4090 handle ...?', 'we have 2 A100s') is answered on that GPU.

Before: 'Can a 4090 handle QLoRA on a 34b model? I don't want to pay for cloud.' came back as buying
8x B200 (eval case holdout-4090-no-cloud). One 4090 needs 26.6 GiB for that job (23.9 usable), so the
answer a buyer can act on is two of them; a speed claim on a named GPU is checked, not taken as a wish.
"""

from __future__ import annotations

from typing import Any

from tools.catalog.load import Catalog
from tools.profile import WorkloadProfile
from tools.recommend import recommend
from tools.recommend.models import Recommendation, RecommendSettings

QUIET = RecommendSettings(sensitivity=False)


def _rec(catalog: Catalog, **fields: Any) -> Recommendation:
    return recommend(profile=WorkloadProfile(**fields), catalog=catalog, settings=QUIET)


def test_a_named_consumer_card_that_is_too_small_alone_is_answered_with_two_of_them(catalog: Catalog) -> None:
    rec = _rec(
        catalog,
        params_b=34,
        method="qlora",
        deployment_preference="on_prem",
        claimed_gpu="rtx-4090",
        claimed_gpu_count=1,
    )
    assert rec.primary is not None
    assert (rec.primary.gpu, rec.primary.total_gpus) == ("rtx-4090", 2), rec.primary.key
    assert any("the GPU you named: 2 of them" in w for w in rec.primary.why), rec.primary.why
    # without the named card the same profile buys a data-centre server: the preference is what moved it
    plain = _rec(catalog, params_b=34, method="qlora", deployment_preference="on_prem")
    assert plain.primary is not None and plain.primary.gpu != "rtx-4090"


def test_fewer_of_the_named_gpus_are_enough(catalog: Catalog) -> None:
    rec = _rec(
        catalog,
        model_id="llama-3-8b",
        method="lora",
        dataset_tokens=300e6,
        claimed_gpu="a100-80gb-sxm",
        claimed_gpu_count=2,
    )
    assert rec.primary is not None and rec.primary.gpu == "a100-80gb-sxm"
    assert rec.primary.total_gpus <= 2


def test_a_named_consumer_card_without_an_option_falls_back_to_consumer_cards(catalog: Catalog) -> None:
    named = next(g for g in catalog.gpus if g.id == "rtx-3090")
    rec = _rec(catalog, model_id="mistral-7b", method="qlora", claimed_gpu="rtx-3090", claimed_gpu_count=1)
    assert rec.primary is not None
    gpu = next(g for g in catalog.gpus if g.id == rec.primary.gpu)
    assert gpu.consumer and named.consumer
    if rec.primary.gpu != "rtx-3090":
        assert any("consumer card like the rtx-3090" in w for w in rec.primary.why)


def test_a_speed_claim_on_a_named_gpu_does_not_steer_the_pick(catalog: Catalog) -> None:
    base: dict[str, Any] = {"model_id": "llama-3-8b", "method": "lora", "dataset_tokens": 10e9}
    claim = _rec(catalog, **base, claimed_gpu="l40s", claimed_gpu_count=1, claimed_hours=15)
    plain = _rec(catalog, **base)
    assert claim.primary is not None and plain.primary is not None
    assert claim.primary.key == plain.primary.key
