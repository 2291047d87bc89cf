"""transformers' sparse-MoE block in training: a Python loop over the experts a micro-batch hits, host time
the FLOPs count does not see. The block routes the tokens, syncs to learn which experts are hit, then issues
per hit expert its own gather, linears, activation, products, cast and index_add_ (huggingface/transformers
src/transformers/models/qwen3_moe/modeling_qwen3_moe.py, `for expert_idx in expert_hit:`; Mixtral's,
Qwen2-MoE's and GraniteMoE's blocks the same, read 2026-11-28): ~10 eager ops per hit expert per MoE layer,
at the host time per op that the serving model charges for the same loop
(serving_constants.EAGER_HOST_S_PER_HIT_EXPERT, derived from the code, not fitted). A training step runs the
loop forward, again in a recomputed forward, and once more backward (the autograd engine launches about two
kernels per forward op from C++, ~the forward's host time). The time is paid per micro-batch, so it weighs
on fine-grained MoE models (many experts, all hit) at small micro-batches:

    experts_hit        = E x (1 - (1 - k/E)^tokens)              per MoE layer, routing taken as uniform
    host_s_per_pass    = moe_layers x experts_hit x EAGER_HOST_S_PER_HIT_EXPERT
    seconds_per_token  = passes x host_s_per_pass / tokens_per_micro_batch
                         passes = 2 (forward, backward) + 1 with full recompute
    throughput_eff'    = 1 / (1 / throughput_eff + peak_flops x seconds_per_token / flops_per_token)

Only for the stacks that run transformers' own modules (EAGER_MOE_FRAMEWORKS); fused grouped-GEMM MoE stacks
(Megatron, NeMo, torchtitan) launch a few kernels per layer, and an unnamed stack is not assumed to loop.
fms-acceleration's PowerMoE-3B full fine-tunes on A100 (fresh-5: HF Trainer, no ScatterMoE plugin, 8 x 277
tokens a micro-batch) run at 1,245-1,509 tokens/s, 4-5x below the MoE band without this term
(bench/data/README.md, tim10 and tim18).
"""

from __future__ import annotations

from tools.compute.serving_constants import EAGER_HOST_S_PER_HIT_EXPERT, EAGER_MOE_SOURCE
from tools.ranges import Range
from tools.trace import TraceBuilder
from tools.units import seconds_to_ms, tflops_to_flops

EAGER_MOE_FRAMEWORKS = frozenset({"hf", "axolotl", "llama-factory"})
"""Training stacks whose MoE layers are transformers' modules, looped in Python (Transformers Trainer / TRL /
PEFT, and axolotl and LLaMA-Factory, which train the same models)."""
MOE_LOOP_PASSES = 2
"""forward and backward; + 1 with full recompute (the forward runs again inside the backward)"""
MOE_LOOP_SOURCE = f"{EAGER_MOE_SOURCE}; training: forward, backward (+ recompute) each issue the loop"


def experts_hit(*, n_experts: int, experts_per_token: int, tokens: float) -> float:
    """Routed experts `tokens` hit in one MoE layer, routing taken as uniform: E x (1 - (1 - k/E)^t) (each
    expert missed by every token's top-k with probability (1 - k/E) per token)."""
    e, k = float(n_experts), float(experts_per_token)
    miss: float = (1.0 - k / e) ** max(1.0, float(tokens))
    return e * (1.0 - miss)


def moe_loop_seconds_per_token(
    *, n_experts: int, experts_per_token: int, moe_layers: int, tokens_per_micro_batch: float, recompute: bool
) -> float:
    """Host seconds of the expert loop per trained token."""
    hit = experts_hit(n_experts=n_experts, experts_per_token=experts_per_token, tokens=tokens_per_micro_batch)
    passes = MOE_LOOP_PASSES + (1 if recompute else 0)
    return passes * moe_layers * hit * EAGER_HOST_S_PER_HIT_EXPERT / tokens_per_micro_batch


def with_moe_loop(
    tb: TraceBuilder,
    thr: Range,
    *,
    n_experts: int,
    experts_per_token: int,
    moe_layers: int,
    tokens_per_micro_batch: float,
    recompute: bool,
    peak_tflops: float,
    flops_per_token: float,
) -> Range:
    """The throughput efficiency with the expert loop's host time added to each token's time."""
    seconds = moe_loop_seconds_per_token(
        n_experts=n_experts,
        experts_per_token=experts_per_token,
        moe_layers=moe_layers,
        tokens_per_micro_batch=tokens_per_micro_batch,
        recompute=recompute,
    )
    extra = tflops_to_flops(peak_tflops) * seconds / flops_per_token
    # slow end: the loop's host time adds to the GPU's (each layer syncs before its loop); fast end: the GPU
    # runs the layer while the host issues the loop, so the step takes the longer of the two
    out = Range(low=1.0 / (1.0 / thr.low + extra), high=min(thr.high, 1.0 / extra))
    per_expert = f"{seconds_to_ms(EAGER_HOST_S_PER_HIT_EXPERT):.2f} ms per hit expert"
    tb.assume("moe_expert_loop", per_expert, "", MOE_LOOP_SOURCE)
    tb.step(
        "throughput_efficiency_moe_loop",
        "1 / (1 / throughput_efficiency + peak_flops x passes x moe_layers x experts_hit "
        "x host_s_per_hit_expert / (tokens_per_micro_batch x flops_per_token))",
        out.mid,
        "fraction",
        MOE_LOOP_SOURCE,
        experts_hit=experts_hit(
            n_experts=n_experts, experts_per_token=experts_per_token, tokens=tokens_per_micro_batch
        ),
        moe_layers=moe_layers,
        passes=MOE_LOOP_PASSES + (1 if recompute else 0),
        tokens_per_micro_batch=tokens_per_micro_batch,
        moe_loop_seconds_per_token=seconds,
        low=out.low,
        high=out.high,
    )
    return out
