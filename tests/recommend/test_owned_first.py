"""Issue 16: the team's own hardware first, owned cost with utilisation applied once, purchase options
that state their price, and alternatives a buyer can use (tools/recommend/owned_first.py, buyer_rules.py)."""

from __future__ import annotations

from typing import Any

import pytest

from reports.buy_rent import buy_rent_section
from tools.catalog.load import Catalog
from tools.defaults import resolve_workload
from tools.profile import WorkloadProfile
from tools.recommend import recommend
from tools.recommend.buyer_rules import (
    COST_MULTIPLE_LIMIT,
    DOMINATED_COST_MULTIPLE,
    MEANINGFUL_SPEEDUP,
    provider_class,
    same_setup,
)
from tools.recommend.models import Option, Recommendation, RecommendSettings
from tools.recommend.owned_first import YOURS_PROVIDER
from tools.recommend.run import run_engine
from tools.units import HOURS_PER_MONTH

QUIET = RecommendSettings(sensitivity=False)


def _rec(catalog: Catalog, **fields: Any) -> Recommendation:
    p = WorkloadProfile().with_values("stated", **fields)
    return recommend(profile=p, catalog=catalog, settings=QUIET)


def _mid(o: Option) -> float:
    return (o.cost_usd.low + o.cost_usd.high) / 2


def test_we_own_8_a100_runs_on_them_not_rented(catalog: Catalog) -> None:
    # before: 8x B200 at runpod-secure, $710-1,392; "We own 8 A100" never costed as owned
    rec = _rec(
        catalog,
        workload="fine_tuning",
        model_id="mistral-7b-v0.3",
        method="full",
        dataset_tokens=2e9,
        epochs=3,
        owned_gpu="a100-80gb-sxm",
        owned_gpu_count=8,
    )
    o = rec.primary
    assert o is not None
    assert (o.gpu, o.provider, o.deployment, o.pricing) == ("a100-80gb-sxm", YOURS_PROVIDER, "owned", "owned")
    assert o.total_gpus <= 8
    # marginal cost: power x PUE + staff time, no capital. A100 SXM 400 W x 1.82 x 1.4 x $0.13 = $0.133
    # + $100/730 h = $0.137 -> $0.27/GPU-hour (tools/catalog/costs.yaml estimates)
    assert o.usd_per_gpu_hour == pytest.approx(
        0.4 * 10.2 / 5.6 * 1.4 * 0.13 + 100 / HOURS_PER_MONTH, rel=1e-3
    )
    assert any("you own" in w for w in o.why) and any("renting instead" in w for w in o.why)
    # no alternative buys new hardware when the team's own runs the job
    assert all(a.deployment not in ("owned", "colocation") for a in rec.alternatives)


def test_stated_power_price_sets_the_marginal_rate(catalog: Catalog) -> None:
    base = dict(
        workload="fine_tuning",
        model_id="llama-3-8b",
        method="lora",
        dataset_tokens=50e6,
        owned_gpu="h100-sxm",
        owned_gpu_count=2,
    )
    cheap = _rec(catalog, **base, power_price_usd_per_kwh=0.05).primary
    dear = _rec(catalog, **base, power_price_usd_per_kwh=0.30).primary
    assert cheap is not None and dear is not None and cheap.provider == dear.provider == YOURS_PROVIDER
    it_kw = 0.7 * 10.2 / 5.6
    assert dear.usd_per_gpu_hour - cheap.usd_per_gpu_hour == pytest.approx(it_kw * 1.4 * 0.25, rel=1e-3)


def test_we_have_2_h100_serving_is_not_billed_as_rental(catalog: Catalog) -> None:
    # before: a rental at $3.9-5.1k/month; now the two owned H100s at their marginal monthly cost
    rec = _rec(
        catalog,
        workload="inference",
        model_id="llama-3.1-8b",
        concurrency=32,
        context_len=8192,
        owned_gpu="h100-sxm",
        owned_gpu_count=2,
    )
    o = rec.primary
    assert o is not None and o.provider == YOURS_PROVIDER and o.total_gpus <= 2
    assert o.cost_usd.high < 1000  # at most 2 x 730 h x $0.37
    assert o.cost_usd.high < 0.5 * 3900  # the rental it was billed as: $3.9-5.1k a month


