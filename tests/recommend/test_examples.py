"""Every bundled example profile (advisor/examples/*.yaml) validates and runs through the engine."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from tools.catalog.load import Catalog
from tools.profile import WorkloadProfile
from tools.recommend import recommend
from tools.recommend.models import RecommendSettings

EXAMPLES = sorted((Path(__file__).resolve().parents[2] / "advisor" / "examples").glob("*.yaml"))
META = ("settings", "description", "name", "title")


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_example_profile_runs(path: Path, catalog: Catalog) -> None:
    data = yaml.safe_load(path.read_text())
    settings = RecommendSettings.model_validate({**data.get("settings", {}), "sensitivity": False})
    profile = WorkloadProfile(**{k: v for k, v in data.items() if k not in META})
    rec = recommend(profile=profile, catalog=catalog, settings=settings)
    if path.stem.startswith("infeasible"):
        assert rec.primary is None and rec.infeasible_advice
    else:
        assert rec.primary is not None and rec.primary.memory is not None and rec.primary.memory.fits
    if profile.claimed_hours:
        assert any(c.verdict == "cannot_hold" for c in rec.expectation_checks)
    if profile.eu_only:  # an EU region, or a provider's sourced EU data centres (expert review 19, R12)
        assert all(o.eu or "eu" in o.areas for o in rec.options)
    if profile.utilization and profile.utilization > 0.7:
        assert any(o.pricing == "owned" for o in rec.options)


def test_examples_exist() -> None:
    assert len(EXAMPLES) >= 5 and any(p.name == "seed-001-qlora-70b.yaml" for p in EXAMPLES)
