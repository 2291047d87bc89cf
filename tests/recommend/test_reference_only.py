"""Seed 001's quoted providers are worked-example prices, not market offers.

They appear only when a profile shortlists them (compare_providers), so a buyer's report never
recommends signing with "seed-001-bare-metal".
"""

from __future__ import annotations

from tools.catalog.load import Catalog
from tools.profile import WorkloadProfile
from tools.recommend import recommend
from tools.recommend.models import RecommendSettings

REFERENCE = {"seed-001-bare-metal", "seed-001-sagemaker"}
PROFILE = WorkloadProfile(
    model_id="llama-3-70b", method="qlora", dataset_tokens=1e9, epochs=3, dataset_gb=500, data_location="aws"
)


def test_reference_prices_are_flagged_in_the_catalog(catalog: Catalog) -> None:
    flagged = {p.provider for p in catalog.prices if p.reference_only}
    assert flagged == REFERENCE


def test_reference_providers_never_offered_unless_shortlisted(catalog: Catalog) -> None:
    rec = recommend(profile=PROFILE, catalog=catalog, settings=RecommendSettings(sensitivity=False))
    offered = {o.provider for o in (rec.primary, *rec.alternatives) if o is not None}
    assert offered and not offered & REFERENCE


def test_shortlisting_brings_the_reference_provider_back(catalog: Catalog) -> None:
    settings = RecommendSettings(sensitivity=False, compare_providers=("seed-001-bare-metal",))
    rec = recommend(profile=PROFILE, catalog=catalog, settings=settings)
    offered = {o.provider for o in (rec.primary, *rec.alternatives) if o is not None}
    assert "seed-001-bare-metal" in offered
