"""LoRA adapters kept in fp32 on a 16-bit base run without autocast (issue 15; Plan.lora_fp32_adapters).

peft's `get_peft_model(model, config, ..., autocast_adapter_dtype=True)` (the default since huggingface/peft
PR #1706, merged 2024-05; the peft troubleshooting guide dates it to v0.11.0; peft 0.21
src/peft/mapping_func.py and tuners_utils `_cast_adapter_dtype`: 'only cast adapter weights using float16 and
bfloat16 to float32') keeps the adapters in fp32 when the base is bf16/fp16; the hf preset
(tools.memory_frameworks) turns the option on. Its
`lora.Linear.forward` (peft 0.21 src/peft/tuners/lora/layer.py) then runs, per adapted linear,

    x = self._cast_input_dtype(x, lora_A.weight.dtype)     # x.to(float32): a new fp32 tensor
    result = result + lora_B(lora_A(dropout(x))) * scaling

so without autocast every adapted linear keeps its own fp32 input: with lora_dropout 0 (nn.Identity) lora_A
(trainable, so mm saves its input: torch derivatives.yaml `mm: mat2: mm_mat2_backward(grad, self, ...)`)
keeps the fp32 cast (4 B per input element); with lora_dropout > 0 it keeps the fp32 dropout output and
the dropout its 1-byte mask (CUDA `native_dropout` saves only the mask), 5 B. Nothing keeps the 16-bit
input any more (the frozen base linear saves none: mm saves `self` only for mat2's gradient), so the
16-bit copies the layer formula counts for the adapted linears' inputs are not kept.

Checked against a lent H200 (bench/data/memory_measurements_device.yaml, Llama-3.1-8B LoRA r16 all-linear,
2 x 2048 tokens, no checkpointing, peft 0.21.0 with get_peft_model's defaults): lora_dropout 0.05 minus 0
is 4.70 GiB measured; 1 B x 38,912 input elements per token and layer x 4096 tokens x 32 layers = 4.75 GiB.
"""

from __future__ import annotations

from tools.memory_types import Plan

FP32_ADAPTER_INPUT_BYTES = 4.0
"""The fp32 cast of the input that lora_A keeps (lora_dropout 0: nn.Identity passes the cast on)."""
FP32_ADAPTER_DROPOUT_BYTES = 4.0 + 1.0
"""The fp32 dropout output lora_A keeps plus the dropout's 1-byte bool mask (lora_dropout > 0)."""
INPUT_GROUPS = (
    ("q_proj", "k_proj", "v_proj", "qkv_proj"),
    ("o_proj",),
    ("gate_proj", "up_proj", "gate_up_proj"),
    ("down_proj",),
)
"""Adapted linears that read one 16-bit tensor (a Llama-style layer): q/k/v (or Phi-3's fused qkv_proj) the
attention norm's output, gate/up (or gate_up_proj) the MLP norm's output; the layer formula counts each such
input once (2 B per element). A fused linear is one adapted linear (tools.memory_arch.adapted_linears), so
peft keeps one fp32 input for it where separate q/k/v keep three."""


def applies(plan: Plan) -> bool:
    """fp32 adapters on a pure 16-bit, unquantised base (mixed precision has its own, autocast, figures)."""
    return plan.lora_fp32_adapters and plan.training_precision != "mixed" and not plan.quantized


def per_input_bytes(plan: Plan) -> float:
    """Bytes kept per input element of each adapted linear (fp32 cast, or fp32 dropout output + mask)."""
    return FP32_ADAPTER_DROPOUT_BYTES if plan.lora_dropout > 0 else FP32_ADAPTER_INPUT_BYTES


def freed_16bit_input_bytes(adapted: dict[str, tuple[int, int]], activation_bytes: float) -> float:
    """Per token: the 16-bit inputs of the adapted linears that nothing keeps once lora_A reads an fp32
    copy, one per group of linears sharing an input (INPUT_GROUPS), as the layer formula counts them."""
    freed = 0.0
    for group in INPUT_GROUPS:
        widths = [adapted[name][0] for name in group if name in adapted]
        if widths:
            freed += activation_bytes * widths[0]
    return freed