def test_owned_gpus_too_small_say_so_and_show_what_to_rent_or_buy(catalog: Catalog) -> None:
    rec = _rec(
        catalog,
        workload="fine_tuning",
        model_id="llama-3-70b",
        method="full",
        dataset_tokens=1e8,
        owned_gpu="rtx-4090",
        owned_gpu_count=2,
    )
    assert rec.primary is not None and rec.primary.provider != YOURS_PROVIDER
    assert any("cannot run this workload" in n for n in rec.notes)


def test_owned_cards_too_small_say_what_cpu_offload_would_fit(catalog: Catalog) -> None:
    # Answer.AI's fsdp_qlora (2024-03) trains a 70B QLoRA on two 24 GB cards with FSDP CPU offload: the note
    # says the offloaded peak fits (memory only; the offload slowdown is not timed)
    qlora = dict(workload="fine_tuning", model_id="llama-3.1-70b", method="qlora", dataset_tokens=2e7)
    rec = _rec(catalog, **qlora, owned_gpu="rtx-3090", owned_gpu_count=2)
    note = next(n for n in rec.notes if "cannot run this workload" in n)
    # the compute on the cards is timed; offload's host transfers are not (expert review 16, R06)
    assert "offloaded to CPU memory" in note and "the compute alone takes" in note
    assert "not timed here" in note
    # full fine-tuning of 70B on two cards does not fit even offloaded (gradients and states stay on GPU
    # in this estimate's offload of the weights): no such note
    full = dict(workload="fine_tuning", model_id="llama-3-70b", method="full", dataset_tokens=1e8)
    rec = _rec(catalog, **full, owned_gpu="rtx-4090", owned_gpu_count=2)
    note = next(n for n in rec.notes if "cannot run this workload" in n)
    assert "offloaded" not in note


def test_deepseek_on_prem_monthly_cost_applies_utilisation_once(catalog: Catalog) -> None:
    # before: 16x MI300X owned at $31,937/month = 16 x $2.73 x 730 h, the rate amortised at 30% use and
    # billed for every hour, and twice the GPUs needed (the MLA latent cache copied to every GPU; served
    # with data-parallel attention it is partitioned: one node of 8, as SGLang's docs size DeepSeek-V3).
    # Hand calculation for 16 (costs.yaml estimates, MI300X $15,000, 750 W), scaled to the GPUs picked:
    #   capex  16 x 15,000 x 1.30 / 48 months           = $6,500
    #   power  16 x 0.75 kW x 1.821 x 1.4 x $0.13 x 730 = $2,904
    #   staff  16 x $100                                 = $1,600    -> $11,004 a month; 8 GPUs: $5,502
    rec = _rec(
        catalog,
        workload="inference",
        model_id="deepseek-v3",
        concurrency=100,
        context_len=32768,
        deployment_preference="on_prem",
    )
    o = rec.primary
    assert o is not None and o.gpu == "mi300x" and o.deployment == "owned"
    assert o.total_gpus == 8
    hand = (16 * 15000 * 1.3 / 48 + 16 * 0.75 * 10.2 / 5.6 * 1.4 * 0.13 * 730 + 16 * 100) * o.total_gpus / 16
    assert o.cost_usd.high == pytest.approx(hand, rel=0.25)
    assert any(w.startswith("purchase: $15,000 per GPU") for w in o.why)
    assert any(w.startswith("monthly equivalent") for w in o.why)


def test_long_horizon_pretraining_offers_a_purchase_with_its_price(catalog: Catalog) -> None:
    # before: a rental answer with no purchase option at all
    rec = _rec(
        catalog,
        workload="pretraining",
        params_b=13,
        dataset_tokens=260e9,
        horizon_months=36,
        power_price_usd_per_kwh=0.10,
    )
    buys = [o for o in rec.options if o.deployment in ("owned", "colocation")]
    assert buys, [o.summary for o in rec.options]
    assert all(any(w.startswith("purchase: $") and "in all" in w for w in o.why) for o in buys)


def test_aws_no_spot_lora_pick_is_not_dominated(catalog: Catalog) -> None:
    # before: primary 8x A100 40GB $15-28 in 0.7-1.3 h, its 'cheapest' 8x H100 $11-23 in 13-25 min
    rec = _rec(
        catalog,
        workload="fine_tuning",
        model_id="llama-3-8b",
        method="lora",
        dataset_tokens=50e6,
        providers_required=["aws"],
        pricing_excluded=["spot"],
    )
    shown = rec.options
    assert rec.primary is not None and rec.primary.provider.startswith("aws")
    for a in shown:
        for b in shown:
            if a is b:
                continue
            cheaper = _mid(b) <= _mid(a) and b.wall_hours.mid <= a.wall_hours.mid
            strictly = _mid(b) < _mid(a) or b.wall_hours.mid < a.wall_hours.mid
            same_risk = (b.deployment, b.pricing) == (a.deployment, a.pricing)
            assert not (cheaper and strictly and same_risk), (a.summary, b.summary)


