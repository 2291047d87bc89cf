"""Held capacity answered first: full training on GPUs the team already holds, sized with 8-bit AdamW when
fp32 AdamW states do not fit (expert review 12, R12).

"We have a 1-month reservation of 8x H200 on Nebius. Can we fit a full SFT of Llama 3.1 70B on 500M
tokens?" Policy (also in evals/cases_v7 and evals/cases_v13): GPUs the team holds, bought or reserved in a
cloud, are owned capacity (owned_gpu, owned_reserved), costed at their marginal rate (the reservation is
already paid for), and the answer is given on them first. Full training with mixed-precision AdamW needs 16 B
per parameter (ZeRO paper, Rajbhandari et al. 2020): 70B x 16 B = 1.04 TiB, over 8 x 140.3 GiB usable with
the 10% headroom. With AdamW's states in 8 bits (bitsandbytes AdamW8bit, Dettmers et al. 2022: 2 B of state
per parameter instead of 8) it fits, so the held GPUs run it that way before anything is rented. The time
is the same step count (tools/recommend/enumerate.py `_lean_optimizer_note`), held against the term left on
the reservation (owned_months_left, else the stated horizon).
"""

from __future__ import annotations

from tools import present
from tools.defaults import CatalogView, ResolvedWorkload
from tools.errors import InputError
from tools.recommend import memory_rule
from tools.recommend.caches import Caches
from tools.recommend.models import RecommendSettings
from tools.recommend.outcome import Outcome
from tools.recommend.owned_first import is_yours
from tools.recommend.run import run_engine
from tools.units import HOURS_PER_MONTH  # the price-sheet month, 730 h

LEAN_OPTIMIZER = "adamw-8bit"
"""bitsandbytes AdamW8bit (Dettmers et al. 2022, "8-bit Optimizers via Block-wise Quantization")."""


def _window_hours(w: ResolvedWorkload) -> float | None:
    """The hours left on the held capacity: the term left, else a stated horizon ("a 1-month reservation")."""
    p = w.profile
    if p.owned_months_left:
        return p.owned_months_left * HOURS_PER_MONTH
    if p.horizon_months and p.status_of("horizon_months") in ("stated", "inferred"):
        return p.horizon_months * HOURS_PER_MONTH
    return None


def held_with_lean_optimizer(
    w: ResolvedWorkload,
    out: Outcome,
    catalog: CatalogView,
    settings: RecommendSettings,
    caches: Caches | None,
) -> tuple[Outcome, RecommendSettings, str | None]:
    """The run on the held GPUs with 8-bit AdamW states when full training as described does not fit them
    and that does (module docstring), with the settings it was sized with (the sensitivity re-runs use them)
    and a note that says so; else `out` and `settings` unchanged and no note."""
    p = w.profile
    if (
        not p.owned_gpu
        or not p.owned_reserved
        or p.method not in ("full", "pretraining")
        or settings.optimizer is not None
        or (out.primary is not None and is_yours(out.primary))
    ):
        return out, settings, None
    lean = settings.model_copy(update={"optimizer": LEAN_OPTIMIZER})
    try:
        out2 = run_engine(w, catalog, lean, caches)
    except InputError:
        return out, settings, None
    c = out2.primary
    if c is None or not is_yours(c):
        return out, settings, None
    window = _window_hours(w)
    against = ""
    if window is not None:
        share = c.wall_hours.high / window
        against = (
            f", {'within' if share <= 1 else 'beyond'} the ~{window:,.0f} h left on it "
            f"({share:.0%} at the slow end)"
        )
    # the same layout with the framework's default optimizer: the figure "does not fit" rests on
    as_described_gib = memory_rule.need_gib(out.engine.mem.get(c.layout))  # what the fit is judged on
    note = (
        f"On the {c.total_gpus}x {c.gpu.name} you already hold (capacity paid for, so answered first): full "
        f"training with fp32 AdamW states (16 B per parameter) does not fit ({as_described_gib:.1f} GiB per "
        f"GPU); with 8-bit AdamW states "
        f"(bitsandbytes) it needs {c.fit.peak_gib_per_gpu:.1f} GiB per GPU of {c.fit.usable_gib_per_gpu:.1f} "
        f"usable and takes {present.hours_range(c.wall_hours, with_days=False)}{against}. Sized that way "
        "below; optimizer offload to CPU memory (DeepSpeed ZeRO-Offload) is the other way to fit it, slower."
    )
    return out2, lean, note
