"""Serving accuracy, row mapping: how bench/serving_accuracy.py reads a published serving row into the
model's inputs (catalog model, mean prompt / output lengths, weights precision and engine readings, the
engine's stated caps and token budgets, its release generation) and runs tools.compute.serving at a load.
The readings themselves are listed in bench/serving_accuracy.py's docstring."""

from __future__ import annotations

import re

from bench.calibration_data import ServingRow
from tools.catalog.load import Catalog, load_catalog
from tools.compute.serving import Batching, ServingEfficiency, ServingTime, estimate_serving_time
from tools.compute.serving_constants import VLLM_LARGE_GPU_MIN_GIB, VLLM_V1_DEFAULT
from tools.compute.serving_steps import released_before
from tools.memory_states import stored_weight_bytes

MODEL_IDS = {
    "Llama 3.1 8B": "llama-3.1-8b",
    "Llama 3.3 70B": "llama-3.3-70b",
    "Llama 3.1 70B": "llama-3.1-70b",
    "Llama 3.1 405B": "llama-3.1-405b",
    "Qwen3 235B-A22B": "qwen3-235b-a22b",
    "LLaMA 7B": "llama-2-7b",  # LLaMA 1 7B: the same shapes as Llama 2 7B
    "LLaMA 70B": "llama-2-70b",  # the 2023 TensorRT-LLM table's 70B is Llama 2 70B (GQA)
    "Llama 2 13B": "llama-2-13b",
    "Llama 2 70B": "llama-2-70b",
    "Mistral 7B Instruct v0.3": "mistral-7b-v0.3",
    # the fresh held-out families' names (bench/data/README.md), mapped by name only
    "Llama 2 7B": "llama-2-7b",
    "Llama 3 8B": "llama-3-8b",
    "Llama 3 70B": "llama-3-70b",
    "Qwen3 8B": "qwen3-8b",
    "Qwen3 235B-A22B (Instruct-2507)": "qwen3-235b-a22b",
    "Mixtral 8x7B": "mixtral-8x7b",
    # the fresh-2 held-out families' names (bench/data/serving_throughput_fresh2.yaml), mapped by name only
    "DeepSeek-R1": "deepseek-v3",  # the same architecture (the catalog lists R1 as an alias)
    # the fresh-3 held-out families' names (bench/data/serving_throughput_fresh3.yaml), mapped by name only:
    # chat / instruct fine-tunes share their base model's architecture
    "DeepSeek-V3": "deepseek-v3",
    "Hermes 3 Llama 3.1 405B": "llama-3.1-405b",
    "LLaMA 13B": "llama-2-13b",  # LLaMA 1 13B: the same shapes as Llama 2 13B
    "Llama 2 7B Chat": "llama-2-7b",
    "Llama 2 13B Chat": "llama-2-13b",
    "Llama 2 70B Chat": "llama-2-70b",
    "Mixtral 8x7B Instruct v0.1": "mixtral-8x7b",
    "Mixtral 8x22B Instruct v0.1": "mixtral-8x22b",
    "Qwen2.5 7B Instruct": "qwen2.5-7b",
    "Qwen2.5 14B Instruct": "qwen2.5-14b",
    "Qwen2.5 32B Instruct": "qwen2.5-32b",
    "Qwen2.5 72B Instruct": "qwen2.5-72b",
    # the fresh-4 held-out families' names (bench/data/serving_throughput_fresh4.yaml), mapped by name only;
    # AWQ is the weights' format (the row's weights_precision), not another architecture
    "Meta-Llama-3-8B": "llama-3-8b",
    "Llama 3.1 70B Instruct": "llama-3.1-70b",
    "Llama 3.3 70B Instruct": "llama-3.3-70b",
    "Llama 3.1 405B Instruct": "llama-3.1-405b",
    "Qwen2.5 7B Instruct AWQ": "qwen2.5-7b",
    # the fresh-5 held-out families' names (bench/data/serving_throughput_fresh5.yaml), each the catalog
    # model of the same shapes: chat fine-tunes keep their base's shapes; Qwen2-7B has Qwen2.5-7B's (28
    # layers, hidden 3584, 28 query / 4 KV heads; both config.json files); Vicuna v1.3 is LLaMA 1 (Llama 2
    # 7B's shapes), v1.5 is Llama 2. Yi-6B (4 KV heads), MPT, Falcon and OASST-30B have no catalog model.
    "Llama-2-7B": "llama-2-7b",
    "Llama-2-70B": "llama-2-70b",
    "llama2-70b-chat": "llama-2-70b",
    "h2ogpt-4096-llama2-7b-chat": "llama-2-7b",
    "h2ogpt-4096-llama2-13b-chat": "llama-2-13b",
    "vicuna-7b-v1.3": "llama-2-7b",
    "vicuna-13b-v1.5": "llama-2-13b",
    "Mixtral-8x7B-v0.1": "mixtral-8x7b",
    "Qwen2.5-32B": "qwen2.5-32b",
    "Qwen2-7B-Instruct": "qwen2.5-7b",
    # the fresh-6 held-out families' names (bench/data/serving_throughput_fresh6.yaml), mapped by name only
    # before any fresh-6 score: instruct and coder fine-tunes share their base model's architecture
    # (Qwen2.5-Coder 7B/32B: the Qwen2.5 7B/32B shapes in their config.json). Nemotron Nano/Super (hybrid
    # Mamba / NAS-pruned), GPT-OSS, GLM-4.6, Kimi K2, Qwen3-Coder-Next have no catalog model; DeepSeek-R1
    # FP4 is fp4 weights (not in the precision vocabulary).
    "Llama-3.1-70B (base, 'Meta-Llama/Llama-3.1-70B')": "llama-3.1-70b",
    "Llama-3.1-8B-Instruct": "llama-3.1-8b",
    "Qwen3-235B-A22B": "qwen3-235b-a22b",
    "Qwen3-235B-A22B-Instruct-2507": "qwen3-235b-a22b",
    "Qwen3-30B-A3B": "qwen3-30b-a3b",
    "Qwen3-Coder-30B-A3B-Instruct": "qwen3-30b-a3b",
    "Qwen3-32B": "qwen3-32b",
    "Qwen2.5-Coder-7B-Instruct": "qwen2.5-7b",
    "Qwen2.5-Coder-32B-Instruct": "qwen2.5-32b",
    # the fresh-7 held-out families' names (bench/data/serving_throughput_fresh7.yaml), mapped by name only
    # before any per-row fresh-7 error was read: DeepSeek-R1 is DeepSeek-V3's architecture (the same
    # config.json shapes); LLaMA 1 7B / 13B have Llama 2 7B / 13B's shapes (as Vicuna v1.3 above); AutoAWQ's
    # "Mistral 7B" is v0.1 (vocabulary 32,000 against v0.3's 32,768, nothing else differs). MPT 7B, DeepSeek
    # Coder 33B and LLaMA 30B have no catalog model.
    "DeepSeek-R1 (deepseek-ai/DeepSeek-R1)": "deepseek-v3",
    "Llama-3.1-8B-Instruct FP8 (neuralmagic/Meta-Llama-3.1-8B-Instruct-FP8)": "llama-3.1-8b",
    "Vicuna 7B (lmsys/vicuna-7b-v1.5, Llama-2-7B based)": "llama-2-7b",
    "Mistral 7B": "mistral-7b-v0.3",
    "Falcon 7B": "falcon-7b",
    "CodeLlama 34B": "codellama-34b",
    "Llama-2-13B": "llama-2-13b",
    "Qwen2.5-7B-Instruct": "qwen2.5-7b",
    "LLaMA 7B (v1), 4-bit 128g": "llama-2-7b",
    "LLaMA 13B (v1), 4-bit 128g": "llama-2-13b",
}
UNKNOWN_LENGTH_TOKENS = 1000
SHAREGPT_LENGTHS = (216, 197)
"""Mean prompt / output tokens of a ShareGPT_V3 benchmark run whose source states no totals: the median of
the runs in this data that do state them (GPUStack 1000-prompt runs 212,894 / 193,865 and 215,312 /
196,656 tokens; dstack 215,196 input), the same dataset file that vllm and sglang bench_serving sample."""
MLPERF_LLAMA31_8B_LENGTHS = (1000, 150)
"""MLPerf Inference v5.1 llama3.1-8b (CNN/DailyMail summarisation), mean prompt / output tokens: articles
average 781 words (See et al. 2017, "Get To The Point", table 1), ~1.3 Llama 3 tokens a word with the
instruction template -> ~1000; the reference summaries average 611 characters (mlcommons/inference
language/llama3.1-8b README: gen_len 8,167,644 over gen_num 13,368) at ~4 characters a token -> ~150."""
MLPERF_LLAMA2_70B_PROMPT_TOKENS = 150
"""MLPerf Inference llama2-70b (OpenOrca, 24,576 samples), mean prompt tokens with Llama 2's chat template:
no source states it, so from the dataset's size: the published MLPerf-OpenOrca set (ctuning/MLPerf-OpenOrca
on Hugging Face, the same 24,576 rows: id, system_prompt, question, response) holds 41,708,098 bytes, 1,681
bytes of text a row after Arrow's offsets, ~420 tokens at ~4 characters a token; less the reference answer,
taken as long as the run's own answers (~291 tokens, _mlperf_output_tokens), and the id, plus the
'[INST] <<SYS>> ... [/INST]' template and the appended first-token id (mlcommons/inference
language/llama2-70b/processorca.py): ~150."""
EXLLAMAV2_SPEED_TEST_LENGTHS = (1, 128)
"""ExLlamaV2's README speed table ('quick tests to compare performance with ExLlama V1', no lengths given):
test_inference.py's speed test (-s) starts from a one-token prompt and reports tokens/s per 128-token stretch,
the first at an empty context (ExLlama V1's table quoted that 'best' speed beside the full-context one)."""
_TOTALS = re.compile(r"([\d,]+) input / ([\d,]+) generated tokens")
_PROMPTS = re.compile(r"(\d[\d,]*) (?:prompts|successful)")
_GENERATED = re.compile(r"(\d[\d,]*) request\(s\) sent at once \(([\d,]+) generated tokens in total\)")
_DRAWN_TOTALS = re.compile(r"([\d,]+) input and ([\d,]+) generated tokens over ([\d,]+) requests")
"""A random dataset's printed totals (sglang.bench_serving 'Total input tokens' / 'Total generated tokens'
over 'Successful requests'): SGLang's random dataset draws each length up to --random-*-len, so the means are
about half the flags (sgl-project/sgl-cookbook docs/autoregressive/Qwen/Qwen3.md, '5.1 Speed Benchmark':
6,101 input tokens over 10 requests at --random-input-len 1000)."""
OFFLINE_CONCURRENCY = 100_000  # "all requests at once": the model caps it at what the cache holds


