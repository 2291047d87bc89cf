"""The report's assumptions list names the allocator reserve formula the run applies (issue 15, mem17): the
seed 001 QLoRA training example lists the training reserve's shares and residue (no serving fraction), the
bundled serving example lists the serving fraction of activations. Before mem17 both listed
`allocator_reserve_fraction` 0.15 with no formula."""

from __future__ import annotations

from pathlib import Path

from advisor.service.profiles import load_profile
from advisor.service.recommending import recommend_for

EXAMPLES = Path(__file__).resolve().parents[2] / "advisor" / "examples"


def _assumptions(name: str) -> dict[str, float | int | str | bool | None]:
    profile, settings = load_profile(EXAMPLES / name)
    rec, _ = recommend_for(profile, settings=settings)
    return {a.name: a.value for a in rec.assumptions}


def test_training_report_lists_the_training_reserve() -> None:
    assumed = _assumptions("seed-001-qlora-70b.yaml")
    assert "allocator_reserve_fraction" not in assumed
    # QLoRA: a quantised base, not on the lent sets, keeps the calibrated 0.15 as its residue
    assert assumed["allocator_residual_fraction"] == 0.15
    assert {"allocator_logits_segment_share", "allocator_step_temporaries_share"} <= set(assumed)


def test_serving_report_lists_the_serving_fraction() -> None:
    assumed = _assumptions("eu-inference-70b.yaml")
    assert assumed["allocator_reserve_fraction"] == 0.15
    assert "allocator_residual_fraction" not in assumed
