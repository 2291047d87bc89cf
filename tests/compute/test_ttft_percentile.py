"""The M/D/1 waiting-time percentile behind a p95 time-to-first-token check (expert review 14, R13):
tools/compute/ttft_percentile.py against a simulation of the same queue (Lindley's recursion,
W_next = max(0, W + S - A), Poisson arrivals, fixed service), within 15% at the 95th percentile."""

from __future__ import annotations

import math
import random

import pytest

from tools.compute.ttft_percentile import md1_decay_rate_x, md1_wait_percentile_s

SIM_ARRIVALS = 200_000
TOLERANCE = 0.15
"""The exponential tail of Abate, Choudhury and Whitt (1995) is reported accurate at the 90th percentile and
beyond; 15% leaves room for the simulation's own sampling error."""


def _simulated_percentile_s(rho: float, service_s: float, pct: float, seed: int = 7) -> float:
    rng = random.Random(seed)
    rate = rho / service_s
    wait, waits = 0.0, []
    for _ in range(SIM_ARRIVALS):
        waits.append(wait)
        wait = max(0.0, wait + service_s - rng.expovariate(rate))
    waits.sort()
    return waits[int(pct / 100.0 * len(waits))]


@pytest.mark.parametrize("rho", [0.5, 0.7, 0.85])
def test_p95_wait_matches_a_simulated_md1_queue(rho: float) -> None:
    model = md1_wait_percentile_s(rho, 0.1, 95.0)
    sim = _simulated_percentile_s(rho, 0.1, 95.0)
    assert model == pytest.approx(sim, rel=TOLERANCE)


def test_light_load_has_no_p95_wait() -> None:
    # at 3% utilisation fewer than 5% of prompts find a queue: the 95th percentile waits for nothing
    assert md1_wait_percentile_s(0.03, 0.1, 95.0) == 0.0
    assert md1_wait_percentile_s(0.0, 0.1, 95.0) == 0.0


def test_decay_rate_solves_its_equation_and_grows_as_load_falls() -> None:
    for rho in (0.2, 0.5, 0.9):
        x = md1_decay_rate_x(rho)
        assert rho * math.expm1(x) == pytest.approx(x, rel=1e-6)
    assert md1_decay_rate_x(0.2) > md1_decay_rate_x(0.5) > md1_decay_rate_x(0.9)
    with pytest.raises(ValueError):
        md1_decay_rate_x(1.0)


def test_the_percentile_wait_is_far_below_a_wave_of_every_prompt_at_once() -> None:
    # 50 prompts of 0.04 s: all at once, the last waits 49 x 0.04 = 1.96 s; steady at rho 0.3, p95 ~ 0.02 s
    assert md1_wait_percentile_s(0.3, 0.04, 95.0) < 0.1 * 49 * 0.04