def skip_reason(row: ServingRow) -> str | None:
    if row.model.name not in MODEL_IDS:
        return f"no architecture for {row.model.name} in the catalog"
    if row.weights_precision in ("fp4", "mxfp4"):
        return "fp4 weights are not in the precision vocabulary"
    gpu, arch = _catalog().gpu(row.gpu), _catalog().model(MODEL_IDS[row.model.name])
    weights_gib = stored_weight_bytes(arch, readings(row)[0][0]) / 2**30
    if weights_gib > row.gpus * gpu.usable_memory_gib:
        return (
            f"the weights ({weights_gib:.0f} GiB) do not fit the row's {row.gpus} x "
            f"{gpu.usable_memory_gib:.0f} GiB: the set-up (CPU offload or another model) cannot be reproduced"
        )
    if row.family == "blog-spheron-h100":
        return (
            "70B FP8 on ONE H100 at 50 requests: weights (~67 GiB) leave no KV cache at default memory "
            "utilisation and prompt/output lengths are unpublished; the set-up cannot be reproduced"
        )
    if row.id == "tharindu-l4-qwen2.5-coder-7b-hf-bs1":
        return (
            "30.2 tokens/s at batch 1 is 33 ms a token, where reading the 15.7 GB of 16-bit weights the page "
            "states (its L4 memory table) takes at least 52 ms at the L4's 300 GB/s: the figure cannot be "
            "reproduced"
        )
    return None


