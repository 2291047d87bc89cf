"""A set-up the user names ("8x H100", "2x L40S") priced at each on-demand offer that can build it, through
the engine's own fit, time and price path; serving on the layout the ranking would pick (engine copies where
they carry more: tools.recommend.enumerate.Enumerator.serving_candidate), so a comparison, a buy-or-rent
answer and a claim check read the same tokens/s, per-user speed and TTFT as the ranked options (srv14).
Moved out of tools/recommend/expectations.py (its 600-line cap)."""

from __future__ import annotations

from tools.catalog.schema import GpuSpec
from tools.defaults import CatalogView
from tools.errors import InputError
from tools.recommend.candidates import Candidate, provider_matches, topology_summary
from tools.recommend.outcome import Outcome
from tools.recommend.regions import allowed as region_allowed


def price_named(outcome: Outcome, catalog: CatalogView, gpu: GpuSpec, n: int) -> list[Candidate]:
    """`n` x `gpu` at each on-demand offer that can build that count (whole nodes, a scale-out fabric
    when it spans nodes), through the engine's fit, time and price path (as
    tools.recommend.advise.evaluate_configuration does for one provider); the ranked options may not
    hold the count the user named (the sweep keeps the best counts per offer)."""
    eng = outcome.engine
    out: list[Candidate] = []
    p = outcome.engine.p
    # the providers the user requires where they sell this GPU; else any (an L40S named "on GCP", which GCP
    # does not list, is still priced where it is sold, as before)
    required = bool(p.providers_required) and any(
        provider_matches(r.provider, p.providers_required) for r in catalog.prices_for(gpu.id)
    )
    for r in catalog.prices_for(gpu.id):
        # a buyer's market offer the profile allows: not a worked example's quote, not a ruled-out region
        # or provider (tools.recommend.offers applies the same rules to the ranked options)
        if r.pricing != "on_demand" or r.reference_only or not region_allowed(r.region, r.eu, r.areas, p):
            continue
        if provider_matches(r.provider, p.providers_excluded):
            continue
        if required and not provider_matches(r.provider, p.providers_required):
            continue  # "AWS only" (srv14: R07's named 8x H100 was quoted at nebius)
        offer = eng.offers.offer_from_record(r)
        per_node = max([g for g in offer.gpus_per_node if g <= n] or [min(offer.gpus_per_node)])
        nodes = max(1, -(-n // per_node))
        if per_node * nodes != n or (nodes > 1 and offer.scale_out == "none"):
            continue
        # serving: the layout the ranking picks (engine copies where they carry more; srv14)
        served = eng.enumerator.serving_candidate(gpu, offer, per_node, nodes) if eng.inference else None
        if eng.inference and nodes > 1:
            # n GPUs as `nodes` replicas of one node, as the ranking serves a model one node holds (R07: 24x
            # A100 40GB as 3 replicas, not one engine pipelined over 3 nodes)
            one = eng.enumerator.serving_candidate(gpu, offer, per_node, 1)
            if one is not None and one.total_gpus == n:
                served = one
        if served is not None:
            out.append(eng.pricer.price(served))
            continue
        got = eng.calc.fit_layout(gpu, per_node, nodes)
        if got is None:
            continue
        layout, _est, fit = got
        scale_out = offer.scale_out if nodes > 1 else "none"
        plan = eng.calc.topology(gpu, layout, fit.peak_gib_per_gpu, scale_out)
        if plan.feasible:
            built = eng.enumerator.build(gpu, offer, layout, fit, topology_summary(plan, offer.scale_out))
            out.append(eng.pricer.price(built))
    return out


def offers_that_run(outcome: Outcome, catalog: CatalogView, gpu_id: str, n: int) -> list[Candidate]:
    """price_named for a GPU id the profile names (a fleet rented now, a claimed box), without the offers
    short of the target; empty when the catalog lacks the GPU (nothing to price)."""
    try:
        gpu = catalog.gpu(gpu_id)
    except (InputError, KeyError, LookupError):
        return []
    return [c for c in price_named(outcome, catalog, gpu, n) if not c.short_of_target]
