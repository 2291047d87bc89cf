"""One node serving with several engine copies side by side (data parallelism across engines).

A model that fits on fewer GPUs than a node holds can run as `copies` independent engines of n / copies GPUs
each (vLLM `--data-parallel-size`, or one server per GPU group behind a load balancer), the requests split
evenly. Each copy batches and prefills its own share, so the node's output tokens/s is the sum of the
copies' and a user's inter-token latency and time to first token are one copy's. For a small model this
beats one tensor-parallel engine over the whole node: tensor parallelism adds two all-reduces a layer and
splits small GEMMs further (Shoeybi et al. 2019), while copies add none. Published example: Lambda's vLLM
0.5.4 Llama 3.1 8B FP8, 320 ShareGPT prompts, 3,400 output tokens/s on 1x H100 and 3,932 on 8x H100 at TP8
(bench/data/serving_throughput_fresh3.yaml, lambda-v0 family): eight copies of one GPU would give ~8x the
first, TP8 gives 1.16x.
"""

from __future__ import annotations

from tools.compute.serving import ServingTime
from tools.trace import TraceStep


def engine_copies(one: ServingTime, copies: int, concurrency: int) -> ServingTime:
    """The node's figures from `one` copy's at its share ceil(concurrency / copies): tokens/s summed over the
    copies that hold requests (a copy with one request fewer counted pro rata), capacities x copies, the
    per-user and first-token figures the busiest copy's."""
    if copies < 1 or concurrency < 1:
        raise ValueError(f"copies and concurrency must be >= 1, got {copies}, {concurrency}")
    per_copy = one.concurrency
    # requests actually carried over all copies, over what the busiest copy carries, in copies' worth
    filled = min(concurrency, copies * per_copy) / per_copy
    step = TraceStep(
        step="engine copies on the node",
        formula="node tokens/s = copy tokens/s x concurrency / requests per copy",
        inputs={"copies": copies, "gpus_per_copy": one.n_gpus, "requests_per_copy": per_copy,
                "concurrency": concurrency},  # fmt: skip
        output=filled,
        unit="copies' worth of tokens/s",
        source="tools/compute/serving_copies.py (data parallelism across engines)",
    )
    return one.model_copy(
        update={
            "n_gpus": one.n_gpus * copies,
            "concurrency": concurrency,
            "live_sequences": min(concurrency, one.live_sequences * copies),
            "max_concurrency": one.max_concurrency * copies,
            "framework_max_batch": one.framework_max_batch * copies,
            "output_tokens_per_s": one.output_tokens_per_s.scale(filled),
            "engine_copies": one.engine_copies * copies,
            "trace": (*one.trace, step) if one.trace else (),
        }
    )