def lengths(row: ServingRow) -> tuple[int, int]:
    """Mean prompt and output tokens: the row's fixed lengths; else the means of the totals the dataset
    states ('N prompts, M successful (X input / Y generated tokens)'); else the MLPerf dataset's
    (MLPERF_LLAMA31_8B_LENGTHS) or a sampled ShareGPT run's (SHAREGPT_LENGTHS); else UNKNOWN_LENGTH_TOKENS."""
    prompt, output = row.prompt_tokens, row.output_tokens
    text = row.dataset or ""
    totals, counts, generated = _TOTALS.search(text), _PROMPTS.findall(text), _GENERATED.search(text)
    drawn = _DRAWN_TOTALS.search(text)
    if drawn:  # a random dataset's lengths, drawn per request: the means of the printed totals
        n = int(drawn.group(3).replace(",", ""))
        prompt = prompt or round(int(drawn.group(1).replace(",", "")) / n)
        output = output or round(int(drawn.group(2).replace(",", "")) / n)
    elif generated:  # requests sent at once whose model stops on its own: the mean of the stated total
        output = output or round(
            int(generated.group(2).replace(",", "")) / int(generated.group(1).replace(",", ""))
        )
    elif totals and counts:
        n = int(counts[-1].replace(",", ""))  # the successful requests when stated, else the prompts
        prompt = prompt or round(int(totals.group(1).replace(",", "")) / n)
        output = output or round(int(totals.group(2).replace(",", "")) / n)
    elif row.framework_detail == "ExLlamaV2":  # the README's speed table: test_inference.py -s
        prompt, output = prompt or EXLLAMAV2_SPEED_TEST_LENGTHS[0], output or EXLLAMAV2_SPEED_TEST_LENGTHS[1]
    elif row.family == "llamacpp-gpu-benchmarks":  # llama-bench `tg` runs generate with no prompt
        prompt = prompt or 1
    elif "MLPerf" in text and "llama2-70b" in text:
        prompt = prompt or MLPERF_LLAMA2_70B_PROMPT_TOKENS
        output = output or _mlperf_output_tokens(row)
    elif "MLPerf" in text and "llama3.1-8b" in text:
        prompt, output = prompt or MLPERF_LLAMA31_8B_LENGTHS[0], output or MLPERF_LLAMA31_8B_LENGTHS[1]
    elif text.startswith("ShareGPT") and re.search(r"bench(mark)?_serving", text):  # sampled, totals unstated
        prompt, output = prompt or SHAREGPT_LENGTHS[0], output or SHAREGPT_LENGTHS[1]
    return prompt or UNKNOWN_LENGTH_TOKENS, output or UNKNOWN_LENGTH_TOKENS


