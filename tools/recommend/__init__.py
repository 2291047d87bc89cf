"""The recommender: a workload profile and the catalogs in, a ranked GPU recommendation out.

    recommend(profile=..., catalog=...) -> Recommendation

Pipeline (seed 001: "whether it works" before "what it costs"):
1. Resolve unknown profile fields into named defaults (tools.defaults), each marked assumed.
2. Enumerate offers: every price record of every GPU type (provider x pricing x region), plus owned
   and colocated hardware when the user's own utilisation and horizon make buying plausible (seed
   000: >= 30% sustained utilisation over >= 12 months) or the user wants on-premises hardware.
   Reserved capacity only when a stated horizon covers its term at >= 50% utilisation. Among offers
   of the same kind (pricing, tier class, managed, cloud, EU, node sizes, fabric) only the cheapest
   is kept: the others give the same fit, time and risk at a higher price.
3. For each offer, GPU counts as offered (1, 2, 4, 8 per node) and whole-node clusters. A count is
   feasible when the per-GPU tensors at the peak + CUDA context (tools.memory, sharded: ZeRO-3/FSDP for
   full training, data parallel for LoRA/QLoRA, tensor parallel for inference; the allocator's reserve is
   released before an OOM, tools.recommend.memory_rule) are at most (1 - headroom) of usable
   memory, and tools.topology accepts the interconnect (no cross-node tensor parallelism over
   Ethernet). Per offer we keep the smallest feasible count, the largest single node, and the
   smallest count that meets the deadline (without one: finishes within a month, so a long job is
   also offered on a cluster). Excluded and preferred providers match by family ('runpod' covers
   runpod-community and runpod-secure). Serving with a throughput target adds replicas.
4. Constraints: eu_only keeps EU-region records and providers with sourced EU data centres (regions);
   excluded providers are dropped; a consumer or on-premises wish keeps consumer GPUs or owned hardware
   only; budget and deadline reject what surely misses them (low end beyond the limit). If nothing meets
   them, the answer says so plainly and shows the closest configurations.
5. Cost: wall-clock and GPU-hour ranges from the MFU range (tools.compute); cost range = GPU-hours x
   price (+ the managed premium for managed services); four TCO rows (tools.cost) per data scenario:
   dataset cached after the first pull vs pulled on every run (egress is zero same-cloud).

Ranking (lower is better; `cost` = the TCO total of the expected data scenario, mid of its range;
`hours` = wall-clock mid; `risk` = operational-risk points, below):
- objective "cheapest": cost, then hours, among options that meet the deadline.
- objective "fastest": hours, then cost, among options within budget.
- objective "balanced" (default): score = ln(cost + setup) + 0.3 x ln(max(hours, 1)) + risk. A 2x speed-up
  is worth paying 2**0.3 = 23% more; under an hour, speed counts for nothing (setup takes that long);
  one risk point weighs like e = 2.7x the cost. `setup` (training only) = GPUs x 0.5 h x price: the
  set-up every run bills on all its GPUs, so a short job is not spread over 8 GPUs for a few minutes;
  training on more than one GPU adds 0.2 (a distributed launch to set up, score.MULTI_GPU_TRAINING_SETUP),
  and several GPUs never dominate one when the primary is chosen. "cheapest" counts that set-up too.
Operational risk points: spot/preemptible +0.30, +0.15 per doubling of wall-clock beyond a day;
any run +0.05 per doubling beyond a week; community/marketplace tier +0.20; multi-node
+0.10 + 0.10 x log2(nodes); owned or colocated hardware +0.30 (+0.05 with dedicated ops staff);
managed service -0.05; reserved capacity +0.10 (a commitment); meeting the budget or deadline
only at the favourable end of the range +0.30 (cheapest/fastest: ranked after sure ones), and another
+0.30 when the middle of the cost range is over the budget.
Preferred providers: when one of them has a feasible option, the primary is chosen among them.

The primary is the best by the objective; alternatives differ in a way a buyer cares about:
cheapest (>= 5% cheaper, finishing within a month), fastest (>= 5% faster), lowest operational
risk (also finishing within a month, or the primary's time if longer), owned hardware, and the
lowest-cost option of each shortlisted provider
(RecommendSettings.compare_providers); at least two when the catalog allows.
Sensitivity (tools.recommend.sensitivity), expectation checks (tools.recommend.expectations) and
infeasible advice (tools.recommend.infeasible) re-use this engine with shared calculator caches. Every
number comes from a calculator in tools/ and its trace is kept; the recommender itself only compares,
filters and sums rows.

Modules, lowest first: option_id and models (result types, settings), spread (price spread),
candidates (Offer, Layout, Candidate), caches, risk, score, owned, state (one run's shared state),
calculators, pricing, offers, enumerate, engine (the parts of one run), outcome, rank (select,
rerank, alternatives), run (run_engine), options (Candidate -> Option), sensitivity, infeasible,
expectations, and advise (recommend, evaluate_configuration), which this package exports.
"""

from tools.recommend.advise import evaluate_configuration, recommend

__all__ = ["evaluate_configuration", "recommend"]
