"""Spot training options carry their interruption exposure in figures (auditor H8).

Before: tools.cost.spot_exposure existed but spot options only said 'checkpoint often'.
Hand check for 8x H100 spot (one node) over ~201 h (30B LoRA tokens) at 0.001-0.04 interruptions per
node-hour: P(at least one) = 1 - exp(-rate x 201) = 18%-100%.
"""

from __future__ import annotations

import math

from tools.catalog.load import Catalog
from tools.profile import WorkloadProfile
from tools.recommend import recommend
from tools.recommend.models import RecommendSettings


def test_spot_options_state_interruption_odds_and_rework(catalog: Catalog) -> None:
    # 30B tokens: at 10B a single RTX 4090 on demand became the cheapest once the time model fitted
    # torchtune's RTX 4090 LoRA row (LoRA/full MFU factor); at 30B the cheapest is an H100 spot offer
    p = WorkloadProfile(model_id="llama-3-8b", method="lora", dataset_tokens=30e9)
    rec = recommend(profile=p, catalog=catalog, settings=RecommendSettings(sensitivity=False))
    spot = [o for o in rec.options if o.pricing == "spot"]
    assert spot  # the bundled catalog's cheapest H100s are spot offers
    for o in spot:
        lines = [r for r in o.risks if r.startswith("spot over")]
        assert lines and "chance of an interruption" in lines[0] and "rework" in lines[0], o.risks
    o = spot[0]
    if o.nodes == 1:
        low = 1 - math.exp(-0.001 * o.wall_hours.high)
        assert f"{low:.0%}-" in next(r for r in o.risks if r.startswith("spot over"))
