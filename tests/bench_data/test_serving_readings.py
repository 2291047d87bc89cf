"""How bench/serving_accuracy.py reads a published row: a Poisson request rate becomes the load it puts in
flight (Little's law, a fixed point), and a sampled ShareGPT run without totals gets the dataset's means."""

from __future__ import annotations

from bench.calibration_data import load_serving_rows
from bench.serving_accuracy import OFFLINE_CONCURRENCY, SHAREGPT_LENGTHS, lengths, predict


def _row(row_id: str):  # type: ignore[no-untyped-def]
    return next(r for r in load_serving_rows() if r.id == row_id)


def test_a_request_rate_is_read_as_the_load_it_keeps_in_flight() -> None:
    row = _row("sglang060-a100-llama31-8b-bf16-sglang-rps4-sharegpt")
    t = predict(row)
    seconds = t.time_to_first_token_s.mid + t.output_tokens * t.ms_per_output_token.mid / 1000
    # before: read as an offline run (100,000 requests queued): a first token after hours
    assert 1 <= t.concurrency < OFFLINE_CONCURRENCY
    assert abs(t.concurrency - 4 * seconds) <= max(2.0, 0.25 * t.concurrency)  # Little's law holds
    assert t.time_to_first_token_s.high < 5


def test_a_sampled_sharegpt_run_without_totals_gets_the_dataset_means() -> None:
    assert lengths(_row("sglang060-a100-llama31-8b-bf16-sglang-rps4-sharegpt")) == SHAREGPT_LENGTHS
    # a run that states its totals keeps its own means
    assert lengths(_row("dstack-h100-llama31-405b-fp8-tp8-qps16-sharegpt")) == (215, 121)
