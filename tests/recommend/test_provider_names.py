"""Provider names as users (and the extractor) write them match the catalog's tiered provider ids.

The rules extractor writes 'runpod', 'lambda', 'aws', 'vastai' (advisor/extract/rules_models.py),
while the price catalog splits providers by tier ('runpod-community', 'runpod-secure',
'lambda-cluster', 'aws-sagemaker', 'vast-ai'). Before the fix, excluding 'runpod' excluded nothing.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tools.catalog.load import Catalog
from tools.recommend.candidates import provider_matches
from tools.recommend.models import Recommendation

Runner = Callable[..., Recommendation]


@pytest.mark.parametrize(
    ("provider", "name", "expected"),
    [
        ("runpod-community", "runpod", True),
        ("runpod-secure", "RunPod", True),
        ("lambda-cluster", "lambda", True),
        ("aws-sagemaker", "aws", True),
        ("vast-ai", "vastai", True),
        ("vast-ai", "Vast.ai", True),
        ("nebius", "nebius", True),
        ("runpod-community", "runpod-secure", False),
        ("lambda", "lambda-cluster", False),
        ("aws", "azure", False),
        ("coreweave", "", False),
    ],
)
def test_provider_matches_families_and_spellings(provider: str, name: str, expected: bool) -> None:
    assert provider_matches(provider, [name]) is expected


def test_excluding_a_provider_family_drops_all_its_tiers(run: Runner, catalog: Catalog) -> None:
    families = {p.provider.split("-")[0] for p in catalog.prices}
    assert {"runpod", "lambda", "aws"} <= families  # the catalog has the tiered ids this test is about
    rec = run(providers_excluded=["runpod", "lambda", "aws", "vastai"])
    assert rec.primary is not None
    for o in rec.options:
        assert o.provider.split("-")[0] not in ("runpod", "lambda", "aws", "vast"), o.key


def test_preferring_a_provider_family_picks_one_of_its_tiers(run: Runner) -> None:
    rec = run(providers_preferred=["runpod"])
    assert rec.primary is not None and rec.primary.provider.startswith("runpod-")
