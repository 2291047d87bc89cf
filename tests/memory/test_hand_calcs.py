"""Hand calculations (auditor H8) that the calculator must reproduce exactly, each derived in a comment.

Parameter counts are the catalog's, derived from config.json and checked against the published
safetensors totals in tests/catalog: Llama 3 8B 8,030,261,248; Llama 3/3.1 70B 70,553,706,496.
Tolerance: 1e-9 relative (these are exact products, no estimates involved).
"""

from __future__ import annotations

import pytest

from tools.catalog.load import load_catalog
from tools.memory import estimate_memory

GIB = 2**30
P8B = 8_030_261_248
P70B = 70_553_706_496


def test_llama3_8b_full_mixed_adamw_states() -> None:
    # ZeRO paper Section 3.1, mixed precision Adam: 2 B bf16 weights + 2 B bf16 grads + 12 B fp32
    # (master, m, v) per parameter. 8,030,261,248 x 2 / 2**30 = 14.958 GiB; x 12 = 89.75 GiB.
    # framework deepspeed = the ZeRO accounting; the peak phase (issue 15) is late backward with every
    # gradient live and the fused AdamW step adds no temporaries, so all three lines are in the breakdown.
    est = estimate_memory(arch=load_catalog().model("llama-3-8b"), method="full", framework="deepspeed")
    b = est.breakdown_gib
    assert est.peak_phase == "backward"
    assert b.weights == pytest.approx(P8B * 2 / GIB, rel=1e-9)
    assert b.gradients == pytest.approx(P8B * 2 / GIB, rel=1e-9)
    assert b.optimizer == pytest.approx(P8B * 12 / GIB, rel=1e-9)
    assert est.total_gib == pytest.approx(est.peak_gib_per_gpu, rel=1e-9)  # one GPU


def test_llama3_8b_zero2_over_8_gpus() -> None:
    # ZeRO-2 over dp = 8: optimizer states and gradients divide by 8, weights stay replicated.
    # 89.75 / 8 = 11.22 GiB optimizer, 14.958 / 8 = 1.870 GiB gradients, 14.958 GiB weights; at the step the
    # optimizer also casts its gradient partition to fp32 for the master (tools.memory_zero, DeepSpeed
    # stage_1_and_2.py step()): + 8,030,261,248 x 4 / 8 / 2**30 = 3.739 GiB, so the step is the peak and
    # its optimizer line is (12 + 4) / 8 B per parameter = 14.958 GiB.
    est = estimate_memory(
        arch=load_catalog().model("llama-3-8b"),
        method="full",
        gpus=8,
        sharding="zero2",
        framework="deepspeed",
        seq_len=512,  # short: the optimizer step (all gradient shards and their fp32 copy live) is the peak
    )
    b = est.breakdown_gib
    assert est.peak_phase == "optimizer"
    assert b.optimizer == pytest.approx(P8B * (12 + 4) / 8 / GIB, rel=1e-9)
    assert b.gradients == pytest.approx(P8B * 2 / 8 / GIB, rel=1e-9)
    assert b.weights == pytest.approx(P8B * 2 / GIB, rel=1e-9)


def test_llama3_70b_tp8_pp2_splits_states_sixteen_ways() -> None:
    # tp 8 x pp 2 = 16 GPUs, dp 1: every GPU holds 1/16 of weights, grads and fp32 states.
    # 70,553,706,496 x 2 / 16 / 2**30 = 8.213 GiB; x 12 / 16 = 49.28 GiB. (The 80 layers split 40/40
    # and the embedding / lm_head sit on the first / last stage; the catalog's 70B is symmetric enough
    # that the first stage's share is within 1% of 1/16.)
    est = estimate_memory(
        arch=load_catalog().model("llama-3-70b"), method="full", gpus=16, tp=8, pp=2, framework="deepspeed"
    )
    b = est.breakdown_gib
    assert b.weights == pytest.approx(P70B * 2 / 16 / GIB, rel=0.01)
    assert b.optimizer == pytest.approx(P70B * 12 / 16 / GIB, rel=0.01)


def test_gqa_kv_cache_llama31_70b_32_users_32k() -> None:
    # 2 (K, V) x 80 layers x 8 KV heads x 128 head_dim x 2 B = 327,680 B per token;
    # x 32 sequences x 32,768 tokens = 343,597,383,680 B = exactly 320 GiB.
    est = estimate_memory(
        arch=load_catalog().model("llama-3.1-70b"), method="inference", concurrency=32, context_len=32768
    )
    assert est.breakdown_gib.kv_cache == pytest.approx(320.0, rel=1e-9)


def test_mla_kv_cache_deepseek_v3_32_users_32k() -> None:
    # MLA caches the compressed latent (kv_lora_rank 512) + the decoupled RoPE key (64) per layer:
    # (512 + 64) x 2 B x 61 layers = 70,272 B per token (vs ~4.4 MB/token for 128 full heads);
    # x 32 x 32,768 tokens = 73,685,532,672 B = 68.625 GiB.
    arch = load_catalog().model("deepseek-v3")
    assert (arch.n_layers, arch.kv_lora_rank, arch.qk_rope_head_dim) == (61, 512, 64)
    est = estimate_memory(arch=arch, method="inference", precision="fp8", concurrency=32, context_len=32768)
    assert est.breakdown_gib.kv_cache == pytest.approx(576 * 2 * 61 * 32 * 32768 / GIB, rel=1e-9)
    assert est.breakdown_gib.kv_cache == pytest.approx(68.625, rel=1e-9)


def test_lora_q_v_trainable_params_llama3_8b() -> None:
    # r x (d_in + d_out) per adapted matrix; q_proj 4096 -> 4096, v_proj 4096 -> 1024 (8 KV heads x 128):
    # 16 x (8192 + 5120) = 212,992 per layer x 32 layers = 6,815,744 trainable parameters.
    est = estimate_memory(
        arch=load_catalog().model("llama-3-8b"), method="lora", lora_rank=16, lora_targets="q_proj,v_proj"
    )
    assert est.trainable_params == 6_815_744
