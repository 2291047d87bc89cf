"""How bench/serving_accuracy.py reads a published row: a Poisson request rate becomes the load it puts in
flight (Little's law, a fixed point), and a sampled ShareGPT run without totals gets the dataset's means."""

from __future__ import annotations

from bench.calibration_data import load_serving_rows, load_serving_split
from bench.serving_checks import _burst_output_lengths, _burst_requests, _rate_ranges, checks, predict
from bench.serving_cv import SCORED_APART_SIDES, _fit_rows
from bench.serving_rows import (
    EXLLAMAV2_SPEED_TEST_LENGTHS,
    MLPERF_LLAMA2_70B_PROMPT_TOKENS,
    OFFLINE_CONCURRENCY,
    SHAREGPT_LENGTHS,
    _dp_attention,
    _max_batch,
    lengths,
    readings,
)


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


def test_requests_whose_model_stops_on_its_own_get_the_stated_mean_output() -> None:
    # 64 requests of 80-token prompts generated 3842 tokens in all: 60 each, not the 1000 of an unknown length
    assert lengths(_row("dstack-mi300x-llama31-405b-bf16-tp8-vllm-n64-80")) == (80, 60)


def test_a_cap_the_set_up_states_is_the_cap() -> None:
    assert _max_batch(_row("dstack-h100-llama31-405b-fp8-tp8-qps16-sharegpt"), "vllm") == 512
    # TensorRT-LLM's --max_batch_size is per rank under attention DP: 128 x 8 ranks
    row = _row("trtllm-dsr1-h200-r1-fp8-tp8-ep8-c1024-1024-2048")
    assert _dp_attention(row)
    assert _max_batch(row, "tensorrt-llm") == 1024
    # a 2024 vLLM run that states nothing keeps V0's default
    assert _max_batch(_row("dstack-h100-llama31-405b-fp8-tp8-bs4-128-2048"), "vllm") == 256


def test_a_median_itl_under_multi_step_scheduling_is_a_burst_of_steps() -> None:
    row = _row("sglang060-a100-llama31-8b-bf16-vllm-rps4-sharegpt")  # --num-scheduler-steps 10
    itl = next(c for c in checks(row) if c.metric == "ms_per_output_token")
    step = _rate_ranges(row, None, readings(row)[0])[2]
    assert abs(itl.predicted.mid / step.mid - 10) < 1e-6
    # SGLang's run beside it streams every step
    plain = _row("sglang060-a100-llama31-8b-bf16-sglang-rps4-sharegpt")
    itl = next(c for c in checks(plain) if c.metric == "ms_per_output_token")
    step = _rate_ranges(plain, None, readings(plain)[0])[2]
    assert abs(itl.predicted.mid / step.mid - 1) < 1e-6


def test_a_benchmark_serving_sharegpt_run_gets_the_dataset_means() -> None:
    # vLLM's benchmark_serving.py samples ShareGPT like SGLang's bench_serving: not the unknown 1000/1000
    assert lengths(_row("lambda-v0-h100x1-llama31-8b-fp8-320p")) == SHAREGPT_LENGTHS


def test_a_burst_of_sharegpt_requests_drains() -> None:
    row = _row("lambda-v0-h100x1-llama31-8b-fp8-320p")
    assert _burst_requests(row) == 320
    assert _burst_requests(_row("gpustack-h100-qwen3-235b-a22b-fp8-vllm-tp4-sharegpt")) == 984  # successful
    assert _burst_requests(_row("trtllm-v1-h100-llama31-8b-fp8-1000-1000")) is None  # fixed lengths
    outs = _burst_output_lengths(320, 197, 1832)
    assert abs(sum(outs) / len(outs) - 197) < 2 and max(outs) > 5 * 197  # the long tail that drains
    # throughput x mean ITL = sequences in flight on average: far below the 256 the engine admits
    tps = next(c for c in checks(row) if c.metric == "output_tokens_per_s").predicted
    itl = next(c for c in checks(row) if c.metric == "ms_per_output_token").predicted
    assert 40 < tps.mid * itl.mid / 1000 < 160


def test_an_mlperf_llama2_run_reads_its_output_length_from_its_own_log() -> None:
    # 31,302.7 tokens/s over 107.477 samples/s; the Server run over its scheduled samples/s
    assert lengths(_row("mlperf41-h200-llama2-70b-fp8-tp1-offline")) == (MLPERF_LLAMA2_70B_PROMPT_TOKENS, 291)
    assert lengths(_row("mlperf41-h200-llama2-70b-fp8-tp1-server"))[1] == 289


def test_a_rate_near_saturation_spans_each_end_at_its_own_load() -> None:
    row = _row("mlperf41-h200-llama2-70b-fp8-tp1-server")
    fast, mid, slow = (predict(row, end=e) for e in ("low", "mid", "high"))
    # the slow end keeps more requests in flight (Little's law), the fast end fewer
    assert fast.live_sequences < mid.live_sequences < slow.live_sequences
    itl = next(c for c in checks(row) if c.metric == "ms_per_output_token").predicted
    assert itl.high == slow.ms_per_output_token.high and itl.low <= mid.ms_per_output_token.low


def test_exllamav2_readme_speeds_are_its_speed_tests_first_stretch() -> None:
    assert lengths(_row("exllamav2-4090-llama-13b-gptq")) == EXLLAMAV2_SPEED_TEST_LENGTHS


