"""Activation, logits and adapter-intermediate memory of one transformer layer, per token.

The per-layer figures adapt Korthikanti et al. 2022, "Reducing Activation Recomputation in Large
Transformer Models" (arXiv:2205.05198), Section 4.1 / Table 2, to today's decoder-only LLMs:

- Korthikanti count, 16-bit, per layer: s*b*h*(34 + 5*a*s/h) bytes = attention 11sbh + 5as^2b,
  MLP 19sbh, two LayerNorms 4sbh; dropout masks are 1 byte per element.
- Modern LLM fine-tuning runs without dropout (attention_dropout = hidden_dropout = 0 in Llama, Qwen,
  Mistral configs), so the 1-byte masks and the dropout outputs vanish.
- GQA: K and V are n_kv_heads * head_dim wide, not h; head_dim comes from the config.
- SwiGLU: gate, up, SiLU(gate) and the product are each ffn wide (4 tensors of f values, 2 bytes each)
  instead of GeLU's input and output (2 tensors of 4h).
- Memory-efficient attention (FlashAttention / SDPA) stores no a*s*s score matrix; it keeps the output
  and a fp32 log-sum-exp per head and token (Dao et al. 2022, FlashAttention, Section 3.1).

Everything here is bytes per token for ONE layer at 16-bit activations; callers multiply by tokens
and layers and divide by the tensor-parallel degree (sequence parallelism assumed with TP, as in
Korthikanti's Table 2 "sbh(34/t + 5as/(ht))").
"""

from __future__ import annotations

from tools.catalog.schema import ModelArch

ACTIVATION_BYTES = 2
"""Activations are stored in 16-bit (bf16/fp16 autocast) in every mode, fp32-master mixed precision too."""

LSE_BYTES_PER_HEAD = 4
"""FlashAttention keeps one fp32 log-sum-exp per head and token for the backward pass (Dao et al. 2022)."""

ATTENTION_SCORE_BYTES = 2 + 4
"""Eager attention per score element: the bf16 softmax probabilities kept for backward (2 B) plus the
fp32 softmax that HF eager attention computes before casting down (4 B, transformers
`softmax(..., dtype=torch.float32)`); Korthikanti's 5 B/element assumed dropout instead of the upcast."""

LORA_DROPOUT_BYTES_PER_INPUT = 2 + 1
"""PEFT applies lora_dropout to the adapter input: it keeps the dropped-out copy (2 B) and a 1-byte mask
per input element of each adapted linear (peft LoraLayer.forward; recipes use lora_dropout 0.05-0.1)."""


def attention_bytes_per_token(arch: ModelArch, *, seq_len: int, flash_attention: bool) -> float:
    """Stored bytes per token of one attention block (norm, projections, attention core).

    Saved for backward: the norm input (2h), the projection input (2h), every projection output except
    o_proj's (Q, K, V, or MLA's latent projections), the attention output that feeds o_proj, and either
    the log-sum-exp (FlashAttention) or the a*s score matrix per token (eager attention).
    """
    h = arch.hidden_size
    shapes = arch.attention_linears()
    projection_outputs = sum(out for name, (_, out) in shapes.items() if name != "o_proj")
    o_in = shapes["o_proj"][0]
    stored = 2 * h + 2 * h + ACTIVATION_BYTES * projection_outputs + ACTIVATION_BYTES * o_in
    if flash_attention:
        stored += LSE_BYTES_PER_HEAD * arch.n_heads
    else:
        # one row of the a x s x s score tensor per token; sliding-window layers still materialise s x s
        stored += ATTENTION_SCORE_BYTES * arch.n_heads * seq_len
    return float(stored)


def mlp_bytes_per_token(arch: ModelArch) -> float:
    """Stored bytes per token of one MLP block (dense, or the routed + shared experts a token visits).

    Gated (SwiGLU): norm input 2h + MLP input 2h + gate, up, SiLU(gate), gate*up: 4 x 2f.
    Non-gated (GeLU): norm input 2h + input 2h + GeLU input and output 2 x 2f (Korthikanti's 19sbh
    for f = 4h, without the dropout mask).
    """
    h = arch.hidden_size
    per_width = 4 * ACTIVATION_BYTES if arch.mlp_gated else 2 * ACTIVATION_BYTES
    if not arch.is_moe:
        return float(4 * h + per_width * arch.intermediate_size)
    assert arch.moe_intermediate_size is not None and arch.n_experts is not None
    active = arch.n_active_experts or arch.n_experts
    shared = arch.shared_expert_intermediate_size or (
        arch.moe_intermediate_size * arch.n_shared_experts if arch.n_shared_experts else 0
    )
    router_logits = 4 * arch.n_experts  # fp32 router logits / probabilities per token
    # each routed copy of the token also keeps its (permuted) input: 2h per active expert
    return float(
        4 * h + active * (2 * h + per_width * arch.moe_intermediate_size) + per_width * shared + router_logits
    )


def layer_bytes_per_token(arch: ModelArch, *, seq_len: int, flash_attention: bool) -> float:
    """Stored activation bytes per token of one full transformer layer (attention + MLP)."""
    return attention_bytes_per_token(
        arch, seq_len=seq_len, flash_attention=flash_attention
    ) + mlp_bytes_per_token(arch)


def checkpoint_bytes_per_token(arch: ModelArch) -> float:
    """With full activation recomputation each layer keeps only its input: 2h bytes per token
    (Korthikanti Section 5: 'full recompute ... 2sbh per layer')."""
    return float(ACTIVATION_BYTES * arch.hidden_size)


def lora_bytes_per_token(
    adapted: dict[str, tuple[int, int]], rank: int, per_token_experts: float = 1.0
) -> float:
    """Extra stored bytes per token of the LoRA adapters in one layer.

    Per adapted (d_in, d_out) linear: the dropout copy and mask of the input (3 d_in bytes) and the
    rank-r intermediate A(x) kept for B's weight gradient (2r bytes). The frozen base path's own
    activations are already counted by the layer formula (they still flow through the whole network).
    `per_token_experts` scales expert linears to the experts one token visits.
    """
    total = 0.0
    for d_in, _ in adapted.values():
        total += LORA_DROPOUT_BYTES_PER_INPUT * d_in + ACTIVATION_BYTES * rank
    return total * per_token_experts


def prefill_bytes_per_token(arch: ModelArch) -> float:
    """Inference working set per prefill token inside one layer (nothing is kept for a backward pass):
    the residual stream and norm output (2 x 2h) and the MLP's widest moment (gate, up and SiLU
    output: 3 x 2f)."""
    width = (
        arch.moe_intermediate_size if arch.is_moe and arch.moe_intermediate_size else arch.intermediate_size
    )
    active = (arch.n_active_experts or 1) if arch.is_moe else 1
    return float(4 * arch.hidden_size + 3 * ACTIVATION_BYTES * width * active)
