"""Serving sized by the continuous-batching model (issue 14): replicas x TP chosen for the stated
throughput and latency, the user's GPU filters honoured, batch generation priced per job."""

from __future__ import annotations

import pytest

from tools.catalog.load import Catalog
from tools.compute.serving import ServingTime, estimate_serving_time
from tools.profile import WorkloadProfile
from tools.recommend import recommend
from tools.recommend.models import RecommendSettings

QUIET = RecommendSettings(sensitivity=False)


def test_qwen72b_at_3300_tokens_per_s_is_one_or_two_datacenter_nodes_not_a_consumer_farm(
    catalog: Catalog,
) -> None:
    # the issue: it picked 120x RTX 4090 ($30-39k/month); one 8x H100 FP8 node does the job
    rec = recommend(
        profile=WorkloadProfile(workload="inference", model_id="qwen2.5-72b", target_tokens_per_s=3300),
        catalog=catalog,
        settings=QUIET,
    )
    assert rec.primary is not None
    for o in rec.options:
        assert o.total_gpus <= 16, o.key
        assert o.decode_tokens_per_s is not None and o.decode_tokens_per_s.low >= 3300, o.key
        assert o.cost_basis == "per_month"
    assert not rec.primary.gpu.startswith("rtx")


def test_on_h100s_is_honoured_and_latency_met(catalog: Catalog) -> None:
    # "Serve 8B to ~50 users, <20 ms per token, on H100s": it got 2x RTX 4090 on a community cloud
    rec = recommend(
        profile=WorkloadProfile(
            workload="inference",
            model_id="llama-3.1-8b",
            concurrency=50,
            latency_ms_per_token=20,
            gpus_wanted=["h100-sxm", "h100-pcie", "h100-nvl"],
        ),
        catalog=catalog,
        settings=QUIET,
    )
    assert rec.primary is not None
    assert {o.gpu for o in rec.options} <= {"h100-sxm", "h100-pcie", "h100-nvl"}
    assert any(r.kind == "constraint" and r.gpu == "rtx-4090" for r in rec.rejected)


def test_excluded_gpus_and_max_gpus(catalog: Catalog) -> None:
    rec = recommend(
        profile=WorkloadProfile(
            workload="inference",
            model_id="llama-3.1-8b",
            concurrency=8,
            gpus_excluded=["rtx-4090"],
            max_gpus=1,
        ),
        catalog=catalog,
        settings=QUIET,
    )
    assert rec.primary is not None
    assert all(o.gpu != "rtx-4090" and o.total_gpus == 1 for o in rec.options)


def test_batch_generation_is_a_job_that_meets_its_deadline(catalog: Catalog) -> None:
    # "Generate 2 billion tokens with Qwen2.5 72B within a week": it priced 8x L4 per month (~7 months)
    rec = recommend(
        profile=WorkloadProfile(
            workload="inference", model_id="qwen2.5-72b", generation_tokens=2e9, deadline_hours=168
        ),
        catalog=catalog,
        settings=QUIET,
    )
    assert rec.primary is not None
    p = rec.primary
    assert p.cost_basis == "per_job"
    assert p.meets_deadline is True
    assert p.wall_hours.high <= 168
    assert p.decode_tokens_per_s is not None
    # the job's hours are its tokens over its rate
    assert abs(p.wall_hours.low - 2e9 / p.decode_tokens_per_s.high / 3600) < 1e-6 * p.wall_hours.low


def test_seventy_b_on_eight_consumer_cards_shows_the_pcie_slowdown(catalog: Catalog) -> None:
    rec = recommend(
        profile=WorkloadProfile(
            workload="inference",
            model_id="llama-3.3-70b",
            concurrency=50,
            precision="int4",
            gpus_wanted=["rtx-4090"],
        ),
        catalog=catalog,
        settings=QUIET,
    )
    assert rec.primary is not None and rec.primary.decode_tokens_per_s is not None
    # 8x 4090 have 8x 1 TB/s of bandwidth; without the all-reduce penalty INT4 70B (~37 GB) would
    # decode 50 requests at > 2,000 tokens/s. Through host memory it is a fraction of that.
    assert rec.primary.decode_tokens_per_s.high < 1000


def test_aggregate_target_from_few_users_is_a_per_user_speed_not_a_reason_to_replicate(
    catalog: Catalog,
) -> None:
    # advisor/examples/eu-inference-70b: 1,500 tokens/s from 16 users is 94 tokens/s each. It had become
    # 24x B200 in 3 replicas ($125k/month): replicas barely raise a user's speed (each user's speed is
    # one replica's step time) and 3 replicas of 6 requests counted 18 users. One node is the answer,
    # with a note that shows what meeting it surely would cost and what the cheaper option gives.
    def sized(target: float):  # type: ignore[no-untyped-def]
        return recommend(
            profile=WorkloadProfile(
                workload="inference",
                model_id="llama-3-70b",
                precision="bf16",
                concurrency=16,
                context_len=8192,
                target_tokens_per_s=target,
                eu_only=True,
            ),
            catalog=catalog,
            settings=QUIET,
        )

    rec = sized(1500)
    p = rec.primary
    assert p is not None and p.decode_tokens_per_s is not None
    # one node, one replica (4x B200 at RunPod's EU data centres since expert review 19, R12; Nebius sells 8)
    assert p.nodes == 1 and p.replicas == 1, p.summary
    assert p.decode_tokens_per_s.high >= 1500  # reaches it at least at the fast end
    # Since the all-reduce latency is the published custom-kernel figure (10 us, not a fitted 40 us), one
    # 8-GPU node meets 94 tokens/s per user; 2,000 tokens/s (125 each) is the per-user-bound case now.
    rec = sized(2000)
    p = rec.primary
    assert p is not None and p.decode_tokens_per_s is not None
    assert p.nodes == 1 and p.replicas == 1, p.summary
    note = next(r for r in p.risks if "concurrent users is" in r)
    assert "125 tokens/s each" in note and "meets it at the slow end" in note
    # the cheaper option that accepts less is offered, and the expectation check names both
    cheaper = [o for o in rec.options if o.label == "cheapest"]
    assert cheaper and cheaper[0].cost_usd.high < p.cost_usd.low
    assert cheaper[0].decode_tokens_per_s is not None and cheaper[0].decode_tokens_per_s.high < 2000
    check = next(c for c in rec.expectation_checks if "tokens/s" in c.claim)
    assert "per user" in check.explanation and "Or accept" in check.explanation


