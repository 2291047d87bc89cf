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

The per-token functions give bytes for ONE layer at 16-bit activations; `training_activations` and
`inference_memory` multiply by tokens and layers and divide by the tensor-parallel degree (sequence
parallelism assumed with TP, as in Korthikanti's Table 2 "sbh(34/t + 5as/(ht))").
"""

from __future__ import annotations

from dataclasses import dataclass

from tools import memory_lora
from tools.catalog.schema import ModelArch
from tools.compute.serving_constants import MLA_KV_SOURCE
from tools.memory_arch import adapted_linears, largest_linear_params
from tools.memory_fused_loss import FUSED_LINEAR, FUSED_LINEAR_SOURCE, fused_linear_loss_bytes
from tools.memory_megatron import layer_delta_bytes_per_token
from tools.memory_quant import (
    FP32_FINAL_NORM_BYTES_PER_H,
    FP32_FORWARD_SCALE,
    quant_saved_input_bytes_per_token,
)
from tools.memory_types import KV_CACHE_BYTES_PER_VALUE, Plan
from tools.memory_use_cache import returned_kv_bytes
from tools.trace import TraceBuilder

ACTIVATION_BYTES = 2
"""Activations are stored in 16-bit (bf16/fp16 autocast) in every mode, fp32-master mixed precision too."""

LSE_BYTES_PER_HEAD = 4
"""FlashAttention keeps one fp32 log-sum-exp per head and token for the backward pass (Dao et al. 2022)."""

ATTENTION_SCORE_BYTES = 2 + 4
"""Eager attention per score element: the bf16 softmax probabilities kept for backward (2 B) plus the
fp32 softmax that HF eager attention computes before casting down (4 B, transformers
`softmax(..., dtype=torch.float32)`); Korthikanti's 5 B/element assumed dropout instead of the upcast."""

LOGITS_BYTES_PER_VALUE = 4 + 4 + 4
"""Logits memory per (token, vocab) value at the loss backward, transformers' ForCausalLMLoss: the fp32
log-softmax output saved by cross-entropy (4 B), the fp32 gradient nll_loss hands it (4 B) and the fp32
gradient log-softmax produces (4 B); the bf16 logits and their fp32 upcast are gone by then (trainers
drop `outputs.logits` before backward). Measured exactly 12.00 B/value with the fake-tensor simulator
(bench/accuracy_sim_findings.md section 1)."""

LOGITS_FORWARD_BYTES_PER_VALUE = 2 + 4 + 4
"""At the end of the forward: the bf16 lm_head output (2 B), its fp32 upcast (4 B, `logits.float()`)
and the fp32 log-softmax output (4 B) (bench/accuracy_sim_findings.md section 1)."""

LOGITS_FORWARD_BYTES_PER_VALUE_SHIFT_LOGITS = 4 + 4
"""The loss forward when the model upcasts and then shifts the logits themselves (loss_impl 'shift-logits':
transformers' LlamaForCausalLM before the label-shifting ForCausalLMLoss, 4.3x-4.4x: `logits =
logits.float()`, which frees the bf16 lm_head output as `logits` is rebound, then `logits[..., :-1,
:].contiguous()`): the fp32 logits it returns (4 B) and the fp32 log-softmax (4 B), plus
LOGITS_SHIFT_COPY_BYTES when the batch holds more than one sequence. The backward is
LOGITS_BYTES_PER_VALUE: the slice backward's fp32 zeros come after the log-softmax's tensors are freed."""

LOGITS_FORWARD_BYTES_PER_VALUE_SHIFT_DOWNCAST = 4 + 4 + 2
"""The loss forward of ChatGLM2/3 and GLM-4 remote code (loss_impl 'shift-logits-downcast';
modeling_chatglm.py ChatGLMForConditionalGeneration.forward: `lm_logits = lm_logits.to(torch.float32)`,
`shift_logits = lm_logits[..., :-1, :].contiguous()`, CrossEntropyLoss, then `lm_logits =
lm_logits.to(hidden_states.dtype)` for the output): when the output is cast back, the fp32 logits (4 B,
held by `shift_logits`), the fp32 log-softmax (4 B) and the new 16-bit logits (2 B) are live, plus
LOGITS_SHIFT_COPY_BYTES when the batch holds more than one sequence."""

LOGITS_SHIFT_COPY_BYTES = 4
"""The shifted contiguous fp32 copy of the logits (`logits[..., :-1, :].contiguous()`), which exists only
for a batch of more than one sequence: for one sequence the slice of a (1, T, V) tensor is already
contiguous and .contiguous() returns it. Measured with the fake-tensor storage tracker
(advisor/simulate/tracker.py, 256 tokens x 8192 vocabulary, batch 1 / 2 / 4): loss-forward peaks of 10.5 /
10.2 / 10.1 B per value with label shifting, 8.5 / 12.2 / 12.1 shift-logits, 10.5 / 14.2 / 14.1 GLM."""

CHUNKED_LOSS_CHUNKS = 8
"""torchtune CEWithChunkedOutputLoss splits the logits into 8 chunks and upcasts one chunk at a time."""

LOGITS_BYTES_PER_VALUE_CHUNKED = 2 + 2 + (4 + 4) / CHUNKED_LOSS_CHUNKS
"""Chunked cross-entropy: bf16 logits and their bf16 gradient, plus one fp32 chunk and its gradient."""

LOGITS_BYTES_PER_VALUE_CHUNKED_COMPILED = 2 + (4 + 4) / CHUNKED_LOSS_CHUNKS
"""Chunked cross-entropy compiled (torchtune compile=True compiles compute_cross_entropy: upcast and CE in
one kernel, CEWithChunkedOutputLoss docstring): per value one bf16 tensor at a time (the logits chunk until
its CE backward, then its bf16 gradient; autograd runs every chunk's CE backward before the lm_head
backward), plus one chunk's fp32 upcast and gradient inside the kernel."""

LOGITS_BYTES_PER_VALUE_16BIT = 2 + 2 + 2
"""Loss in the model's 16-bit dtype (no .float() in the model's loss, no autocast: Qwen v1 remote code
modeling_qwen.py `lm_logits[..., :-1, :].contiguous()` then CrossEntropyLoss, under DeepSpeed's fp16
engine): at the loss forward the logits, their shifted contiguous copy and the 16-bit log-softmax; at
the backward the log-softmax, its gradient and the input gradient (half of LOGITS_BYTES_PER_VALUE)."""

LOGITS_BYTES_PER_VALUE_VOCAB_PARALLEL = 2 + 4
"""Megatron-core's vocab-parallel cross-entropy (tensor_parallel/cross_entropy.py, loss_impl 'vocab-parallel';
the fused variant shares its calculate_* steps): at the loss forward the bf16 output-layer logits (2 B, still
referenced by GPTModel.forward) and their fp32 copy (4 B, `.float()`), which is shifted, exponentiated and
normalised in place and saved as the softmax; at the backward that softmax becomes the fp32 gradient in place
(`grad_input = softmax`, `mul_`) and the `.float()` backward casts it to bf16 (2 B). Labels are shifted by the
data loader: no shifted copy. Per value of the tensor-parallel rank's vocabulary slice."""

LOGITS_HELD_BYTES: dict[str, float] = {
    "shift-labels": 2.0,
    "shift-logits": 4.0,
    "shift-logits-downcast": 2.0,
    "16-bit": 2.0,
    "chunked": 0.0,
    "vocab-parallel": 2.0,
    FUSED_LINEAR: 0.0,
}
"""Bytes per logit value that stay live through the backward and the optimizer step when the training
loop holds the model's output (`output = model(...); loss = output.loss; loss.backward()`, the output
dropped only afterwards: AnswerDotAI/fsdp_qlora train.py sets `output = None` after the step, 'so more
memory frees up before the next forward pass'; LitGPT keeps its `logits` list). The output's logits are
what the model returns: bf16 under label shifting (the fp32 upcast is inside the loss), fp32 under
transformers' older `logits = logits.float()` (shift-logits), 16-bit in GLM remote code and in a 16-bit
loss; a chunked loss already counts its bf16 logits. HF Trainer and torchtune drop them before the
backward (LOGITS_BYTES_PER_VALUE's premise)."""

FINAL_NORM_BYTES_PER_H = 2 + 4 + 2
"""The final RMSNorm per token and hidden unit: its bf16 input, the fp32 copy transformers' RMSNorm
makes (`hidden_states.to(torch.float32)`) and the bf16 normalised output the lm_head keeps."""

LAYER_EXTRA_H_BYTES: dict[tuple[str, str], float] = {
    ("full", "amp"): 24.0,
    ("full", "16-bit"): 14.0,
    ("lora", "mixed"): 18.0,
    ("lora", "16-bit"): 10.0,
}
"""Bytes per token x hidden unit each decoder layer keeps beyond the Korthikanti-style count, measured
with the fake-tensor simulator (bench/accuracy_sim_findings.md section 2, transformers 5.x, h = 1024,
8 query / 2 KV heads): RMSNorm's fp32 input copy and, when its weight trains, its normalised output
(+4 h per norm full, +2 h LoRA), the attention output kept twice (SDPA's and o_proj's contiguous copy),
the fp32 residual stream under AMP (full, 'amp': 37 h vs 27 h), and peft's fp32 cast of each adapter
input under mixed precision (LoRA 'mixed': +8 h)."""

ACTIVATION_OFFLOAD_LAYERS_ON_GPU = 2
"""Activation offloading (torchtune OffloadActivations, unsloth's offloaded checkpointing) keeps the
saved tensors of about two layers on the GPU (the one in use and the one being copied)."""

PREFILL_CHUNK_TOKENS = 8192
"""Inference prefill is processed in chunks of at most 8192 tokens (vLLM chunked prefill,
max_num_batched_tokens default for online serving)."""

SAMPLING_LOGITS_BYTES = 4.0
"""Inference keeps one fp32 logits row per sequence for sampling (vLLM computes logits in fp32)."""

LORA_DROPOUT_BYTES_PER_INPUT = 2 + 1
"""PEFT applies lora_dropout to the adapter input: it keeps the dropped-out copy (2 B) and a 1-byte mask
per input element of each adapted linear (peft LoraLayer.forward). With lora_dropout 0 (peft's default)
the dropout is nn.Identity: neither is kept. The simulator measures 2.7 B per input element pure bf16
(Llama-3.1-8B width, 4 layers, s512 b4, no checkpointing: dropout 0.1 minus dropout 0)."""

LORA_DROPOUT_BYTES_PER_INPUT_MIXED = 3.7
"""The same with fp32 adapters (peft autocast_adapter_dtype, mixed precision): the adapter input is cast
to the adapters' fp32 before the dropout, so the kept copy is wider. Measured with the simulator:
3.7 B per input element at 4 and at 32 layers (setting as above; bench/accuracy_sim_findings.md)."""


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


def checkpoint_bytes_per_token(arch: ModelArch, residual_bytes: float = ACTIVATION_BYTES) -> float:
    """With full activation recomputation each layer keeps only its input: 2h bytes per token
    (Korthikanti Section 5: 'full recompute ... 2sbh per layer'); 4h when the residual stream is fp32
    (torch AMP on an fp32 model: measured 4.00 h, bench/accuracy_sim_findings.md section 2)."""
    return float(residual_bytes * arch.hidden_size)


def lora_bytes_per_token(
    adapted: dict[str, tuple[int, int]],
    rank: int,
    per_token_experts: float = 1.0,
    dropout: bool = True,
    dropout_bytes: float = LORA_DROPOUT_BYTES_PER_INPUT,
) -> float:
    """Extra stored bytes per token of the LoRA adapters in one layer.

    Per adapted (d_in, d_out) linear: the dropout copy and mask of the input (`dropout_bytes` x d_in) and the
    rank-r intermediate A(x) kept for B's weight gradient (2r bytes). The frozen base path's own
    activations are already counted by the layer formula (they still flow through the whole network).
    `per_token_experts` scales expert linears to the experts one token visits.
    """
    total = 0.0
    for d_in, _ in adapted.values():
        total += (dropout_bytes * d_in if dropout else 0.0) + ACTIVATION_BYTES * rank
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


@dataclass(frozen=True)
class ActivationParts:
    """Activation bytes per GPU of one training step, by when they are live (tools.memory_phases).

    kept: what every layer keeps for the backward (its input under checkpointing, else everything);
    layer: one layer's activations during its backward (recomputed under checkpointing);
    logits_forward / logits_backward: the logits at the loss forward / loss backward, with the final
    norm; dequant: QLoRA's dequantised weight buffers (any time a layer runs); offloaded: kept bytes
    moved to host memory by activation offloading.
    """

    kept: float
    layer: float
    logits_forward: float
    logits_backward: float
    dequant: float
    offloaded: float = 0.0
    logits_held: float = 0.0
    """The model output's logits the training loop still holds in the backward and the step (logits_held)."""


def _layer_extra_h(plan: Plan) -> tuple[float, str]:
    if not plan.hf_layer_extras:
        return 0.0, f"none ({plan.framework}: Korthikanti's count is its layer's own)"
    if plan.adapters:
        key = ("lora", "mixed" if plan.training_precision == "mixed" else "16-bit")
    else:
        key = ("full", "amp" if plan.amp else "16-bit")
    return LAYER_EXTRA_H_BYTES[key], "/".join(key)


def training_activations(plan: Plan, tb: TraceBuilder) -> ActivationParts:
    """Activation bytes per GPU of one training step, by phase (ActivationParts).

    Without checkpointing every layer's activations are stored and the logits come on top at the loss;
    with full checkpointing (HF gradient_checkpointing: one checkpoint per decoder layer) only the layer
    inputs stay and the backward recomputes one layer at a time. Pipeline parallelism: the first stage
    holds pp micro-batches in flight under 1F1B (Narayanan et al. 2021), so it stores ceil(L/pp) x pp
    layers' worth. Activation offloading moves the kept tensors to host memory but ~2 layers' worth.
    """
    arch, tp, tokens = plan.arch, plan.tp, plan.tokens
    tb.assume("activation_bytes", ACTIVATION_BYTES, "B/value", "16-bit activations under autocast")
    if plan.flash_attention:
        tb.assume(
            "flash_attention_lse_bytes_per_head", LSE_BYTES_PER_HEAD, "B", "FlashAttention (Dao et al. 2022)"
        )
    else:
        tb.assume(
            "attention_score_bytes", ATTENTION_SCORE_BYTES, "B/score", "bf16 probs + fp32 softmax (eager)"
        )
    extra_h, extra_key = _layer_extra_h(plan)
    tb.assume("layer_extra_bytes_per_h", extra_h, "B/(token x h)", f"{extra_key}: simulator-measured")
    per_layer = tb.step(
        "layer_activation_bytes_per_token",
        "attention (4h + 2 x proj outputs + 2 x o_in + lse|scores) + MLP (4h + 8f gated | 4f) + extra x h",
        layer_bytes_per_token(arch, seq_len=plan.seq_len, flash_attention=plan.flash_attention)
        + extra_h * arch.hidden_size,
        "B/token",
        flash_attention=plan.flash_attention,
        seq_len=plan.seq_len,
        extra_bytes_per_h=extra_h,
        source="Korthikanti et al. 2022 Table 2, adapted to SwiGLU/GQA, no dropout; + simulator extras",
    )
    per_layer += layer_delta_bytes_per_token(plan, tb)  # Megatron's fused SwiGLU, FP8 linears
    if plan.adapters:
        attn, mlp = adapted_linears(arch, plan.lora_targets)
        experts = float(arch.n_active_experts or 1) if arch.is_moe else 1.0
        dropout = plan.lora_dropout > 0
        mixed = plan.training_precision == "mixed"
        d_bytes = LORA_DROPOUT_BYTES_PER_INPUT_MIXED if mixed else float(LORA_DROPOUT_BYTES_PER_INPUT)
        lora = lora_bytes_per_token(
            attn, plan.lora_rank, dropout=dropout, dropout_bytes=d_bytes
        ) + lora_bytes_per_token(mlp, plan.lora_rank, experts, dropout=dropout, dropout_bytes=d_bytes)
        if memory_lora.applies(plan):  # peft's fp32 adapters, no autocast: an fp32 input per adapted linear
            d_bytes, dropout = memory_lora.per_input_bytes(plan), True
            lora = (
                lora_bytes_per_token(attn, plan.lora_rank, dropout=True, dropout_bytes=d_bytes)
                + (lora_bytes_per_token(mlp, plan.lora_rank, experts, dropout=True, dropout_bytes=d_bytes))
                - tb.step(
                    "fp32_adapter_freed_inputs",
                    "2 B x distinct 16-bit inputs of the adapted linears (lora_A keeps an fp32 copy instead)",
                    memory_lora.freed_16bit_input_bytes({**attn, **mlp}, ACTIVATION_BYTES),
                    "B/token",
                    source="peft 0.21 lora.Linear.forward _cast_input_dtype; torch derivatives.yaml mm",
                )
            )
        fused = [attn[k][0] for k in ("q_proj", "k_proj", "v_proj") if k in attn]
        if plan.lora_fused_qkv and dropout and len(fused) > 1:
            # one dropout copy of the shared input for the fused q/k/v (Plan.lora_fused_qkv), not one each
            lora -= tb.step(
                "fused_qkv_dropout_saving",
                "(adapted q/k/v - 1) x dropout bytes x d_in (one dropout on the fused projection's input)",
                (len(fused) - 1) * d_bytes * fused[0],
                "B/token",
                source="Lightning-AI/litgpt litgpt/lora.py LoRAQKVLinear.forward (read 2026-11-27)",
            )
        tb.assume("lora_dropout", plan.lora_dropout, "", "0: peft makes the dropout nn.Identity (no copies)")
        fp32_adapters = memory_lora.applies(plan)
        tb.assume("lora_fp32_adapters", fp32_adapters, "", "peft autocast_adapter_dtype, no autocast")
        per_layer += tb.step(
            "lora_activation_bytes_per_token",
            "sum over adapted linears of (dropout bytes x d_in if dropout) + 2r",
            lora,
            "B/token",
            dropout_bytes_per_input=d_bytes if dropout else 0.0,
            rank=plan.lora_rank,
            targets=",".join(plan.lora_targets),
            lora_dropout=plan.lora_dropout,
        )
    if plan.fp32_unquantized:  # tools.memory_quant: Linear4bit returns its input's fp32, no autocast
        per_layer = tb.step(
            "fp32_forward_layer_bytes_per_token",
            "16-bit layer bytes per token x 4/2 (fp32 residual stream, attention, MLP and LoRA tensors)",
            per_layer * FP32_FORWARD_SCALE,
            "B/token",
            source="bitsandbytes Linear4bit.forward out.to(inp_dtype); fp32 non-quantised modules",
        )
    if plan.quant_saves_input:
        per_layer += tb.step(
            "quant_saved_inputs_bytes_per_token",
            "2 B x distinct 4-bit linear inputs per layer (attention in, o_proj in, MLP in, down_proj in; "
            "less those a 16-bit adapter already keeps)",
            quant_saved_input_bytes_per_token(plan),
            "B/token",
            source="bitsandbytes MatMul4Bit.forward: ctx.tensors = (A, B)",
        )
    layers = plan.layers_per_stage * plan.pp if plan.pp > 1 else arch.n_layers
    residual = 4.0 if plan.amp or plan.fp32_unquantized else float(ACTIVATION_BYTES)
    if plan.grad_checkpointing:
        kept_per_layer = checkpoint_bytes_per_token(arch, residual) * tokens / tp
        kept = tb.step(
            "checkpointed_inputs",
            "layers x tokens x residual bytes x h / tp",
            kept_per_layer * layers,
            "B",
            layers=layers,
            tokens=tokens,
            hidden=arch.hidden_size,
            residual_bytes=residual,
            tp=tp,
        )
    else:
        kept_per_layer = per_layer * tokens / tp
        kept = tb.step(
            "stored_activations",
            "layers x tokens x layer_bytes_per_token / tp",
            kept_per_layer * layers,
            "B",
            layers=layers,
            tokens=tokens,
            tp=tp,
        )
    layer = tb.step(
        "one_layer_in_backward",
        "one layer's activations x tokens / tp (recomputed under checkpointing)",
        per_layer * tokens / tp,
        "B",
        layer_bytes_per_token=per_layer,
        tokens=tokens,
        tp=tp,
    )
    offloaded = 0.0
    if plan.activation_offloading:
        on_gpu = min(kept, ACTIVATION_OFFLOAD_LAYERS_ON_GPU * kept_per_layer)
        offloaded = kept - on_gpu
        kept = tb.step(
            "kept_after_offloading",
            "min(kept, 2 layers' worth): the rest waits in host memory",
            on_gpu,
            "B",
            offloaded_bytes=offloaded,
            source="torchtune OffloadActivations / unsloth offloaded gradient checkpointing",
        )
    per_value_fwd, per_value_bwd, loss_source = _logits_bytes(plan)
    norm_h = FINAL_NORM_BYTES_PER_H
    if plan.fp32_unquantized:  # the fp32 LM head's logits: a loss without an upcast runs on fp32 tensors
        scale = FP32_FORWARD_SCALE if not plan.loss_upcast and not plan.loss_chunking else 1.0
        per_value_fwd, per_value_bwd = per_value_fwd * scale, per_value_bwd * scale
        norm_h, loss_source = FP32_FINAL_NORM_BYTES_PER_H, f"{loss_source}; fp32 logits (fp32_unquantized)"
    tb.assume("logits_bytes_per_value", per_value_bwd, "B", loss_source)
    values = tokens * arch.vocab_size / tp
    norm = float(tokens * norm_h * arch.hidden_size)
    if plan.loss_impl == FUSED_LINEAR and not plan.loss_chunking:  # tools.memory_fused_loss: no logits
        norm += tb.step(
            "fused_linear_loss",
            "tokens x (2 B x h + 4 B) / tp (the LM head input's gradient, one fp32 LSE per token)",
            fused_linear_loss_bytes(tokens, arch.hidden_size) / tp,
            "B",
            tokens=tokens,
            hidden=arch.hidden_size,
            source=FUSED_LINEAR_SOURCE,
        )
    logits_bwd = tb.step(
        "logits_at_loss_backward",
        "tokens x vocab x bytes / tp + final norm (8h per token)",
        values * per_value_bwd + norm,
        "B",
        tokens=tokens,
        vocab=arch.vocab_size,
        bytes_per_value=per_value_bwd,
    )
    logits_fwd = tb.step(
        "logits_at_loss_forward",
        "tokens x vocab x bytes / tp + final norm (8h per token)",
        values * per_value_fwd + norm,
        "B",
        bytes_per_value=per_value_fwd,
    )
    held = 0.0
    tb.assume("logits_held", plan.logits_held, "", "loop holds the output through backward + step")
    if plan.logits_held:
        key = "chunked" if plan.loss_chunking else "16-bit" if not plan.loss_upcast else plan.loss_impl
        key = FUSED_LINEAR if plan.loss_impl == FUSED_LINEAR and not plan.loss_chunking else key
        if plan.fp32_unquantized and key not in ("chunked", FUSED_LINEAR):
            key = "shift-logits"  # the model returns the fp32 LM head's logits (4 B), as after logits.float()
        tb.assume("logits_held_bytes_per_value", LOGITS_HELD_BYTES[key], "B", f"output logits held ({key})")
        held = tb.step(
            "logits_held_by_loop",
            "tokens x vocab x held bytes / tp (the loop's output, live through backward and step)",
            values * LOGITS_HELD_BYTES[key],
            "B",
            loss=key,
        )
    if plan.returns_kv_cache:  # past_key_values: with the output at the forward's end, held with it after
        kv = tb.step(
            "returned_kv_cache",
            "2 x layers x tokens x kv_heads x head_dim x 2 B / tp (use_cache=True in training)",
            returned_kv_bytes(arch, tokens, tp),
            "B",
            source="tools.memory_use_cache (llama-recipes PR #165: use_cache=False saves ~4 GB for 7B)",
        )
        logits_fwd += kv
        held += kv if plan.logits_held else 0.0
    dequant = 0.0
    if plan.method == "qlora":
        dequant = tb.step(
            "dequant_buffer",
            "2 x largest linear dequantised to bf16 (forward + backward) / tp",
            2 * largest_linear_params(arch) * ACTIVATION_BYTES / tp,
            "B",
            source="bitsandbytes matmul_4bit: dequantize_4bit then a 16-bit matmul",
            largest_linear_params=largest_linear_params(arch),
            bytes_per_value=ACTIVATION_BYTES,
            tp=tp,
        )
    return ActivationParts(
        kept=kept,
        layer=layer,
        logits_forward=logits_fwd,
        logits_backward=logits_bwd,
        dequant=dequant,
        offloaded=offloaded,
        logits_held=held,
    )


def _logits_bytes(plan: Plan) -> tuple[float, float, str]:
    """(bytes per logit value at the loss forward, at the loss backward, source) for the plan's loss.
    A 16-bit loss (loss_upcast False) already counts its shifted copy (LOGITS_BYTES_PER_VALUE_16BIT)."""
    if plan.loss_chunking and plan.compiled_loss:
        b = LOGITS_BYTES_PER_VALUE_CHUNKED_COMPILED
        return b, b, "chunked cross-entropy, compiled (torchtune compile=True)"
    if plan.loss_chunking:
        b = LOGITS_BYTES_PER_VALUE_CHUNKED
        return b, b, "chunked cross-entropy (torchtune)"
    if plan.loss_impl == FUSED_LINEAR:
        return 0.0, 0.0, f"fused linear cross-entropy, no logits tensor ({FUSED_LINEAR_SOURCE})"
    if not plan.loss_upcast:
        b = LOGITS_BYTES_PER_VALUE_16BIT
        return b, b, "16-bit cross-entropy: no fp32 upcast (model loss without .float(), no autocast)"
    if plan.loss_impl == "vocab-parallel":
        b = LOGITS_BYTES_PER_VALUE_VOCAB_PARALLEL
        return b, b, "Megatron vocab-parallel cross-entropy: bf16 logits + fp32 softmax made in place"
    copy = LOGITS_SHIFT_COPY_BYTES if plan.batch_size > 1 else 0  # one sequence: the slice is contiguous
    if plan.loss_impl == "shift-logits-downcast":
        return (
            LOGITS_FORWARD_BYTES_PER_VALUE_SHIFT_DOWNCAST + copy,
            LOGITS_BYTES_PER_VALUE,
            "fp32 logits + log-softmax + 16-bit output (+ shifted copy if batch > 1; GLM remote code)",
        )
    if plan.loss_impl == "shift-logits":
        return (
            LOGITS_FORWARD_BYTES_PER_VALUE_SHIFT_LOGITS + copy,
            LOGITS_BYTES_PER_VALUE,
            "fp32 logits + log-softmax (+ shifted copy if batch > 1; transformers before label shifting)",
        )
    return (
        LOGITS_FORWARD_BYTES_PER_VALUE,
        LOGITS_BYTES_PER_VALUE,
        "fp32 log-softmax + its gradient + the loss gradient (transformers ForCausalLMLoss)",
    )


def inference_memory(plan: Plan, tb: TraceBuilder) -> tuple[float, float]:
    """(activation bytes, KV-cache bytes) per GPU for serving `concurrency` sequences of `context_len`.

    KV cache: ModelArch.kv_cache_bytes (2 x L x kv_heads x head_dim x tokens x bytes; MLA caches the
    latent; sliding-window layers capped at the window), split over min(tp, kv_heads) (KV heads are
    replicated beyond that), an MLA latent over all tp GPUs (MLA_KV_SOURCE), and over pipeline stages by
    layers.
    """
    arch, tp, kv_value = plan.arch, plan.tp, plan.kv_cache_bytes_per_value
    said = "16-bit KV cache" if kv_value == KV_CACHE_BYTES_PER_VALUE else "the KV cache precision stated"
    tb.assume("kv_cache_bytes_per_value", kv_value, "B", said)
    one = tb.step(
        "kv_cache_per_sequence",
        "2 x L x kv_heads x head_dim x tokens x bytes (MLA: L x (latent + rope))",
        arch.kv_cache_bytes(plan.context_len, kv_value),
        "B",
        layers=arch.n_layers,
        kv_heads=arch.n_kv_heads,
        head_dim=arch.head_dim,
        context_tokens=plan.context_len,
        source="seed 001 KV formula",
    )
    if arch.uses_mla:
        tb.assume("mla_kv_cache", "partitioned over the replica's GPUs", "", MLA_KV_SOURCE)
    split = tp if arch.uses_mla else min(tp, arch.n_kv_heads)
    kv = tb.step(
        "kv_cache_per_gpu",
        "per_sequence x concurrency / min(tp, kv_heads) (MLA: / tp) x stage layers / L",
        one * plan.concurrency / split * plan.layers_per_stage / arch.n_layers,
        "B",
        concurrency=plan.concurrency,
        tp=tp,
        pp=plan.pp,
    )
    prefill = min(plan.context_len, PREFILL_CHUNK_TOKENS)
    tb.assume(
        "sampling_logits_bytes", SAMPLING_LOGITS_BYTES, "B/value", "fp32 logits row per sequence (vLLM)"
    )
    tb.assume("prefill_chunk_tokens", PREFILL_CHUNK_TOKENS, "tokens", "vLLM chunked prefill")
    act = tb.step(
        "inference_activations",
        "prefill_tokens x (4h + 6f) / tp + concurrency x vocab x 4 B",
        prefill * prefill_bytes_per_token(arch) / tp
        + plan.concurrency * arch.vocab_size * SAMPLING_LOGITS_BYTES,
        "B",
        prefill_tokens=prefill,
    )
    return act, kv
