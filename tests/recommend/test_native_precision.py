"""DeepSeek-V3 is served in FP8 by default, as published (auditor H8).

Before: inference defaulted to BF16 for every model, so DeepSeek-V3 (671B, FP8 checkpoint) was sized at
1,389 GiB of weights instead of ~626 GiB and every option needed twice the GPUs.
"""

from __future__ import annotations

from tools.catalog.load import Catalog
from tools.profile import WorkloadProfile
from tools.recommend import recommend
from tools.recommend.models import RecommendSettings

QUIET = RecommendSettings(sensitivity=False)


def test_deepseek_v3_serving_defaults_to_fp8(catalog: Catalog) -> None:
    p = WorkloadProfile(workload="inference", model_id="deepseek-v3", concurrency=8, context_len=8192)
    rec = recommend(profile=p, catalog=catalog, settings=QUIET)
    assert rec.profile.precision == "fp8"
    assert rec.profile.status_of("precision") == "assumed"
    assert rec.primary is not None and rec.primary.memory is not None
    # 671B x 1 B (linear weights) + 16-bit embeddings/norms ~ 626 GiB over the replica's GPUs
    weights_total = rec.primary.memory.breakdown_gib["weights"] * rec.primary.total_gpus
    assert 600 < weights_total < 660


def test_stated_precision_wins_and_other_models_stay_bf16(catalog: Catalog) -> None:
    p = WorkloadProfile(workload="inference", model_id="deepseek-v3", precision="bf16", concurrency=8)
    assert recommend(profile=p, catalog=catalog, settings=QUIET).profile.precision == "bf16"
    q = WorkloadProfile(workload="inference", model_id="llama-3.1-70b", concurrency=8)
    assert recommend(profile=q, catalog=catalog, settings=QUIET).profile.precision == "bf16"


def test_context_beyond_the_model_maximum_is_noted(catalog: Catalog) -> None:
    # before: 100k tokens of context on Llama 3 8B (trained to 8,192) was priced without a word
    p = WorkloadProfile(workload="inference", model_id="llama-3-8b", concurrency=4, context_len=100_000)
    rec = recommend(profile=p, catalog=catalog, settings=QUIET)
    assert any("beyond Llama 3 8B's 8,192-token maximum" in n for n in rec.notes), rec.notes
    ok = WorkloadProfile(workload="inference", model_id="llama-3.1-8b", concurrency=4, context_len=100_000)
    assert not any("maximum" in n for n in recommend(profile=ok, catalog=catalog, settings=QUIET).notes)
