"""Attention without a memory-efficient kernel ("eager" or standard attention): the s x s score matrix of
every head goes through GPU memory, a memory-bound cost quadratic in the sequence that the FLOPs count
does not see. With FlashAttention / cuDNN / SDPA's fused kernels the scores stay on chip and this term is 0.

    seconds_per_token = layers x heads x seq_len x bytes_per_score / memory_bandwidth
    throughput_eff'   = 1 / (1 / throughput_eff + peak_flops x seconds_per_token / flops_per_token)

(a token's computed time plus its share of the score traffic: the softmax kernels run between the GEMMs,
not beside them). Per token and layer a sequence of s tokens moves s^2 scores per head, i.e. s per token;
the causal mask is not skipped by an eager implementation.
"""

from __future__ import annotations

from tools.catalog.schema import GpuSpec
from tools.ranges import Range
from tools.trace import TraceBuilder
from tools.units import tflops_to_flops

# Standard attention (Dao et al. 2022, FlashAttention, arXiv 2205.14135, Algorithm 0 and the standard
# backward of Appendix B.3): the forward writes S = QK^T, reads it, writes P = softmax(S) and reads it for
# PV (4 passes of the s x s matrix); the backward reads P (dV), writes dP, reads P and dP and writes dS, and
# reads dS for dQ and again for dK (7 passes): 11 passes per head. At 2 bytes a score (BF16) that is 22 B;
# at 4 B (the softmax kept in FP32, as Hugging Face's eager attention upcasts it and JAX/Praxis compute
# it) 44 B. Mask, scale and dropout kernels add passes; the range's top covers them only in part.
EAGER_SCORE_PASSES = 11
EAGER_BYTES_PER_SCORE = Range(low=2.0 * EAGER_SCORE_PASSES, high=4.0 * EAGER_SCORE_PASSES)
EAGER_ATTENTION_SOURCE = (
    "FlashAttention (Dao et al. 2022) Alg. 0 + App. B.3 standard attention: 11 HBM passes of the s x s "
    "scores per head, 2 B (BF16) to 4 B (FP32 softmax) each"
)


def eager_seconds_per_token(
    *, n_layers: int, n_heads: int, seq_len: float, bytes_per_score: float, gpu: GpuSpec
) -> float:
    """Seconds per trained token spent moving the attention scores through memory (eager attention)."""
    return n_layers * n_heads * seq_len * bytes_per_score / (gpu.memory_bandwidth_tb_per_s * 1e12)


def with_eager_attention(
    tb: TraceBuilder,
    thr: Range,
    *,
    n_layers: int,
    n_heads: int,
    seq_len: float,
    gpu: GpuSpec,
    peak_tflops: float,
    flops_per_token: float,
) -> Range:
    """The throughput efficiency with the eager score traffic added to each token's time (the slow end
    with the most bytes per score)."""
    peak_flops = tflops_to_flops(peak_tflops)

    def score_seconds(bytes_per_score: float) -> float:
        return eager_seconds_per_token(
            n_layers=n_layers, n_heads=n_heads, seq_len=seq_len, bytes_per_score=bytes_per_score, gpu=gpu
        )

    b = EAGER_BYTES_PER_SCORE
    seconds = Range(low=score_seconds(b.low), high=score_seconds(b.high))
    tb.assume(
        "attention_kernel",
        f"eager (no FlashAttention): {b.low:.0f}-{b.high:.0f} B per score",
        "",
        EAGER_ATTENTION_SOURCE,
    )
    out = Range(
        low=1.0 / (1.0 / thr.low + peak_flops * seconds.high / flops_per_token),
        high=1.0 / (1.0 / thr.high + peak_flops * seconds.low / flops_per_token),
    )
    tb.step(
        "throughput_efficiency_eager_attention",
        "1 / (1 / throughput_efficiency + peak_flops x layers x heads x seq_len x bytes_per_score "
        "/ (memory_bandwidth x flops_per_token))",
        out.mid,
        "fraction",
        EAGER_ATTENTION_SOURCE,
        n_layers=n_layers,
        n_heads=n_heads,
        seq_len=seq_len,
        memory_bandwidth_tb_per_s=gpu.memory_bandwidth_tb_per_s,
        score_seconds_per_token_low=seconds.low,
        score_seconds_per_token_high=seconds.high,
        low=out.low,
        high=out.high,
    )
    return out
