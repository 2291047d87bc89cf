"""A loss fused into the LM head's matmul (loss_impl 'fused-linear'): no logits-sized tensor (issue 15).

Two implementations run this way, and stacks ship both:
- Cut Cross-Entropy (Wijmans et al. 2024, "Cut Your Losses in Large-Vocabulary Language Models",
  arXiv:2411.09009; apple/ml-cross-entropy, as axolotl's CutCrossEntropyPlugin installs it:
  axolotl-ai-cloud/ml-cross-entropy cut_cross_entropy/cce.py, read 2026-11-28). The patched
  `*ForCausalLM.forward` (cut_cross_entropy/transformers/llama.py cce_forward) calls
  linear_cross_entropy(hidden_states, lm_head.weight, labels) in training and returns `logits=None`.
  LinearCrossEntropyFunction.forward computes each token's log-sum-exp blockwise in SRAM and saves
  `(e, c, bias, lse, targets, valids, logit_avg)`: the LM head's input (already counted as the final norm's
  output), the weight, one fp32 LSE per token and, for gradient filtering, one fp32 average per vocabulary
  entry. The backward (cce_backward_kernel) recomputes the logits block by block and returns the input's
  gradient `de` (tokens x h in the input's dtype; accum_e_fp32 defaults to False) and, only when the LM head
  trains, the weight's gradient (counted with the other gradients).
- Liger-Kernel's fused linear cross-entropy (linkedin/Liger-Kernel ops/fused_linear_cross_entropy.py; the
  default of apply_liger_kernel_to_* and of HF Trainer / LLaMA-Factory / axolotl use_liger_kernel):
  the tokens are cut into chunks of about tokens / ceil(V / h), so one chunk's logits hold about tokens x h
  values; the forward computes the input's gradient (tokens x h, 16-bit) chunk by chunk and keeps it for the
  backward. Its transient chunk (about 2 B x h per token, up to twice that by the power-of-two rounding) is
  freed before the next chunk: the figure below keeps the gradient and the LSE only, as for CCE.

Per token, at the loss and through the backward: FUSED_LINEAR_LOSS_BYTES_PER_H x h + FUSED_LINEAR_LSE_BYTES.
No logits-sized block is ever allocated, so the caching allocator keeps no logits segment
(tools.memory_reserve) and a loop that holds the output holds no logits (the output's logits are None).
"""

from __future__ import annotations

from typing import Final

FUSED_LINEAR: Final = "fused-linear"
"""The loss_impl name (tools.memory_frameworks.LOSS_IMPLS)."""

FUSED_LINEAR_LOSS_BYTES_PER_H = 2.0
"""The LM head input's gradient per token and hidden unit: 16-bit (CCE `de` in the input's dtype; Liger's
grad_input, made in the forward)."""

FUSED_LINEAR_LSE_BYTES = 4.0
"""One fp32 log-sum-exp per token, saved for the backward (CCE `lse`)."""

FUSED_LINEAR_SOURCE = (
    "Cut Cross-Entropy (arXiv:2411.09009; axolotl-ai-cloud/ml-cross-entropy cut_cross_entropy/cce.py) and "
    "Liger-Kernel fused_linear_cross_entropy: the loss is computed from the LM head's input and weight "
    "blockwise, no logits tensor"
)
"""Where the fused loss's bytes come from (module docstring)."""


def fused_linear_loss_bytes(tokens: float, hidden: int) -> float:
    """Bytes the fused loss adds per GPU for `tokens` tokens of width `hidden` (module docstring)."""
    return tokens * (FUSED_LINEAR_LOSS_BYTES_PER_H * hidden + FUSED_LINEAR_LSE_BYTES)


__all__ = [
    "FUSED_LINEAR",
    "FUSED_LINEAR_LOSS_BYTES_PER_H",
    "FUSED_LINEAR_LSE_BYTES",
    "FUSED_LINEAR_SOURCE",
    "fused_linear_loss_bytes",
]