def test_8b_chatbot_alternatives_are_not_many_times_the_primary(catalog: Catalog) -> None:
    # before: fastest 8x B200 $39k and lowest risk 8x A100 SageMaker $26k a month for an 8B chatbot
    rec = _rec(catalog, workload="inference", model_id="llama-3.1-8b", concurrency=32, context_len=8192)
    p = rec.primary
    assert p is not None
    assert p.tier.lower() not in ("community", "marketplace") and p.gpu not in (
        "rtx-4090",
        "rtx-3090",
        "rtx-5090",
    )
    for a in rec.alternatives:
        assert _mid(a) <= COST_MULTIPLE_LIMIT * _mid(p), a.summary
        assert a.deployment != "managed", a.summary
        assert (a.gpu, a.total_gpus, a.pricing, a.deployment) != (
            p.gpu,
            p.total_gpus,
            p.pricing,
            p.deployment,
        )


def test_consumer_rule_yields_to_a_consumer_wish(catalog: Catalog) -> None:
    rec = _rec(
        catalog,
        workload="inference",
        model_id="llama-3.1-8b",
        concurrency=8,
        context_len=4096,
        deployment_preference="consumer",
    )
    assert rec.primary is not None and catalog.gpu(rec.primary.gpu).consumer


def test_buy_vs_rent_is_weighed_at_a_long_horizon_with_reserved_terms(catalog: Catalog) -> None:
    # 13B pre-training kept running for 3 years at $0.10/kWh: buy vs on-demand, 1y and 3y reserved, spot
    rec = _rec(
        catalog,
        workload="pretraining",
        params_b=13,
        dataset_tokens=260e9,
        horizon_months=36,
        power_price_usd_per_kwh=0.10,
    )
    t = rec.buy_vs_rent
    assert t is not None and t.horizon_months == 36 and t.utilization == 1.0
    names = [ln.basis.name for ln in t.rents]
    assert any(n.startswith("on-demand") for n in names)
    assert any(n.startswith("reserved 1 year") for n in names) and any(
        n.startswith("reserved 3 years") for n in names
    )
    for ln in t.rents:  # break-even month = purchase / (rent - running), reserved billing every hour
        if ln.break_even_month is not None:
            assert ln.break_even_month == pytest.approx(
                t.purchase_usd / (ln.usd_per_month - t.running_usd_per_month)
            )
    short = _rec(catalog, workload="fine_tuning", model_id="llama-3-8b", method="lora", dataset_tokens=50e6)
    assert short.buy_vs_rent is None  # no horizon stated, nothing owned: not weighed


def test_report_first_page_states_the_purchase_and_break_even(catalog: Catalog) -> None:
    rec = _rec(
        catalog,
        workload="inference",
        model_id="llama-3-70b",
        concurrency=64,
        context_len=8192,
        utilization=0.6,
        horizon_months=30,
        claimed_gpu="h100-sxm",
        claimed_gpu_count=8,
    )
    section = buy_rent_section(rec)
    assert section is not None
    assert "purchase $" in section["summary"] and "breaks even" in section["summary"]
    assert section["chart"].startswith("<svg") and "polyline" in section["chart"]
    assert all("spot" not in r["basis"] for r in section["rows"])  # no spot for a serving endpoint


# ---- alternatives that still carry buyer value (issue 16, second pass) ------------------------------------

QLORA_70B_S3 = dict(  # "QLoRA Llama 3 70B on our 500 GB corpus in S3, need it within 3 days, ~$5k"
    workload="fine_tuning",
    model_id="llama-3-70b",
    method="qlora",
    dataset_tokens=125e9,
    dataset_gb=500,
    data_location="aws",
    budget_usd=5000,
    deadline_hours=72,
)
PRETRAIN_7B = dict(  # "Pre-train a 7B model on 1T tokens, budget $500k, 3 months"
    workload="pretraining",
    params_b=7,
    dataset_tokens=1e12,
    budget_usd=500_000,
)


def _outcome(catalog: Catalog, **fields: Any) -> Any:
    p = WorkloadProfile().with_values("stated", **fields)
    return run_engine(resolve_workload(profile=p, catalog=catalog), catalog, QUIET)