def _mlperf_output_tokens(row: ServingRow) -> int | None:
    """Mean output tokens of an MLPerf LLM run from its own log summary: tokens/s over samples/s (Offline
    'Samples per second', Server 'Scheduled samples per second'), 288-293 for llama2-70b; None if not
    published."""
    by_metric = {f.metric: f.value for f in row.published if isinstance(f.value, (int, float))}
    tokens = by_metric.get("tokens_per_s")
    samples = by_metric.get("samples_per_s") or by_metric.get("scheduled_samples_per_s")
    return round(tokens / samples) if tokens and samples else None


def readings(row: ServingRow) -> list[tuple[str, str | None]]:
    """(weights precision, framework) pairs the row allows."""
    gpu = _catalog().gpu(row.gpu)
    per_profile = row.framework == "other"
    precisions = ["bf16"] + (["fp8"] if gpu.fp8_dense_tflops and per_profile else [])
    if row.weights_precision:
        precisions = [row.weights_precision]
    frameworks: list[str | None] = ["vllm", "tensorrt-llm"] if row.framework == "other" else [row.framework]
    return [(p, f) for p in precisions for f in frameworks]


VLLM_V0_LONG_CONTEXT_CHUNK_TOKENS = 512
"""vLLM's V0 engine turns chunked prefill on by itself for a model whose max_model_len exceeds 32K (on CUDA,
without a sliding window, speculative decoding or LoRA), with max_num_batched_tokens 512 (vllm/engine/
arg_utils.py: 'Chunked prefill is enabled by default for models with max_model_len > 32K'; config.py: 'Chunked
prefill is enabled with max_num_batched_tokens=512')."""
VLLM_V1_SERVE_CHUNK_TOKENS = (8192, 2048)
"""vLLM's V1 engine always chunks prefill; `vllm serve`'s max_num_batched_tokens is 8192 on a GPU of at least
70 GiB that is not an A100, else 2048 (arg_utils.py get_batch_defaults, VLLM_MAX_NUM_SEQS_SOURCE)."""
_MAX_MODEL_LEN = re.compile(r"max[-_]model[-_]len[ =](\d+)", re.IGNORECASE)
_K_CONTEXT = re.compile(r"\((\d+)k context\)")
LONG_CONTEXT_TOKENS = 32 * 1024


