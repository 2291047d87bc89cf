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


def _full_8b(gpu: GpuSpec, **kw: object) -> float:
    t = estimate_training_time(
        active_params=8e9,
        tokens=1e9,
        method="full",
        grad_checkpointing=True,
        gpu=gpu,
        n_gpus=8,
        seq_len=2048,
        batch_size=1,
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
    base = _full_8b(gpus["h100-sxm"])
    assert _full_8b(gpus["h100-sxm"], pipeline_stages=8, pipeline_micro_batches=8) == pytest.approx(
        base * 8 / 15, rel=1e-6
    )


def test_no_fit_row_is_comm_bound() -> None:
    f = fit()
    assert f["comm_bound_fit_rows"] == 0
    assert isinstance(f["min_comm_headroom"], float) and f["min_comm_headroom"] > 2.0  # 3.78 when written


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
