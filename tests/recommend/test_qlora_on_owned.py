"""LoRA on GPUs the team owns that cannot hold the 16-bit base (tools/recommend/advise.py _qlora_on_owned;
expert review 5, R20: 2x RTX 4090 and Gemma 2 27B were told to rent, QLoRA never offered)."""

from __future__ import annotations

from typing import Any

from tools.catalog.load import Catalog
from tools.profile import WorkloadProfile
from tools.recommend import recommend
from tools.recommend.models import Recommendation, RecommendSettings
from tools.recommend.owned_first import YOURS_PROVIDER

QUIET = RecommendSettings(sensitivity=False)
GEMMA_ON_4090S = dict(workload="fine_tuning", model_id="gemma-2-27b", dataset_tokens=30e6,
                      owned_gpu="rtx-4090", owned_gpu_count=2)  # fmt: skip


def _rec(catalog: Catalog, **fields: Any) -> Recommendation:
    profile = WorkloadProfile().with_values("stated", **fields)
    return recommend(profile=profile, catalog=catalog, settings=QUIET)


def test_assumed_lora_becomes_qlora_on_the_owned_cards(catalog: Catalog) -> None:
    rec = _rec(catalog, **GEMMA_ON_4090S)
    o = rec.primary
    assert o is not None and o.provider == YOURS_PROVIDER and o.total_gpus == 2
    assert rec.profile.method == "qlora" and rec.profile.status_of("method") == "inferred"
    assert o.why[0].startswith("method QLoRA: LoRA's 16-bit base does not fit your 2x NVIDIA GeForce RTX")
    assert o.peak_gib_per_gpu <= o.vram_gib_per_gpu


def test_stated_lora_is_kept_and_the_qlora_route_is_named(catalog: Catalog) -> None:
    rec = _rec(catalog, **GEMMA_ON_4090S, method="lora")
    assert rec.profile.method == "lora"
    assert rec.primary is not None and rec.primary.provider != YOURS_PROVIDER
    said = "With QLoRA (a 4-bit base) it runs on your 2x NVIDIA GeForce RTX 4090"
    assert any(n.startswith(said) for n in rec.notes)


def test_cards_that_hold_lora_get_no_qlora_note(catalog: Catalog) -> None:
    rec = _rec(catalog, **dict(GEMMA_ON_4090S, model_id="llama-3.1-8b"), method="lora")
    assert rec.profile.method == "lora" and not any("QLoRA" in n for n in rec.notes)