def _prefill_chunk_budget(row: ServingRow, framework: str | None) -> int | None:
    """Tokens a step may carry when the engine chunks prompts, for a finite burst: the stated budget; else
    vLLM V1's default; else, on vLLM's V0 engine, 512 when it turned chunked prefill on by itself (a model
    context over 32K that the run did not shorten and that the replica's KV cache holds, no sliding window);
    None: whole prompts in steps of their own (V0's default). Other engines: the stated budget only."""
    stated = _stated(row, framework, _STATED_BUDGET)
    if stated or framework != "vllm":
        return stated
    version, month = row.framework_version, _source_month(row)
    if not released_before(version, month, VLLM_V1_DEFAULT):
        gpu = _catalog().gpu(row.gpu)
        large = gpu.usable_memory_gib >= VLLM_LARGE_GPU_MIN_GIB and "a100" not in gpu.name.lower()
        return VLLM_V1_SERVE_CHUNK_TOKENS[0 if large else 1]
    arch = _catalog().model(MODEL_IDS[row.model.name])
    stated_len = _MAX_MODEL_LEN.search(row.notes or "")
    stated_k = _K_CONTEXT.search(row.notes or "")
    context = arch.max_context
    if stated_len:
        context = int(stated_len.group(1))
    elif stated_k:
        context = int(stated_k.group(1)) * 1024
    if context <= LONG_CONTEXT_TOKENS or arch.sliding_window:
        return None
    held = _predict_at(row, 1, None, None, (context, 1, "static")).max_concurrency
    return VLLM_V0_LONG_CONTEXT_CHUNK_TOKENS if held >= 1 else None


def _predict_at(
    row: ServingRow,
    concurrency: int,
    eff: ServingEfficiency | None,
    reading: tuple[str, str | None] | None,
    shape: tuple[int, int, Batching] | None = None,
) -> ServingTime:
    """The model at `concurrency` with the row's set-up; `shape` (prompt, output, batching) overrides the
    row's request shape (the finite-burst simulation's decode-only steps)."""
    cat = _catalog()
    precision, framework = reading or readings(row)[0]
    kv = row.kv_precision if row.kv_precision in ("bf16", "fp16", "fp8") else None
    prompt, output = lengths(row)
    batching: Batching = "static" if row.load_mode == "static_batch" else "continuous"
    if shape:
        prompt, output, batching = shape
    return estimate_serving_time(
        arch=cat.model(MODEL_IDS[row.model.name]),
        gpu=cat.gpu(row.gpu),
        n_gpus=row.tp,
        precision=precision,  # type: ignore[arg-type]
        kv_precision=kv,
        concurrency=concurrency,
        prompt_tokens=prompt,
        output_tokens=output,
        framework=framework,  # type: ignore[arg-type]
        batching=batching,
        traced=False,
        efficiency=eff,
        max_batch=_max_batch(row, framework),
        grouped_kv_reads=not (framework == "tensorrt-llm" and row.framework_version in PRE_XQA_TRTLLM),
        mla_dp_attention=_dp_attention(row),
        engine_version=row.framework_version if row.framework == framework else None,
        engine_date=_source_month(row) if row.framework == framework else None,
        scheduler_steps=_scheduler_steps(row),
        max_tokens_per_step=_stated(row, framework, _STATED_BUDGET),
        kv_cache_gib=_stated_kv_cache_gib(row),
    )


_KV_CACHE_GIB = re.compile(r"KV cache limited to ([\d.]+) GiB")


def _stated_kv_cache_gib(row: ServingRow) -> float | None:
    """The KV cache the run's engine log states ('KV cache limited to 5.01 GiB by --gpu-memory-utilization
    (0.25)': dennislee22/vLLM-benchmarking README.md, Tests 4, 5, 7), which a lowered utilisation sets far
    below the default's; None when the row states none."""
    m = _KV_CACHE_GIB.search(row.notes or "")
    return float(m.group(1)) if m else None


_YEAR_MONTH = re.compile(r"\d{4}-\d{2}")


def _source_month(row: ServingRow) -> str | None:
    """'YYYY-MM' of the run: the first month the source's date states ('2025 (vLLM 0.7.3, released 2025-02)'
    -> 2025-02), for the engine generations; None when it states none."""
    m = _YEAR_MONTH.search(row.source.date)
    return m.group(0) if m else None


