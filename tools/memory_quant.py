"""How a quantised (4/8-bit) training base holds memory beyond its packed weights (issue 15): the dtype of its
non-quantised parameters and forward, and the inputs bitsandbytes' 4-bit matmul keeps for the backward.

Sources (read 2026-11-27 through the stored-code search):
- bitsandbytes bitsandbytes/nn/modules.py Linear4bit.forward: `inp_dtype = x.dtype`,
  `x = x.to(self.compute_dtype)`, `out = bnb.matmul_4bit(x, ...)`, `out = out.to(inp_dtype)`: the output
  takes the dtype of the input.
- bitsandbytes bitsandbytes/autograd/_functions.py MatMul4Bit.forward: `if any(ctx.needs_input_grad[:2]):
  ctx.tensors = (A, B)`: the (compute-dtype) input A is kept on the autograd context until the backward,
  whether or not any weight trains. A frozen 16-bit nn.Linear keeps no input (the input gradient needs the
  weight only).
- peft src/peft/utils/other.py prepare_model_for_kbit_training: 'cast all non INT8 parameters to fp32' (every
  fp16/bf16 parameter that is not a Params4bit), so norms, embeddings and LM head become fp32.
- transformers from_pretrained(torch_dtype=torch.float32) with a BitsAndBytesConfig: the modules bitsandbytes
  does not replace (embeddings, norms, LM head) stay in the requested fp32 (as the universal-llm-trainer
  model classes load a 4-bit base: src/univlt/models/llama3.py, read 2026-11-27 on branch mem10).
"""

from __future__ import annotations

from tools.memory_arch import adapted_linears
from tools.memory_types import Plan

FP32_UNQUANTIZED_BYTES = 4.0
"""Bytes per non-quantised parameter (embeddings, norms, LM head) of an fp32-loaded or peft-cast 4-bit
base."""

FP32_FORWARD_SCALE = 4.0 / 2.0
"""With fp32 non-quantised modules and no autocast, Linear4bit returns fp32 (`out.to(inp_dtype)`), so every
tensor a layer keeps that the 16-bit count holds at 2 B (residual stream, norms, q/k/v, attention output, MLP
gate/up/activation, the LoRA path) is 4 B: the layer's 16-bit bytes x 4/2. The loss runs on fp32 logits."""

FP32_FINAL_NORM_BYTES_PER_H = 4 + 4 + 4
"""The final RMSNorm per token and hidden unit in an fp32 forward: its input, the normalised copy and the
output the LM head keeps, all fp32 (tools.memory_activations.FINAL_NORM_BYTES_PER_H is 2 + 4 + 2)."""

QUANT_INPUT_BYTES = 2.0
"""MatMul4Bit keeps its input in the compute dtype (bf16/fp16: Linear4bit casts x to compute_dtype first)."""


def unquantized_bytes(plan: Plan, default: float) -> float:
    """Bytes per non-quantised parameter of the plan's base: fp32 when `fp32_unquantized`, else `default`."""
    return FP32_UNQUANTIZED_BYTES if plan.fp32_unquantized else default


def quant_saved_input_bytes_per_token(plan: Plan) -> float:
    """Bytes per token and layer of the 4-bit linears' kept inputs (MatMul4Bit `ctx.tensors = (A, B)`).

    One kept tensor per distinct input: the attention block's normed input (shared by the projections that
    read the hidden state), each other attention projection's own input (o_proj's: the attention output; MLA's
    up-projections: their latents), the MLP's normed input (gate/up) and down_proj's input (the MLP width;
    MoE: the width of every expert a token visits plus the shared experts'). A 16-bit adapter without dropout
    keeps the same tensor for its lora_A (peft LoraLayer.forward: lora_A(dropout(x)) with dropout
    nn.Identity), so an adapted group adds nothing; fp32 adapters (mixed precision) or an fp32 forward keep a
    different tensor, so the 4-bit linear's copy is extra.
    """
    arch = plan.arch
    h = arch.hidden_size
    shares = (
        plan.adapters
        and plan.training_precision != "mixed"
        and plan.lora_dropout == 0
        and not plan.fp32_unquantized
    )
    attn_adapted, mlp_adapted = adapted_linears(arch, plan.lora_targets) if plan.adapters else ({}, {})
    total = 0.0
    from_hidden = [n for n, (d_in, _) in arch.attention_linears().items() if d_in == h and n != "o_proj"]
    if not (shares and any(n in attn_adapted for n in from_hidden)):
        total += h
    for name, (d_in, _) in arch.attention_linears().items():
        if name in from_hidden or (shares and name in attn_adapted):
            continue
        total += d_in
    if arch.is_moe and arch.moe_intermediate_size:
        width = arch.moe_intermediate_size * (arch.n_active_experts or 1) + (
            arch.shared_expert_intermediate_size
            or (arch.moe_intermediate_size * arch.n_shared_experts if arch.n_shared_experts else 0)
        )
    else:
        width = arch.intermediate_size
    mlp_in = [n for n in arch.mlp_linears(width) if n != "down_proj"]
    if not (shares and any(n in mlp_adapted for n in mlp_in)):
        total += h
    if not (shares and "down_proj" in mlp_adapted):
        total += width
    return QUANT_INPUT_BYTES * total
