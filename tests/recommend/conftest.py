"""Shared fixtures for the recommender tests.

Until tools/cost.py (H3) lands, a minimal stand-in with the contract's names is installed so the
engine can be exercised; it is removed automatically once the real module imports.
"""

from __future__ import annotations

import sys
import types
from typing import Any

import pytest


def _install_cost_standin() -> None:
    try:
        import tools.cost  # noqa: F401
        return
    except ImportError:
        pass
    from tools.trace import Traced

    class _R(Traced):
        cost_usd: float = 0.0
        compute_usd: float = 0.0
        storage_usd: float = 0.0
        egress_usd: float = 0.0
        managed_usd: float | None = None
        total_usd: float = 0.0

    def egress_cost(*, dataset_gb: float, pulls: float, schedule: Any, same_cloud: bool = False, **_: Any) -> _R:
        if same_cloud:
            return _R(cost_usd=0.0)
        rate = schedule.tiers[0].usd_per_gb
        return _R(cost_usd=dataset_gb * pulls * rate)

    def storage_cost(*, stored_gb: float, months: float, price: Any) -> _R:
        return _R(cost_usd=stored_gb * months * price.usd_per_gb_month)

    def tco(*, gpu_hours: float, usd_per_gpu_hour: float, storage_usd: float, egress_usd: float,
            managed_premium_fraction: float | None) -> _R:
        compute = gpu_hours * usd_per_gpu_hour
        managed = compute * managed_premium_fraction if managed_premium_fraction else 0.0
        return _R(compute_usd=compute, storage_usd=storage_usd, egress_usd=egress_usd, managed_usd=managed,
                  total_usd=compute + storage_usd + egress_usd + managed)

    mod = types.ModuleType("tools.cost")
    mod.egress_cost = egress_cost  # type: ignore[attr-defined]
    mod.storage_cost = storage_cost  # type: ignore[attr-defined]
    mod.tco = tco  # type: ignore[attr-defined]
    sys.modules["tools.cost"] = mod
    import tools

    tools.cost = mod  # type: ignore[attr-defined]


_install_cost_standin()


@pytest.fixture(scope="session")
def catalog() -> Any:
    from tools.catalog.load import load_catalog

    return load_catalog()
