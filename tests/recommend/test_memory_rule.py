"""The recommender judges memory fit on tensors + CUDA context with the headroom kept free, and shows the
figure the card would show (tools.recommend.memory_rule): the allocator's cached reserve is released before an
out-of-memory error, so the uncapped reserved estimate is not what decides (bench/data/README.md, mem22: a
Llama 3.1 8B LoRA at 4 x 16,384 tokens estimated at 161.6 GiB reserved trained on an H200 at 128.49 GiB)."""

from __future__ import annotations

import pytest

from tests.recommend.conftest import QUIET
from tools.catalog.load import Catalog
from tools.memory import estimate_memory
from tools.memory_types import MemoryEstimate
from tools.profile import WorkloadProfile
from tools.recommend import recommend
from tools.recommend.candidates import memory_fit
from tools.recommend.memory_rule import fits, need_gib
from tools.recommend.models import Recommendation

HEADROOM = 0.10


def _lora(catalog: Catalog, model: str, seq_len: int, batch_size: int) -> MemoryEstimate:
    return estimate_memory(
        arch=catalog.model(model), method="lora", seq_len=seq_len, batch_size=batch_size,
        memory_basis="reserved", traced=False,
    )  # fmt: skip


def test_the_need_is_tensors_plus_the_context(catalog: Catalog) -> None:
    est = _lora(catalog, "llama-3.1-8b", 4096, 2)
    assert need_gib(est) == pytest.approx(est.peak_allocated_gib() + est.cuda_context_gib)
    assert need_gib(est) < est.peak_gib_per_gpu  # the reserve is left out
    assert fits(72.0, 80.0, HEADROOM) and not fits(72.1, 80.0, HEADROOM)


@pytest.mark.parametrize(
    ("model", "seq_len", "batch_size", "gpu"),
    [
        ("llama-3.1-8b", 4096, 3, "l40s"),  # 40.9 GiB reserved > 40.3 kept-free limit; 36.9 of tensors
        ("qwen2.5-7b", 8192, 6, "h200"),  # 128.0 reserved > 126.3; 109.2 of tensors
    ],
)
def test_fits_by_its_tensors_though_not_by_the_uncapped_reserve(
    catalog: Catalog, model: str, seq_len: int, batch_size: int, gpu: str
) -> None:
    est, spec = _lora(catalog, model, seq_len, batch_size), catalog.gpu(gpu)
    limit = spec.usable_memory_gib * (1 - HEADROOM)
    assert est.peak_gib_per_gpu > limit  # the old rule said no
    fit = memory_fit(est, spec, HEADROOM, "none")
    assert fit.fits and fit.judged_gib == pytest.approx(need_gib(est)) and fit.judged_gib <= limit
    assert fit.peak_gib_per_gpu <= spec.usable_memory_gib  # shown as the card shows it
    assert sum(fit.breakdown_gib.values()) == pytest.approx(fit.peak_gib_per_gpu)


def test_a_reserve_past_the_card_is_shown_capped_and_the_lines_still_add_up(catalog: Catalog) -> None:
    # mem22's set-up: 4 x 16,384 tokens of Llama 3.1 8B LoRA on one H200; the tensors fit the card, not the
    # headroom, so it is tight (not a fit), and shown at what the card would hold, not the uncapped figure
    est, h200 = _lora(catalog, "llama-3.1-8b", 16384, 4), catalog.gpu("h200")
    fit = memory_fit(est, h200, HEADROOM, "none")
    assert est.peak_gib_per_gpu > h200.usable_memory_gib  # uncapped: past the card
    assert fit.judged_gib <= h200.usable_memory_gib and not fit.fits  # tight: inside the 10% kept free
    assert fit.peak_gib_per_gpu < est.peak_gib_per_gpu and fit.peak_gib_per_gpu <= h200.usable_memory_gib
    assert sum(fit.breakdown_gib.values()) == pytest.approx(fit.peak_gib_per_gpu)


def test_tensors_past_the_card_do_not_fit_and_are_shown_as_estimated(catalog: Catalog) -> None:
    est, h200 = _lora(catalog, "llama-3.1-8b", 16384, 8), catalog.gpu("h200")
    fit = memory_fit(est, h200, HEADROOM, "none")
    assert need_gib(est) > h200.usable_memory_gib and not fit.fits
    assert fit.peak_gib_per_gpu == pytest.approx(est.peak_gib_per_gpu)


def _h200_lora(catalog: Catalog, batch_size: int) -> Recommendation:
    profile = WorkloadProfile(
        model_id="llama-3.1-8b", method="lora", dataset_tokens=50e6, seq_len=16384, batch_size=batch_size,
        lora_rank=16, gpus_wanted=["h200"],
    )  # fmt: skip
    return recommend(profile=profile, catalog=catalog, settings=QUIET)


def test_the_recommender_now_offers_h200s_for_a_16k_lora_and_still_refuses_what_cannot_fit(
    catalog: Catalog,
) -> None:
    rec = _h200_lora(catalog, 4)
    primary = rec.primary
    assert primary is not None and primary.gpu == "h200" and primary.memory is not None
    assert primary.memory.judged_gib <= primary.vram_gib_per_gpu * (1 - HEADROOM)
    assert primary.memory.fits
    # twice the batch: the tensors alone are past the card on any count (activations do not shard)
    worse = _h200_lora(catalog, 8)
    assert worse.primary is None
    reasons = [r.reason for r in worse.rejected if r.gpu == "h200"]
    assert reasons and "needs" in reasons[0] and "tight" not in reasons[0]


def test_the_report_chart_says_fits_by_the_judged_figure_though_the_bar_passes_the_line() -> None:
    from reports.charts import MemoryBar, memory_fit_svg

    # 40.9 GiB shown (with the allocator's reserve) on a 44.8 GiB card; 36.9 GiB of tensors + context
    bar = MemoryBar(label="1x L40S", segments_gib={"activations": 30.0, "overhead": 10.9}, capacity_gib=44.8)
    assert "tight" in memory_fit_svg([bar], lambda v: f"{v:.1f}")  # judged on the bar: inside the 10%
    segments = {"activations": 30.0, "overhead": 10.9}
    judged = MemoryBar(label="1x L40S", segments_gib=segments, capacity_gib=44.8, judged_gib=36.9)
    svg = memory_fit_svg([judged], lambda v: f"{v:.1f}")
    assert "fits" in svg and "tight" not in svg