def test_infeasible_qlora_keeps_the_users_cloud_alternative(catalog: Catalog) -> None:
    # before (this branch): no alternative at all; the nebius copy of the pick is an 'also offered by' line
    rec = _rec(catalog, **QLORA_70B_S3)
    p = rec.primary
    assert p is not None and rec.alternatives, rec.notes
    assert any(w.startswith("also offered by") for w in p.why)
    aws = [a for a in rec.alternatives if a.provider == "aws"]
    assert aws and any("where your data is" in w for w in aws[0].why)
    for a in rec.alternatives:  # none is the pick's set-up at another provider of its class
        assert (a.gpu, a.total_gpus, a.pricing, a.tier) != (p.gpu, p.total_gpus, p.pricing, p.tier)


def test_pretraining_7b_shows_a_near_equal_alternative_on_another_gpu(catalog: Catalog) -> None:
    # before (this branch): no alternative (each was dominated by the pick on cost, time and risk points)
    rec = _rec(catalog, **PRETRAIN_7B)
    p = rec.primary
    assert p is not None and rec.alternatives
    other = [a for a in rec.alternatives if a.gpu != p.gpu]
    assert other, [a.summary for a in rec.alternatives]
    for a in other:  # near-equal: at most 1.5x the cost and not 1.25x slower
        # the rule weighs the ranking's totals (Candidate.cost_mid), which differ from the displayed cost
        # range's middle by under 1% here (128x H200: 1.493x ranked, 1.501x displayed)
        assert _mid(a) <= DOMINATED_COST_MULTIPLE * _mid(p) * 1.01
        assert a.wall_hours.mid <= MEANINGFUL_SPEEDUP * p.wall_hours.mid


@pytest.mark.parametrize("fields", [QLORA_70B_S3, PRETRAIN_7B])
def test_lowest_risk_label_is_never_on_a_riskier_option(catalog: Catalog, fields: dict[str, Any]) -> None:
    out = _outcome(catalog, **fields)
    for c, label in out.alternatives:
        if label == "lowest operational risk":
            assert c.risk <= out.primary.risk + 1e-9, c.key.text()


def test_same_setup_needs_the_same_provider_class(catalog: Catalog) -> None:
    out = _outcome(catalog, **QLORA_70B_S3)
    h100 = [c for c in out.ranked if c.gpu.id == "h100-sxm" and c.total_gpus == 128]
    aws = next(c for c in h100 if c.offer.provider == "aws" and c.offer.pricing == "on_demand")
    neb = next(c for c in h100 if c.offer.provider == "nebius" and c.offer.pricing == "on_demand")
    assert provider_class(aws) == "hyperscaler" and provider_class(neb) == "gpu-cloud"
    assert not same_setup(aws, neb)
    lam = next(c for c in h100 if c.offer.provider == "lambda-cluster")
    assert same_setup(lam, neb)


def test_own_gpus_buy_vs_rent_compares_running_them_with_renting_not_buying_more(catalog: Catalog) -> None:
    # before: the timeline quoted buying 8 more A100s ("purchase $...; breaks even at month N")
    rec = _rec(
        catalog,
        workload="fine_tuning",
        model_id="mistral-7b-v0.3",
        method="full",
        dataset_tokens=2e9,
        epochs=3,
        owned_gpu="a100-80gb-sxm",
        owned_gpu_count=8,
        horizon_months=24,
    )
    t, p = rec.buy_vs_rent, rec.primary
    assert t is not None and p is not None and p.provider == YOURS_PROVIDER
    assert t.owned and t.purchase_usd == 0 and t.n_gpus == p.total_gpus
    # running cost = marginal rate x 730 h x use x GPUs; renting the same GPU type at the same use
    assert t.running_usd_per_month == pytest.approx(
        p.usd_per_gpu_hour * HOURS_PER_MONTH * t.utilization * t.n_gpus, rel=1e-6
    )
    assert t.rents and all(ln.usd_per_month > t.running_usd_per_month for ln in t.rents)
    assert t.cheapest == "buy"  # 'buy' is the team's own hardware here
    section = buy_rent_section(rec)
    assert section is not None and section["owned"]
    assert "Nothing to buy" in section["summary"] and "purchase $" not in section["summary"]
    assert all("renting costs" in r["break_even"] for r in section["rows"])
    assert not any(w.startswith("purchase: $") for w in p.why)