def test_a_default_cap_below_what_the_run_shows_in_flight_was_not_the_runs() -> None:
    # 2,629 tokens/s x 143 ms per token = 376 sequences decoding at once: more than vLLM's 2024 default 256
    assert _max_batch(_row("mlperf41-mi300x-llama2-70b-fp8-tp1-server"), "vllm") is None
    assert _max_batch(_row("lambda-v0-h100x1-llama31-8b-fp8-320p"), "vllm") == 256  # 67 in flight


def test_qwens_batch_one_speed_counts_the_whole_request() -> None:
    # speed_benchmark_vllm.py: 2,048 tokens over one llm.generate() call, the 30,720-token prefill included
    long = _row("qwen25-a100-72b-bf16-vllm-tp4-in30720")
    speed = next(c for c in checks(long) if c.metric == "output_tokens_per_s").predicted
    assert speed.high < predict(long).output_tokens_per_s.high * 0.95
    short = _row("qwen25-a100-72b-bf16-vllm-tp4-in1")  # a one-token prompt: the decode rate, near enough
    speed = next(c for c in checks(short) if c.metric == "output_tokens_per_s").predicted
    assert abs(speed.mid / predict(short).output_tokens_per_s.mid - 1) < 0.02


def test_a_burst_admits_prompts_within_the_engines_chunked_prefill_budget() -> None:
    from bench.serving_rows import _prefill_chunk_budget

    # vLLM 0.5.4 turned chunked prefill on by itself for Llama 3.1's 128K context, 512 tokens a step
    assert _prefill_chunk_budget(_row("lambda-v0-h100x1-llama31-8b-fp8-320p"), "vllm") == 512
    # ... not where the KV cache cannot hold a 128K sequence (the run had to shorten max_model_len)
    assert _prefill_chunk_budget(_row("lambda-v0-h100x1-llama31-70b-fp8-320p"), "vllm") is None
    # ... nor where the run set a short max_model_len itself
    assert _prefill_chunk_budget(_row("sglang060-a100-llama31-8b-bf16-vllm-offline-sharegpt"), "vllm") is None
    # vLLM V1 serve on an H100: 8192
    assert _prefill_chunk_budget(_row("gpustack-h100-qwen3-235b-a22b-fp8-vllm-tp4-sharegpt"), "vllm") == 8192


def test_cv_band_is_the_widest_within_the_width_cap() -> None:
    # bench/serving_accuracy.widest_band: per fold, the widest candidate band whose median width over the
    # training families stays within WIDTH_CAP; the left-out family's own widths do not count
    from bench.serving_cv import WIDTH_CAP, widest_band

    def figs(width: float, held_out_width: float) -> list[tuple[str, str, str, float, float, float, bool]]:
        train = [("r", f"fam{i}", "ms_per_output_token", 1.0, 1.0, width, True) for i in range(5)]
        return [*train, ("h", "held", "output_tokens_per_s", 1.0, 1.0, held_out_width, True)]

    by_band = {1.2: figs(1.44, 9.0), 1.26: figs(WIDTH_CAP - 0.01, 9.0), 1.3: figs(WIDTH_CAP + 0.05, 1.0)}
    assert widest_band(by_band, "held") == 1.26
    assert widest_band({1.2: figs(2.0, 1.0), 1.3: figs(2.5, 1.0)}, "held") == 1.2  # none fits: narrowest


def test_cv_coverage_criterion_counts_training_figures_inside_within_the_width_cap() -> None:
    # bench/serving_accuracy._covered (CV_CRITERIA "coverage"): a fold's point is scored by the training
    # families' throughput and ITL figures inside their range; the left-out family and TTFT do not count,
    # and a point whose training median width is over WIDTH_CAP scores 0 (coverage is not bought with width)
    from bench.serving_cv import WIDTH_CAP, _covered

    narrow = [
        ("a", "fam0", "output_tokens_per_s", 10.0, 9.0, 11.0, True),  # inside
        ("b", "fam1", "ms_per_output_token", 12.0, 9.0, 11.0, True),  # outside
        ("c", "fam2", "per_user_tokens_per_s", 10.5, 9.0, 11.0, True),  # inside
        ("d", "fam3", "ttft_s", 10.0, 9.0, 11.0, True),  # TTFT: not counted
        ("e", "held", "output_tokens_per_s", 10.0, 9.0, 11.0, True),  # the left-out family: not counted
    ]
    assert _covered(narrow, "held") == 2
    assert _covered(narrow, None) == 3
    wide = [(r, fam, m, pub, 1.0, WIDTH_CAP + 0.5, fit) for r, fam, m, pub, _, _, fit in narrow]
    assert _covered([(r, fam, m, 1.2, lo, hi, fit) for r, fam, m, _, lo, hi, fit in wide], "held") == 0


def test_the_cv_leaves_the_fresh5_side_out_and_reads_h2ogpt_on_transformers() -> None:
    fresh5 = set(load_serving_split().sides()["fresh5_held_out"])
    assert "fresh5_held_out" in SCORED_APART_SIDES
    assert not fresh5 & {r.family for r in _fit_rows()}  # scored apart, never fitted
    h2o = [r for r in load_serving_rows() if r.family == "h2ogpt-perf-transformers"]
    assert h2o and all(readings(r) == [(r.weights_precision or "bf16", "transformers")] for r in h2o)
