"""The user's own GPUs get a direct answer: does the workload fit them, and how long does it take."""

from __future__ import annotations

from tools.catalog.load import Catalog
from tools.profile import WorkloadProfile
from tools.recommend import recommend
from tools.recommend.models import RecommendSettings

QUIET = RecommendSettings(sensitivity=False)


def _own_check(catalog: Catalog, **fields: object) -> tuple[str, str]:
    rec = recommend(profile=WorkloadProfile(**fields), catalog=catalog, settings=QUIET)  # type: ignore[arg-type]
    checks = [c for c in rec.expectation_checks if c.claim.startswith("run it on")]
    assert len(checks) == 1
    return checks[0].verdict, checks[0].explanation


def test_qlora_8b_fits_one_4090_and_is_timed(catalog: Catalog) -> None:
    verdict, text = _own_check(
        catalog, model_id="llama-3-8b", method="qlora", dataset_tokens=5e7, claimed_gpu="rtx-4090"
    )
    assert verdict == "holds" and "fits" in text and " h" in text


def test_full_fine_tune_8b_does_not_fit_one_4090(catalog: Catalog) -> None:
    verdict, text = _own_check(
        catalog, model_id="llama-3-8b", method="full", dataset_tokens=5e7, claimed_gpu="rtx-4090"
    )
    # 16 B/param mixed-precision states alone are ~119 GiB for 8B parameters (ZeRO paper)
    assert verdict == "cannot_hold" and "does not fit" in text


def test_no_claimed_gpu_no_check(catalog: Catalog) -> None:
    rec = recommend(
        profile=WorkloadProfile(model_id="llama-3-8b", method="qlora", dataset_tokens=5e7),
        catalog=catalog,
        settings=QUIET,
    )
    assert not [c for c in rec.expectation_checks if c.claim.startswith("run it on")]