def test_own_gpus_too_small_buy_vs_rent_quotes_the_purchase(catalog: Catalog) -> None:
    # what to buy is said only when the owned GPUs do not run the job
    rec = _rec(
        catalog,
        workload="fine_tuning",
        model_id="llama-3-70b",
        method="full",
        dataset_tokens=1e9,
        owned_gpu="rtx-4090",
        owned_gpu_count=1,
        horizon_months=36,
    )
    assert rec.primary is not None and rec.primary.provider != YOURS_PROVIDER
    t = rec.buy_vs_rent
    assert t is not None and not t.owned and t.purchase_usd > 0


def test_buy_rent_chart_marks_break_even_and_names_its_axes(catalog: Catalog) -> None:
    rec = _rec(catalog, workload="pretraining", params_b=13, dataset_tokens=260e9, horizon_months=36)
    section = buy_rent_section(rec)
    assert section is not None
    t = rec.buy_vs_rent
    assert t is not None
    inside = [ln for ln in t.rents if ln.break_even_month is not None and ln.break_even_month <= 36]
    assert section["chart"].count("<circle") == len(inside) + 1  # one per break-even, one in the legend
    assert "cumulative cost, USD" in section["chart"] and "months" in section["chart"]
    assert "off on-demand)" not in section["chart"]  # legend names shortened to fit, not clipped


def test_owned_gpus_too_small_for_16_bit_serve_a_quantised_checkpoint(catalog: Catalog) -> None:
    # expert review 2026-11-27: "We run 4x A100 40GB on-prem ... serve Llama 3.1 70B for ~20 users" was
    # answered "buy 2x H100 NVL ($78,000)"; 70B in 8-bit weights (~70 GB) fits 4x 40 GB with KV to spare
    rec = _rec(catalog, workload="inference", model_id="llama-3.1-70b", concurrency=20,
               owned_gpu="a100-40gb-sxm", owned_gpu_count=4, deployment_preference="on_prem")  # fmt: skip
    o = rec.primary
    assert o is not None and o.provider == YOURS_PROVIDER and o.gpu == "a100-40gb-sxm"
    assert o.why[0].startswith("weights int8: 16-bit weights do not fit your 4x")
    # a precision the user stated is kept: bf16 on the same GPUs does not fit, so the answer looks elsewhere
    stated = _rec(catalog, workload="inference", model_id="llama-3.1-70b", concurrency=20, precision="bf16",
                  owned_gpu="a100-40gb-sxm", owned_gpu_count=4)  # fmt: skip
    assert stated.primary is None or stated.primary.provider != YOURS_PROVIDER


def test_a_purchase_reads_to_buy_and_the_teams_own_gpus_owned(catalog: Catalog) -> None:
    # expert review: 3090s, 4090s and B200s to buy were labelled "(owned)" beside the team's own A100s
    rec = _rec(catalog, workload="inference", model_id="deepseek-v3", concurrency=100, context_len=32768,
               deployment_preference="on_prem")  # fmt: skip
    assert rec.primary is not None and "(to buy)" in rec.primary.summary
    mine = _rec(catalog, workload="inference", model_id="llama-3.1-8b", concurrency=20,
                owned_gpu="a100-80gb-sxm", owned_gpu_count=2)  # fmt: skip
    assert mine.primary is not None and "at your hardware (owned)" in mine.primary.summary


def test_can_we_serve_it_on_the_named_node_is_answered_yes_or_no(catalog: Catalog) -> None:
    # expert review 4: "Can we serve Llama 3.1 405B in FP16 on a single 8x H100 node?" got no yes or no.
    # 405B x 2 bytes = 810 GB of weights against 8 x 80 GB: no; at FP8 (405 GB) it fits
    rec = _rec(catalog, workload="inference", model_id="llama-3.1-405b", precision="fp16", concurrency=30,
               claimed_gpu="h100-sxm", claimed_gpu_count=8)  # fmt: skip
    check = next(c for c in rec.expectation_checks if c.asked)
    assert check.verdict == "cannot_hold" and "does not fit" in check.explanation
    assert "With FP8 weights it fits" in check.explanation
    rec = _rec(catalog, workload="inference", model_id="llama-3.1-8b", concurrency=10,
               claimed_gpu="l40s", claimed_gpu_count=1)  # fmt: skip
    check = next(c for c in rec.expectation_checks if c.asked)
    assert check.verdict == "holds" and "it fits" in check.explanation
