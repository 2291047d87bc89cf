"""Pipeline bubble and communication-bound steps (tools.compute.parallel): the formulas, that the FSDP
gather cap binds only where the link is slow or the micro-batch thin, and that no fit row is bound."""

from __future__ import annotations

import pytest

from bench.calibration_data import load_training_rows
from bench.time_fit import fit
from bench.time_rows import row_parallel
from tools.catalog.schema import GpuSpec
from tools.compute.parallel import pipeline_efficiency, pipeline_efficiency_range
from tools.compute.training import estimate_training_time


def test_pipeline_efficiency_is_the_megatron_bubble() -> None:
    # Narayanan et al. 2021: bubble (p-1)/(v m) of the ideal time -> busy share v m / (v m + p - 1)
    assert pipeline_efficiency(stages=8, micro_batches=8) == pytest.approx(8 / 15)
    assert pipeline_efficiency(stages=8, micro_batches=8, virtual_stages=2) == pytest.approx(16 / 23)
    assert pipeline_efficiency(stages=1, micro_batches=1) == 1.0
    unstated = pipeline_efficiency_range(stages=4, micro_batches=None)  # GPipe: 4-8 per stage
    assert unstated.low == pytest.approx(16 / 19) and unstated.high == pytest.approx(32 / 35)


def _full_8b(gpu: GpuSpec, batch_size: int | None = 1, **kw: object) -> float:
    t = estimate_training_time(
        active_params=8e9,
        tokens=1e9,
        method="full",
        grad_checkpointing=True,
        gpu=gpu,
        n_gpus=8,
        seq_len=2048,
        batch_size=batch_size,
        attention_shape=(32, 4096),
        traced=False,
        **kw,  # type: ignore[arg-type]
    )
    return t.tokens_per_s_per_gpu.mid


def test_fsdp_gathers_bind_over_pcie_not_over_nvlink(gpus: dict[str, GpuSpec]) -> None:
    # 8B full fine-tune, 2k tokens per micro-batch: 20 bytes/param moved per micro-batch
    for gid, bound in (("h100-sxm", False), ("l40s", True), ("rtx-4090", True)):
        plain = _full_8b(gpus[gid])
        sharded = _full_8b(gpus[gid], sharding="fsdp")
        assert (sharded < plain * 0.99) is bound, gid
    # over PCIe the step waits for ~2 x 16 GB of gathers + 32 GB of FP32 gradients at ~18-27 GB/s
    assert _full_8b(gpus["l40s"], sharding="fsdp") < 0.6 * _full_8b(gpus["l40s"])


def test_pipeline_stages_slow_the_plan(gpus: dict[str, GpuSpec]) -> None:
    # the bubble alone (batch unstated: no optimizer-update term, whose per-token share falls with the
    # pipeline's micro-batches and its 1/8 of the weights per GPU; tools.compute.optimizer_update, tim16)
    base = _full_8b(gpus["h100-sxm"], batch_size=None)
    piped = _full_8b(gpus["h100-sxm"], batch_size=None, pipeline_stages=8, pipeline_micro_batches=8)
    assert piped == pytest.approx(base * 8 / 15, rel=1e-6)


def test_no_fit_row_is_comm_bound() -> None:
    # the rows whose rate the collectives may set are DeepSpeed ZeRO runs only (PaddleNLP's thin steps,
    # FlagPerf's ZeRO-3 at 4k tokens): left out of the constants; no FSDP / NCCL row is comm-bound
    f = fit()
    rows = {r.id: r for r in load_training_rows()}
    bound = f["comm_bound_fit_rows"]
    assert isinstance(bound, list) and len(bound) == 5
    assert all(rows[i].framework == "deepspeed" for i in bound)
    # the others sit below the cap even at its slow end: 1.45 (OLMo-core FP8; 3.78 when written, read
    # then at the cap's fast end)
    assert isinstance(f["min_comm_headroom"], float) and f["min_comm_headroom"] >= 1.0


def _full_7b_4x_a100(gpus: dict[str, GpuSpec], **kw: object) -> float:
    t = estimate_training_time(
        active_params=6.74e9,
        tokens=1e9,
        grad_checkpointing=False,
        gpu=gpus["a100-80gb-sxm"],
        n_gpus=4,
        seq_len=256,
        batch_size=2,
        attention_shape=(32, 4096),
        traced=False,
        **{"method": "full", **kw},  # type: ignore[arg-type]
    )
    return t.tokens_per_s_per_gpu.mid


