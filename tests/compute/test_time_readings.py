"""How the time bench reads calibration rows (bench/time_rows.py) where a row's table leaves something out:
whole-run figures, micro-batches set by the row's own configuration, recompute counted in the published
FLOPs."""

from __future__ import annotations

import pytest

from bench.calibration_data import load_training_rows
from bench.time_accuracy import predict
from bench.time_rows import row_full_recompute, row_micro_batch, row_parallel, row_whole_run
from tools.catalog.load import load_catalog
from tools.compute.training_inputs import PRETRAINING_GOODPUT


def test_a_whole_runs_gpu_hours_are_compared_with_the_estimates_hours() -> None:
    rows = {r.id: r for r in load_training_rows()}
    gpus = {g.id: g for g in load_catalog().gpus}
    llama2 = rows["llama2-paper-7b"]
    assert row_whole_run(llama2)
    # LLaMA 1's GPU-hours reproduce its steady-state rate (65B: 380 tokens/s/GPU), fms-fsdp states its rate
    assert not row_whole_run(rows["llama1-paper-7b-gpu-hours"])
    assert not row_whole_run(rows["fms-fsdp-llama2-7b-a100-2t-run"])
    whole = predict(llama2, gpus[llama2.gpu], None)
    # the same set-up read as a step rate: the whole run's rate is lower by the pretraining goodput
    step = predict(llama2.model_copy(update={"family": "llama2-paper-as-step"}), gpus[llama2.gpu], None)
    goodput = PRETRAINING_GOODPUT
    assert whole.low == pytest.approx(step.low * goodput.low)
    assert whole.high == pytest.approx(step.high * goodput.high)


def test_a_micro_batch_from_the_rows_own_configuration() -> None:
    rows = {r.id: r for r in load_training_rows()}
    # flash-attention's GPT3 configs pick the batch from the A100 80GB's memory
    assert row_micro_batch(rows["flashattn-gpt3-125m-8xa100"]) == 32
    assert row_micro_batch(rows["flashattn-gpt3-2p7b-8xa100"]) == 4
    # a stated micro-batch wins; an unknown one stays unknown
    assert row_micro_batch(rows["bloom-176b-384xa100-gbs16-rampup"]) == 2
    assert row_micro_batch(rows["llama2-paper-7b"]) is None


def test_recompute_counted_in_the_published_flops_is_read_as_recompute() -> None:
    rows = {r.id: r for r in load_training_rows()}
    zero3 = rows["megatron-sc21-gpt3-175b-zero3-384gpu"]
    assert zero3.gradient_checkpointing is None and row_full_recompute(zero3)
    # elsewhere an unstated checkpointing stays no recompute
    assert not row_full_recompute(rows["llama2-paper-7b"])


def test_fsdp_no_shard_is_data_parallel() -> None:
    rows = {r.id: r for r in load_training_rows()}
    assert row_parallel(rows["answerai-2x3090-llama2-7b-qlora-ddp"]).sharding == "ddp"
    assert row_parallel(rows["answerai-2x3090-yi-34b-qlora-offload"]).sharding == "fsdp"


def test_fresh5_set_ups_read_from_their_sources() -> None:
    rows = {r.id: r for r in load_training_rows()}
    # fms-acceleration's CSVs: tokens/s x runtime = 4096 x micro-batch x steps in every dense row; the MoE
    # CSV's unpacked Alpaca batches average 277 padded tokens; defaults.yaml recomputes every layer
    for rid, seq in (
        ("fmsacc-mistral7b-full-a100-1gpu-bs4", 4096),
        ("fmsacc-powerlm3b-lora-a100-2gpu-bs2", 4096),
        ("fmsacc-powermoe3b-full-a100-4gpu", 277),
    ):
        assert rows[rid].seq_len == seq
        assert row_full_recompute(rows[rid])
    mistral = rows["fmsacc-mistral7b-full-a100-1gpu-bs4"]
    published = {p.metric: float(p.value) for p in mistral.published}
    steps = published["tokens_per_s_per_gpu"] * published["train_runtime_s"] / (4096 * 4)
    assert steps == pytest.approx(30, abs=0.01)
    # Trainy's H200 runs: torchtitan's llama3_8b.toml, 8192 tokens, selective (per-op) recompute = not full
    trainy = rows["trainy-h200-llama31-8b-fp8-32gpu"]
    assert trainy.seq_len == 8192 and trainy.gradient_checkpointing
    assert not row_full_recompute(trainy)
    # SmolLM3's 24-day run is a whole run's rate; the 1B ablation's 42k tokens/s is a step rate
    assert row_whole_run(rows["smollm3-3b-pretrain-384xh100-run"])
    assert not row_whole_run(rows["smol-playbook-1b-ablation-8xh100"])


def test_fresh6_model_cards_are_whole_runs_and_starcoder_pipelines() -> None:
    rows = {r.id: r for r in load_training_rows()}
    # the cards' training tokens over GPUs x training time: whole runs (bench/data/README.md, tim12)
    for rid in (
        "phi3-mini-3.8b-pretrain-512xh100-apr2024",
        "starcoder-15.5b-pretrain-512xa100",
        "falcon-40b-pretrain-384xa100-40gb",
        "stablelm-3b-4e1t-pretrain-256xa100-40gb",
    ):
        assert row_whole_run(rows[rid]), rid
    # LitGPT's runtimes carry no tokens/s and are not read as anything
    assert not row_whole_run(rows["litgpt-falcon-7b-lora-1xa10g"])
    # StarCoder paper: TP4 x PP4 x DP32, micro-batch 1, global batch 512 -> 16 micro-batches per pipeline
    par = row_parallel(rows["starcoder-15.5b-pretrain-512xa100"])
    assert (par.tensor_parallel, par.pipeline_stages, par.pipeline_micro_batches) == (4, 4, 16)
    assert par.tokens_per_micro_batch_sequences == 1


def test_device_rows_take_their_catalog_shape_and_the_kernel_their_run_reported() -> None:
    # tim13: read by a name fragment first, "Qwen3 8B" took Llama 3 8B's 32 layers and "Phi-3 mini (3.8B, 4k)"
    # a 4096 width through "8B"; the catalog (config.json) says 36 layers and 32 heads x 96
    from bench.time_rows import row_attention, row_eager_attention_heads

    rows = {r.id: r for r in load_training_rows()}
    qwen3 = rows["h200-qwen3-8b-full-pure-bf16-fused-ckpt-s2048-b1"]
    phi3 = rows["h200-phi-3-mini-full-pure-bf16-fused-ckpt-s2048-b4"]
    assert row_attention(qwen3) == (36, 32 * 128)
    assert row_attention(phi3) == (32, 32 * 96)
    # Gemma 2 ran transformers' eager attention (bench/device_training_measure.build_model; its run's jsonl):
    # 16 heads (google/gemma-2-9b config), charged as eager; an sdpa device row is not
    gemma2 = rows["h200-gemma-2-9b-lora-pure-bf16-fused-ckpt-s2048-b2-r16-all-linear-d0.0"]
    assert row_eager_attention_heads(gemma2) == 16
    assert row_eager_attention_heads(qwen3) is None
    gpus = {g.id: g for g in load_catalog().gpus}
    as_sdpa = gemma2.model_copy(update={"framework_detail": "plain PyTorch loop (sdpa)"})
    assert predict(gemma2, gpus["h200"], "hf").high < predict(as_sdpa, gpus["h200"], "hf").high
