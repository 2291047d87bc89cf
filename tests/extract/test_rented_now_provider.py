"""A fleet rented now, said without its bill ("Currently renting 1x L40S on RunPod"), records where it runs
(current_provider) and does not make that provider the only one allowed; a rule said beside it still is
one (advisor/extract/rules_current_fleet.py, _rented_now)."""

from __future__ import annotations

import pytest

from advisor.extract.rules import RulesExtractor

SERVE = "We're serving Llama 3.1 8B 24/7 for an internal tool, about 20 concurrent users, 4k context. "


@pytest.mark.parametrize(
    "fleet",
    [
        "Currently renting 1x L40S on RunPod.",
        "We currently rent 2x A100 80GB on Lambda.",
        "Right now we rent two A100 80GB on Lambda.",
        "At the moment, we rent 4x H100 at Nebius.",
        "Today we're renting 4x H100 from Lambda.",
        "At the moment we're renting a single H100 at Nebius.",
    ],
)
def test_where_a_fleet_runs_is_no_requirement(fleet: str) -> None:
    p = RulesExtractor().extract(SERVE + fleet)
    assert p.current_gpu is not None and p.current_provider is not None
    assert not p.providers_required


def test_a_rule_beside_the_fleet_stays_a_requirement() -> None:
    p = RulesExtractor().extract(SERVE + "Currently renting 1x L40S on RunPod and we must stay on RunPod.")
    assert p.current_provider is not None
    assert p.providers_required and all(pid.startswith("runpod") for pid in p.providers_required)


@pytest.mark.parametrize(
    "text",
    [
        "Next month we rent 8x H100 on Lambda for the run.",  # a plan, not today's fleet
        "Today we want to know: should we rent 2x A100 on Lambda?",
    ],
)
def test_near_misses_are_no_fleet(text: str) -> None:
    assert RulesExtractor().extract(SERVE + text).current_gpu is None