def test_zero2_step_sync_adds_to_a_thin_step(gpus: dict[str, GpuSpec]) -> None:
    # 7B full fine-tune, 2 x 256 tokens per GPU per step: DeepSpeed's ZeRO-2 moves ~20 GB around each
    # optimizer step at 0.11-0.21 of NVLink, several times the step's compute (PaddleNLP's 4x A100 runs)
    ds = {"framework": "deepspeed"}
    plain = _full_7b_4x_a100(gpus, **ds)
    zero2 = _full_7b_4x_a100(gpus, sharding="zero2", **ds)
    assert zero2 < 0.5 * plain
    # gradient accumulation spreads the same sync over more tokens
    assert _full_7b_4x_a100(gpus, sharding="zero2", gradient_accumulation_steps=16, **ds) > 2 * zero2
    # DDP overlaps its all-reduce with the backward over NCCL's large-message rate: capped, not added
    assert _full_7b_4x_a100(gpus, sharding="ddp") > zero2
    # LoRA synchronises only its adapters: nothing to wait for
    lora = {"method": "lora", **ds}
    assert _full_7b_4x_a100(gpus, sharding="zero2", **lora) == _full_7b_4x_a100(gpus, **lora)


def test_deepspeed_zero3_gathers_run_below_fsdps(gpus: dict[str, GpuSpec]) -> None:
    # the same gathers at DeepSpeed's share of the link (PR #1188: 0.11-0.14) bind where FSDP's do not;
    # a plan's 'zero3' without a framework stands for ZeRO-3 or FSDP: NCCL's rate
    ds = _full_7b_4x_a100(gpus, sharding="zero3", framework="deepspeed")
    assert ds < _full_7b_4x_a100(gpus, sharding="fsdp")
    assert _full_7b_4x_a100(gpus, sharding="zero3") == _full_7b_4x_a100(gpus, sharding="fsdp") > ds


def test_rows_parallel_layouts_are_read_from_the_source_text() -> None:
    rows = {r.id: r for r in load_training_rows()}
    tt = row_parallel(rows["torchtitan-h100-llama31-405b-3d-interleaved"])
    # torchtitan: micro-batches default to the PP degree; interleaved = at least 2 chunks per stage
    assert (tt.pipeline_stages, tt.pipeline_micro_batches, tt.virtual_stages, tt.sharding) == (
        8,
        8,
        2,
        "fsdp",
    )
    mb = row_parallel(rows["mbridge2511-h100-llama31-405b-fp8cs"])
    assert (mb.tensor_parallel, mb.pipeline_stages, mb.virtual_stages, mb.pipeline_micro_batches) == (
        8,
        8,
        8,
        64,
    )
    # the Model Zoo's "VPP 4" is Megatron's virtual pipeline size too
    mz = row_parallel(rows["mz-qwen3-235b-deepep-ep32-pp8"])
    assert (mz.tensor_parallel, mz.pipeline_stages, mz.virtual_stages, mz.pipeline_micro_batches) == (
        2,
        8,
        4,
        128,
    )
    # a micro-batch the row's own configuration sets (BLOOM's replica setup: MBS 2 at GBS 2048 over DP 8)
    bloom = row_parallel(rows["bloom-176b-384xa100-gbs2048"])
    assert (bloom.tokens_per_micro_batch_sequences, bloom.pipeline_micro_batches) == (2, 128)


def test_a_pipelines_step_sync_spreads_over_its_micro_batches(gpus: dict[str, GpuSpec]) -> None:
    # ZeRO-1 synchronises once per optimizer step; a pipeline runs all its micro-batches in that step, so
    # the sync's share falls as they grow (BLOOM 176B: 128 per step at the full batch, 1 at GBS 16)
    def rate(micro_batches: int | None, sharding: str | None) -> float:
        t = estimate_training_time(
            active_params=176e9,
            tokens=1e9,
            method="pretraining",
            grad_checkpointing=True,
            gpu=gpus["a100-80gb-sxm"],
            n_gpus=384,
            seq_len=2048,
            batch_size=2,
            attention_shape=(70, 14336),
            framework="deepspeed",
            sharding=sharding,  # type: ignore[arg-type]
            tensor_parallel=4,
            pipeline_stages=12,
            pipeline_micro_batches=micro_batches,
            traced=False,
        )
        return t.tokens_per_s_per_gpu.mid

    def sync_share(micro_batches: int | None) -> float:
        return 1 - rate(micro_batches, "zero1") / rate(micro_batches, None)

    # 20 GB of 16-bit gradients and weights per step: under 5% of a 128-micro-batch step (before, counted
    # per micro-batch, it took a third of it)
    assert sync_share(128) < 0.05
    assert sync_share(1) > 3 * sync_share(128)
    # unstated micro-batches: 4-8 per stage, as for the bubble
    assert sync_share(128) < sync_share(None) < sync_share(1)