def test_replicas_split_the_stated_users_without_inventing_any(catalog: Catalog) -> None:
    from tools.recommend.serving_plan import _split  # noqa: PLC0415 - a private helper under test

    arch, gpu = catalog.model("llama-3-70b"), catalog.gpu("h200")

    def serve(conc: int) -> ServingTime:
        return estimate_serving_time(
            arch=arch, gpu=gpu, n_gpus=8, concurrency=conc, prompt_tokens=1000, output_tokens=1000
        )

    busy, total = _split(serve, 16, 3)  # 6 + 5 + 5, not 3 x 6
    assert busy.concurrency == 6
    expected = serve(6).output_tokens_per_s.low + 2 * serve(5).output_tokens_per_s.low
    assert abs(total.low - expected) < 1e-9 * expected
    assert total.low < 3 * serve(6).output_tokens_per_s.low


def test_a_pipeline_over_nodes_adds_memory_not_per_user_speed(catalog: Catalog) -> None:
    arch, gpu = catalog.model("llama-3-70b"), catalog.gpu("h100-sxm")
    common = dict(arch=arch, gpu=gpu, concurrency=16, prompt_tokens=1000, output_tokens=1000)
    one_node = estimate_serving_time(n_gpus=8, **common)  # type: ignore[arg-type]
    two_nodes = estimate_serving_time(n_gpus=16, pipeline_stages=2, **common)  # type: ignore[arg-type]
    as_tp16 = estimate_serving_time(n_gpus=16, **common)  # type: ignore[arg-type]
    # a second pipeline stage barely makes a token faster (each stage holds half the KV cache); it was
    # modelled as TP16 over NVLink, as if all 16 GPUs' bandwidth read each token's weights
    assert two_nodes.ms_per_output_token.low >= 0.9 * one_node.ms_per_output_token.low
    assert two_nodes.ms_per_output_token.low > 1.2 * as_tp16.ms_per_output_token.low
    assert two_nodes.max_concurrency >= one_node.max_concurrency


def test_memory_is_shown_at_the_load_the_plan_puts_on_each_replica(catalog: Catalog) -> None:
    # expert review: "peak 50 req/s" sized replicas of hundreds of requests while the memory line showed
    # the KV cache of the 8 assumed sequences (12.1 GiB per GPU of 140)
    p = WorkloadProfile().with_values(
        "stated", workload="inference", model_id="mixtral-8x7b", target_tokens_per_s=12500,
        prompt_tokens=1500, output_tokens=250, context_len=1750, latency_ms_per_token=50,
    )  # fmt: skip
    rec = recommend(profile=p, catalog=catalog, settings=RecommendSettings(sensitivity=False))
    o = rec.primary
    assert o is not None and o.serving is not None
    per = o.serving.concurrency_per_replica
    assert per > 8
    arch = catalog.model("mixtral-8x7b")
    split = min(o.serving.tensor_parallel, arch.n_kv_heads)
    kv_gib_per_gpu = arch.kv_cache_bytes(1750, 2.0) * per / split / 2**30
    assert o.memory.breakdown_gib["kv_cache"] == pytest.approx(kv_gib_per_gpu, rel=0.05)


def test_a_batch_job_runs_at_a_load_whose_memory_fits(catalog: Catalog) -> None:
    # expert review 2026-11-27: 405B generation at the serving model's KV capacity showed "203.0 GiB peak
    # per GPU of 179.1 usable (-23.9 GiB free)" as a fit; the plan now runs at the load that fits
    p = WorkloadProfile(
        workload="inference", model_id="llama-3.1-405b", prompt_tokens=400, output_tokens=1500,
        generation_tokens=7.5e8, deadline_hours=336, objective="cheapest",
    )  # fmt: skip
    rec = recommend(profile=p, catalog=catalog, settings=RecommendSettings(sensitivity=False))
    assert rec.primary is not None
    for o in (rec.primary, *rec.alternatives):
        assert o.memory.fits, (o.gpu, o.memory.peak_gib_per_gpu, o.memory.usable_gib_per_gpu)


def test_a_serving_summary_says_what_each_user_gets(catalog: Catalog) -> None:
    # third expert review 2026-11-27: a 2,500 tokens/s total bought with users at ~20 tokens/s each was
    # printed as the total alone; the per-user speed is in the one line chat, web and Slack show
    p = WorkloadProfile(
        workload="inference", model_id="qwen2.5-72b", prompt_tokens=3000, output_tokens=500,
        target_tokens_per_s=2500,
    )  # fmt: skip
    rec = recommend(profile=p, catalog=catalog, settings=RecommendSettings(sensitivity=False))
    assert rec.primary is not None and rec.primary.serving is not None
    per_user = rec.primary.serving.per_user_tokens_per_s
    # the summary prints 3 significant figures (5.77, 20.8)
    assert "per user" in rec.primary.summary and f"{per_user.low:.3g}" in rec.primary.summary