_SCHEDULER_STEPS = re.compile(r"(?:--num-scheduler-steps?|scheduler steps) (\d+)")


def _scheduler_steps(row: ServingRow) -> int:
    """vLLM multi-step scheduling as the row's set-up states it (--num-scheduler-steps N); else 1."""
    m = _SCHEDULER_STEPS.search(row.notes or "")
    return max(1, int(m.group(1))) if m else 1


def _streamed_burst_steps(row: ServingRow) -> int:
    """Steps between two streamed chunks that a median inter-token latency measures: vLLM's multi-step
    scheduling (--num-scheduler-steps k) runs k decode steps per scheduler call and hands their tokens to
    the output stream together (vLLM v0.6.0 blog, 'Batch scheduling multiple steps ahead'), so the typical
    gap a streaming client times (sglang/vllm bench_serving: one ITL per chunk) is k steps. A mean ITL
    also averages the single steps a waiting prefill forces, so it is not read this way."""
    if not any(f.metric == "itl_ms_median" for f in row.published):
        return 1
    return _scheduler_steps(row)


def _stated(row: ServingRow, framework: str | None, patterns: dict[str, re.Pattern[str]]) -> int | None:
    """A per-engine figure the row's set-up states, per attention rank under data-parallel attention (so
    times the ranks)."""
    stated = patterns[framework].search(row.notes or "") if framework in patterns else None
    if not stated:
        return None
    return int(stated.group(1)) * (row.tp if _dp_attention(row) else 1)


_STATED_BUDGET = {
    "vllm": re.compile(r"max-num-batched-tokens (\d+)"),
    "tensorrt-llm": re.compile(r"--max_num_tokens (\d+)"),
}
"""The engine's token budget per step where the row states it (vLLM max_num_batched_tokens, TensorRT-LLM
max_num_tokens)."""


_DP_ATTENTION = (
    "dp attention",
    "dp-attention",
    "data-parallel attention",
    "attention dp",
    "attention data-parallel",
)


def _dp_attention(row: ServingRow) -> bool:
    """Whether the benchmark ran an MLA model with data-parallel attention: only when its set-up says so
    (plain tensor parallelism copies the latent cache to every GPU)."""
    said = f"{row.framework_detail or ''} {row.notes or ''}".lower()
    return any(words in said for words in _DP_ATTENTION)


PRE_XQA_TRTLLM = frozenset({"0.5-era", "0.5.0"})
"""TensorRT-LLM versions of the 2023 tables, before the XQA decode kernels (grouped_kv_reads=False)."""
VLLM_V0_DEFAULT_MAX_NUM_SEQS = 256
"""vLLM before the V1 engine's device-dependent defaults (2025): max_num_seqs 256 on every GPU."""


_STATED_CAP = {
    "vllm": re.compile(r"max-num-seqs (\d+)"),
    "tensorrt-llm": re.compile(r"--max_batch_size (\d+)"),
}
"""The engine's cap on sequences in flight where the row's set-up states it (vLLM --max-num-seqs,
TensorRT-LLM --max_batch_size)."""


def _max_batch(row: ServingRow, framework: str | None) -> int | None:
    """The cap the row's set-up states (per attention rank under data-parallel attention, so times the
    ranks); else, for vLLM runs dated 2024 or earlier (before the V1 defaults), 256 sequences."""
    stated = _stated(row, framework, _STATED_CAP)
    if stated:
        return stated
    v0_default = framework == "vllm" and row.source.date[:4] <= "2024"
    if v0_default and _in_flight(row) <= VLLM_V0_DEFAULT_MAX_NUM_SEQS:
        return VLLM_V0_DEFAULT_MAX_NUM_SEQS
    return None


def _in_flight(row: ServingRow) -> float:
    """Sequences the run itself shows decoding at once (Little's law on its own figures: output tokens/s x
    seconds per output token); 0 when it publishes no such pair. A default cap below it was not the run's
    (AMD's MLPerf MI300X Server: 2,629 tokens/s x 143 ms = 376 sequences: its harness raised vLLM's 256)."""
    itl = row.tpot_ms or row.itl_ms
    total = row.output_tokens_per_s_total
    return total * itl / 1000 / (row.gpus // (row.tp * row.pp)) if total and itl else 0.0


_CAT: list[Catalog] = []


def _catalog() -> Catalog:
    if not _CAT:
        _CAT.append(load_catalog())
    return _CAT[0]
