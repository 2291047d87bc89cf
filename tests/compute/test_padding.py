"""Unpacked data (tools.compute.padding): each micro-batch computes its longest sample's length; the
estimate counts the samples' tokens, runs attention over the padded length, and spans either end of
the published instruction sets when the data set's lengths are not given."""

from __future__ import annotations

import pytest

from bench.time_rows import DATASET_LENGTHS
from tools.catalog.schema import GpuSpec
from tools.compute.padding import SHORT_INSTRUCTION_DATA, UNSTATED_LENGTHS, SampleLengths, padding
from tools.compute.training import TrainingTime, estimate_training_time
from tools.errors import InputError


def test_one_sample_per_micro_batch_has_no_padding() -> None:
    p = padding(lengths=SHORT_INSTRUCTION_DATA, samples_per_micro_batch=1, max_tokens=4096)
    assert p.efficiency == pytest.approx(1.0)
    assert p.useful_tokens_per_sample == pytest.approx(SHORT_INSTRUCTION_DATA.mean_tokens, rel=0.01)


def test_more_samples_pad_more() -> None:
    # Alpaca (WildChat Table 1: 84 +- 67 tokens) padded to the longest of 2, 4, 8 samples
    effs = [
        padding(lengths=SHORT_INSTRUCTION_DATA, samples_per_micro_batch=b, max_tokens=641).efficiency
        for b in (1, 2, 4, 8)
    ]
    assert effs == sorted(effs, reverse=True)
    assert 0.5 < effs[2] < 0.62  # 4 samples: a little over half the computed tokens are samples
    # equal lengths never pad; truncation caps the padded length
    flat = padding(lengths=SampleLengths(100, 0, "test"), samples_per_micro_batch=8, max_tokens=64)
    assert flat.efficiency == 1.0 and flat.padded_tokens_per_sample == 64
    with pytest.raises(InputError):
        SampleLengths(0, 1, "test")


def _lora_7b(gpu: GpuSpec, **kw: object) -> TrainingTime:
    return estimate_training_time(
        active_params=6.74e9,
        tokens=1e9,
        method="lora",
        grad_checkpointing=False,
        gpu=gpu,
        n_gpus=1,
        seq_len=641,
        batch_size=4,
        attention_shape=(32, 4096),
        framework="hf",
        **kw,  # type: ignore[arg-type]
    )


def test_unpacked_runs_count_samples_not_padding(gpus: dict[str, GpuSpec]) -> None:
    a100 = gpus["a100-80gb-sxm"]
    packed = _lora_7b(a100)
    alpaca = _lora_7b(a100, packed=False, sample_lengths=DATASET_LENGTHS["tatsu-lab/alpaca"])
    # short padded samples: thin micro-batches and padding, ~1/3 of the packed rate (PaddleNLP's HF PEFT
    # LoRA on one A100: 1,589 tokens/s published)
    assert alpaca.tokens_per_s_per_gpu.mid < 0.45 * packed.tokens_per_s_per_gpu.mid
    assert alpaca.tokens_per_s_per_gpu.low < 1589 < alpaca.tokens_per_s_per_gpu.high
    names = {a.name for a in alpaca.assumptions}
    assert {"sequence_packing", "sample_tokens"} <= names


def test_unstated_lengths_span_both_published_ends(gpus: dict[str, GpuSpec]) -> None:
    a100 = gpus["a100-80gb-sxm"]
    either = _lora_7b(a100, packed=False)
    ends = [_lora_7b(a100, packed=False, sample_lengths=x) for x in UNSTATED_LENGTHS]
    rate = either.tokens_per_s_per_gpu
    assert rate.low == min(e.tokens_per_s_per_gpu.low for e in ends)
    assert rate.high == max(e.tokens_per_s_per_gpu.high for e in ends)
    assert any(a.name == "sample_tokens_unstated" for a in either.assumptions)
    assert "sample lengths" in either.narrowing[0]
