"""Serving accuracy: tools.compute.serving against published serving benchmarks (issue 14).

For every row of bench/data/serving_throughput.yaml the model can express, predicts the published
figures (replica output tokens/s, per-user tokens/s, inter-token latency, time to first token) and
prints, for the fit families and the held-out families separately: coverage (share of published
figures inside the predicted range), median width (high / low) and median error of the range's
geometric middle. Time to first token is reported on its own line (the issue's target counts output
throughput and inter-token latency).

Rows left out, each said so: models without an architecture in the catalog (Falcon 180B, Llama 4
Maverick) and FP4 weights (no fp4 in tools.vocabulary's precisions). Bench-side readings of a row:
- offline max-throughput rows (all requests queued at once): concurrency = what the KV cache holds;
- static-batch rows (TensorRT-LLM 2023 tables): batching="static";
- unknown prompt/output lengths: 1000/1000 (the common benchmark shape);
- unstated weights precision on a named open server (vLLM, SGLang, TGI): bf16, the checkpoint's dtype
  the server loads by default;
- NIM rows (framework "other", "TensorRT-LLM or vLLM backend per profile"): the union of the readings
  the row allows, backend vllm or tensorrt-llm and, where unstated, weights bf16 or fp8 (NIM picks an
  FP8 profile on GPUs that have FP8). The union is wider; it counts in the median width.

- mean lengths where the row gives none: the totals a ShareGPT run states (GPUStack), the MLPerf
  llama3.1-8b dataset's (MLPERF_LLAMA31_8B_LENGTHS), no prompt for llama-bench `tg` runs;
- vLLM runs dated 2024 or earlier: max_num_seqs 256 (before the V1 engine's device-dependent defaults);
- TensorRT-LLM 0.5 (the 2023 tables): decode attention reads a GQA cache once per query head (pre-XQA).
- requests whose model stops on its own ('N request(s) sent at once (M generated tokens in total)'):
  output M / N;
- a cap or token budget the set-up states (vLLM --max-num-seqs / --max-num-batched-tokens, TensorRT-LLM
  --max_batch_size / --max_num_tokens, per rank under attention DP, so times the ranks) is the engine's;
  'attention DP on' / 'attention data-parallel' read as data-parallel attention like 'dp attention';
- the engine release a row names (framework_version, else the month of source.date) goes to the model's
  engine generations (vLLM V0 before v0.8, MLA kernels before April 2025); a NIM row's backend reading
  gets none (its version is NIM's);
- vLLM multi-step scheduling (--num-scheduler-steps k): a median ITL, timed per streamed chunk, is k steps
  (_streamed_burst_steps); a mean ITL is not read so.
- a finite burst (a stated number of ShareGPT-sampled requests all sent at once: GPUStack's 1000, Lambda's
  320, SGLang's 5000) is a run that drains, not a steady state: _simulate_burst admits up to the engine's
  cap, decodes, refills slots from the queue, and reads throughput as all output tokens over the makespan
  and the mean ITL over every decode gap; output lengths exponential with the run's mean (ServeGen,
  Xiang et al. 2025), capped at the ShareGPT sampler's 2048 - prompt. Before, such rows ran at the steady
  state of their peak concurrency, which the long tail of a few long answers never holds (Lambda's
  throughput x ITL gives 55-90 sequences in flight on average out of 320; GPUStack's ~320 of 984);
- a burst's prompts enter within the engine's chunked-prefill budget where it chunks (_prefill_chunk_budget:
  a stated budget; vLLM V1's serve default; vLLM V0's own 512 for a context over 32K the run did not shorten);
- a ShareGPT dataset sampled by vLLM's benchmark_serving.py (Lambda) takes the sampled-ShareGPT means
  (SHAREGPT_LENGTHS) like SGLang's bench_serving, not the unknown-length 1000/1000.
- MLPerf llama2-70b (OpenOrca) rows: output length from the run's own log (tokens/s over samples/s, ~290),
  prompt from the dataset's size (MLPERF_LLAMA2_70B_PROMPT_TOKENS, ~150); before, the unknown-length
  1000/1000 held a third of the sequences in the KV cache (Offline 16-30% low);
- a Poisson-rate row's per-token latency spans each end of the band at its own fixed point (_rate_ranges):
  before, both ends were read at the middle's load, which near saturation (MLPerf Server at 90-95% of
  Offline) hides how many more sequences a slower step keeps in flight.
- ExLlamaV2's README speed table (no lengths): its speed test's first stretch, a one-token prompt and 128
  tokens (EXLLAMAV2_SPEED_TEST_LENGTHS), not 1000/1000, whose context read ~20% more bytes a token.
- vLLM's 2024 default cap of 256 sequences is dropped when the row's own figures show more in flight
  (throughput x per-token latency, Little's law): AMD's MLPerf harness ran 376 (_in_flight).
- Qwen's speed benchmark (WHOLE_REQUEST_SPEED_FAMILIES) times the whole request, prefill of its 30,720-token
  prompt included (speed_benchmark_vllm.py: 2,048 / the llm.generate() wall time); before, it was read as the
  decode rate alone.
- a row on Hugging Face transformers (framework "transformers": h2oGPT's "Backend: transformers") runs the
  serving model's eager engine: a static batch whose step is at least the host's (EAGER_HOST_S_PER_LAYER),
  int8 / int4 weights as bitsandbytes' on-load quantisation (bench/data/README.md, "Round 9 (serving, srv9)").
Rows whose weights do not fit the stated GPUs are skipped (70B AWQ on one 24 GB card).

Development figures (all three sides have now been studied row by row; a new held-out set is being
collected apart, and only it is a clean test). Throughput + inter-token latency, inside / median width:
- before issue-14 round 2: fit 23/26 (88.5%) 1.44x; held out 20/27 (74.1%) 1.62x; fresh 32/52 (61.5%) 1.58x;
  all 75/105 (71.4%);
- now: fit 23/26 (88.5%) 1.44x; held out 22/24 (91.7%) 1.71x; fresh 36/52 (69.2%) 1.58x; all 81/102
  (79.4%) 1.44x. The efficiency centres and band are still the fit-side ones: an all-sides refit with this
  loss (`--fit`) lands on 74.5% at x/÷ 1.2 (bw 0.85, compute 0.65, overhead 1.5 ms, p 1), pulled by rows
  the model cannot express (GPUStack's 1000-request ShareGPT bursts, +190-235%; Oracle's MI300X vLLM,
  +37-59%), so it was not adopted and the all-sides `--cv` has not been run.
- issue-14 round 3 (fresh-2 read row by row; every side is development data; inside / median width /
  median error of the geometric middle):
  before: fit 23/26 (88.5%) 1.44x 5.6%; held out 22/24 (91.7%) 1.71x 11.9%; fresh 39/52 (75.0%) 1.58x
  12.3%; fresh-2 15/77 (19.5%) 1.34x 45.3%;
  after (vLLM V0 CPU time per sequence, DeepSeek kernel floor, early-MLA kernels, attention-DP balance,
  MoE decode-only expert reads, static batches at full length, the readings above): fit 23/26 (88.5%)
  1.44x 5.6%; held out 22/24 (91.7%) 1.71x 11.9%; fresh 43/52 (82.7%) 1.58x 10.3% (Oracle's MI300X vLLM
  rows, all inside with V0's CPU time); fresh-2 28/77 (36.4%) 1.35x 16.7%; all 116/179 (64.8%) 1.41x.
  Still out on fresh-2: early-2025 DeepSeek-R1 engines, whose speeds differ 2-3x among themselves and
  whose slow prefill (1-4 s for 3200 tokens at 4 requests) lowers throughput more than the step; ROCm at
  batch 128-256 (vLLM 0.10: 1.2-1.5x); finite runs that drain (dstack 16 req/s runs, 405B BF16 on ROCm
  6.1 at 64 requests); H100 405B at batch 256 (vLLM V0 preempting as the cache fills).
- issue-14 round 4 (fresh-3 scored blind 26/80 before round 3 and 23/80 after it, then read row by row; every
  side is development data). Round 3's three lost figures came from its vLLM V0 CPU time per sequence acting
  on misread rows (MLPerf MI300X at the unknown-length 1000/1000, Lambda's 320-prompt bursts read as a steady
  state at 256 sequences); with the rows read as run, V0's CPU time is net +1 on fresh-3 and +4 on fresh.
  before: fit 23/26 (88.5%) 1.44x 5.6%; held out 22/24 (91.7%) 1.71x 11.9%; fresh 43/52 (82.7%) 1.58x 10.3%;
  fresh-2 28/77 (36.4%) 1.35x 16.7%; fresh-3 23/80 (28.7%) 1.41x 36.5%; all 139/259 (53.7%);
  after (readings: finite ShareGPT bursts simulated as they drain, within the engine's chunked-prefill
  budget; sampled-ShareGPT means for benchmark_serving runs; MLPerf llama2-70b lengths; each end of a Poisson
  rate's band at its own load; ExLlamaV2's speed-test lengths; the source's stated month for the engine
  generation; vLLM's 2024 cap dropped where the run shows more in flight; Qwen's whole-request speed. Model:
  consumer-PCIe all-reduce 43 us from nccl-tests): fit 23/26 (88.5%) 1.44x 5.6%; held out 22/24 (91.7%)
  1.71x 11.9%; fresh 41/52 (78.8%) 1.58x 11.2% (GPUStack's 235B ITLs, inside before only because the old
  reading put all 984 requests in every step, now -29/-37%); fresh-2 31/77 (40.3%) 1.35x 16.3%; fresh-3
  46/80 (57.5%) 1.43x 15.0%; all 163/259 (62.9%) 1.43x 12.4%.
  Still out on fresh-3: Lambda's vLLM 0.5.4 bursts (16 of 26: throughput 1.3-3x high where the run's
  makespan is a few long answers decoding alone, each step ~15 ms on H100 hosts and ~40 ms on A100 hosts
  whatever the GPU count, a per-step cost the model's per-sequence V0 CPU time does not give); Qwen's AWQ
  rows at one token of prompt (8: 1.4-1.9x fast; AWQ reaches 1.8-2.3x BF16's speed where the bytes say
  2.8-3.5x, a fixed cost per step beside the weight read); DeepSeek-V3 AWQ on vLLM 0.7.3 (4: 1.4-1.9x fast);
  TensorRT-LLM v0.7a at 2048-4096 output tokens (2: 1.4x fast); llm-awq's kernels (2); H100 TP2 MLPerf (2).
  Tried and not adopted (each trades sides at today's fitted efficiencies, so it needs a refit with its own
  source): a per-layer kernel latency for vLLM (9 kernels x 11 us: fresh-3 +7, fresh -7); a fixed V0 step
  cost of 4 ms beside 80 us a sequence (vLLM #6854's 4 ms bubble; fresh-2 +7, fresh -3, fresh-3 -3).

- issue-14 round 5 (the model's fixed step costs: a per-layer kernel time on every engine, vLLM V0's input
  broadcast under tensor parallelism, the PyTorch engines' 4-bit GEMM time; bandwidth efficiency 0.75 -> 0.80;
  RCCL 40 -> 20 us; fitted on all sides): fit 24/26 (92.3%) 1.43x 5.3%; held out 22/24 (91.7%) 1.67x 13.5%;
  fresh 43/52 (82.7%) 1.55x 7.3%; fresh-2 44/77 (57.1%) 1.37x 10.6%; fresh-3 56/80 (70.0%) 1.42x 13.9%; all
  189/259 (73.0%) 1.41x 10.8%. Leave-one-family-out over all 26 families (--cv): 184/259 (71.0%) 1.41x 10.6%
  (the round-4 structure under the same CV: 163/259, 1.43x, 12.7%). bench/data/README.md, "Round 5 (serving)",
  groups the 70 figures still outside by cause.

- issue-14 round 6 (32 families, 377 figures with fresh-4; bench/data/README.md, "Round 6 (serving)"): the
  band is chosen per fold as the widest of BAND_GRID whose training-family median width stays within
  WIDTH_CAP (1.55x, under the issue's 1.6x). Leave-one-family-out: before 237/377 (62.9%) 1.37x 12.9% (band
  1.2); after 268/377 (71.1%) 1.55x 13.1% (band 1.34 in 27 of 31 folds; bandwidth efficiency 0.85 in 30).

- issue-14 round 7 (bench/data/README.md, "Round 7 (serving)"): GEMMs and attention as kernels in sequence;
  the CV grid fits the overlap exponent, compute efficiency and vLLM's factor per fold. Leave-one-family-out:
  before 266/377 (70.6%) 1.53x 13.2%; after 277/377 (73.5%) 1.53x 12.7%.

- issue-14 round 8 (bench/data/README.md, "Round 8 (serving)"): a fold picks its point by coverage at the
  width cap (CV_CRITERIA; --criterion log is round 7's choice): 279/377 (74.0%) 1.56x 12.1% against 277/377
  (73.5%) 1.54x 12.7% on the same table; out-of-family misses grouped; single mechanisms screened.

- issue-14 round 9 (bench/data/README.md, "Round 9 (serving, srv9)"): the transformers engine; the CV leaves
  the fresh-5 side out (SCORED_APART_SIDES). Fresh-5 46/94 (48.9%) 1.52x 24.0% -> 54/94 (57.4%) 1.53x 22.0%
  (h2oGPT 0/20 -> 8/20); the 377 CV figures' predictions unchanged.

Run: python -m bench.serving_accuracy [--fit | --cv [--jobs N] [--criterion coverage|log] [--cache FILE]]
[--rows] [--side fit]
`--fit` searches the efficiency centres on all families (all are development data now) and prints the
best sets; `--cv` computes every point of CV_GRID (bandwidth efficiency x the step's fixed costs) over all
families once, then for each family takes the point that fits the others best, widens its band as far as
the others' median width allows (widest_band) and scores the family at it (`--rows`: every figure):
out-of-family coverage / width / error per side and the residual percentiles (serving_constants.BAND_SOURCE),
then the all-families fit (the constants).
"""

from __future__ import annotations

import argparse
import heapq
import math
import random
import re
import statistics
from collections.abc import Callable
from dataclasses import dataclass

from bench.calibration_data import ServingRow, load_serving_rows, load_serving_split
from tools.catalog.load import Catalog, load_catalog
from tools.compute import serving_constants as K
from tools.compute.serving import (
    Batching,
    ServingEfficiency,
    ServingTime,
    estimate_serving_time,
)
from tools.compute.serving_constants import VLLM_LARGE_GPU_MIN_GIB, VLLM_V1_DEFAULT
from tools.compute.serving_steps import released_before
from tools.memory_states import stored_weight_bytes
from tools.ranges import Range

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
OFFLINE_CONCURRENCY = 100_000  # "all requests at once": the model caps it at what the cache holds


@dataclass
class Check:
    row: str
    family: str
    metric: str
    published: float
    predicted: Range

    @property
    def inside(self) -> bool:
        return self.predicted.low <= self.published <= self.predicted.high

    @property
    def width(self) -> float:
        return self.predicted.high / self.predicted.low

    @property
    def error(self) -> float:
        mid = math.sqrt(self.predicted.low * self.predicted.high)
        return mid / self.published - 1.0


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
    return None


def lengths(row: ServingRow) -> tuple[int, int]:
    """Mean prompt and output tokens: the row's fixed lengths; else the means of the totals the dataset
    states ('N prompts, M successful (X input / Y generated tokens)'); else the MLPerf dataset's
    (MLPERF_LLAMA31_8B_LENGTHS) or a sampled ShareGPT run's (SHAREGPT_LENGTHS); else UNKNOWN_LENGTH_TOKENS."""
    prompt, output = row.prompt_tokens, row.output_tokens
    text = row.dataset or ""
    totals, counts, generated = _TOTALS.search(text), _PROMPTS.findall(text), _GENERATED.search(text)
    if generated:  # requests sent at once whose model stops on its own: the mean of the stated total
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


POISSON_FIXED_POINT_STEPS = 12
"""Little's law read of a request-rate row: requests in flight = rate x seconds per request, iterated."""


def predict(
    row: ServingRow,
    eff: ServingEfficiency | None = None,
    reading: tuple[str, str | None] | None = None,
    end: str = "mid",
) -> ServingTime:
    """The model at the row's load. A finite Poisson rate puts rate x seconds per request in flight
    (Little's law), and those seconds depend on the load: a fixed point, from one request up, taken at
    the band's `end` ('low': the fast end, 'high': the slow end, 'mid')."""
    rate = _finite_rate(row)
    if rate is None:
        return _predict_at(row, row.concurrency or OFFLINE_CONCURRENCY, eff, reading)
    conc = 1
    for _ in range(POISSON_FIXED_POINT_STEPS):
        t = _predict_at(row, conc, eff, reading)
        ttft, ms = t.time_to_first_token_s, t.ms_per_output_token
        pick = {"low": (ttft.low, ms.low), "high": (ttft.high, ms.high)}.get(end, (ttft.mid, ms.mid))
        seconds = pick[0] + t.output_tokens * pick[1] / 1000
        nxt = max(1, min(t.max_concurrency or 1, round(rate * seconds)))
        if nxt == conc:
            break
        conc = nxt
    return _predict_at(row, conc, eff, reading)


def _rate_ranges(
    row: ServingRow, eff: ServingEfficiency | None, reading: tuple[str, str | None]
) -> tuple[Range, Range, Range, Range]:
    """(output tokens/s, per-user tokens/s, ms per output token, TTFT s) of a Poisson-rate row: the
    per-token figures span the band's fast end at its own fixed point to the slow end at its own. Near
    saturation the load a rate keeps in flight grows fast as the step slows (Little's law: L = rate x
    (TTFT + output x step)), so the slow end runs more sequences at a longer step than the middle's load
    would show (MLPerf Server runs sit at 90-95% of their Offline throughput); the throughput stays the
    middle's, pinned by the rate wherever the load settles."""
    mid, fast, slow = (predict(row, eff, reading, end) for end in ("mid", "low", "high"))
    ms = Range(
        low=min(fast.ms_per_output_token.low, mid.ms_per_output_token.low),
        high=max(slow.ms_per_output_token.high, mid.ms_per_output_token.high),
    )
    return (
        mid.output_tokens_per_s,
        Range(low=1000 / ms.high, high=1000 / ms.low),
        ms,
        _union([t.time_to_first_token_s for t in (mid, fast, slow)]),
    )


def _finite_rate(row: ServingRow) -> float | None:
    """The row's request rate (requests/s) when it is a finite Poisson rate; None otherwise."""
    if row.load_mode != "poisson_rate" or row.request_rate in (None, "inf"):
        return None
    try:
        return float(str(row.request_rate))
    except ValueError:
        return None


SHAREGPT_SAMPLER_MAX_TOKENS = 2048
"""vLLM/SGLang bench_serving's ShareGPT sampler drops a conversation whose prompt + completion exceeds 2048
tokens (sample_sharegpt_requests: prompt_len > 1024 or prompt_len + output_len > 2048 pruned), so no
sampled output is longer than 2048 - prompt."""
OUTPUT_LENGTH_DISTRIBUTION_SOURCE = (
    "Xiang et al. 2025, 'ServeGen: Workload Characterization and Generation of Large Language Model Serving "
    "in Production' (arXiv 2505.09999): language-model output lengths fit exponential distributions"
)


def _burst_requests(row: ServingRow) -> int | None:
    """How many requests a finite burst sends when the row's set-up states it: every request sent at once
    (offline_max_throughput) with output lengths sampled from ShareGPT conversations and a stated count
    ('N prompts', 'N successful'); None otherwise (fixed-length synthetic sets, MLPerf's 24,576 samples)."""
    text = row.dataset or ""
    if row.load_mode != "offline_max_throughput" or not text.startswith("ShareGPT"):
        return None
    counts = _PROMPTS.findall(text)
    return int(counts[-1].replace(",", "")) if counts else None


def _burst_output_lengths(n: int, mean: int, cap: int) -> list[int]:
    """n output lengths, exponential with the stated mean (OUTPUT_LENGTH_DISTRIBUTION_SOURCE) at the
    midpoints of n equal-probability bins (deterministic), capped at the sampler's limit and rescaled so
    that their mean is the stated one; in a fixed shuffled order (requests go out in sampled order)."""
    raw = [min(float(cap), -mean * math.log(1.0 - (i + 0.5) / n)) for i in range(n)]
    scale = mean * n / sum(raw)
    out = [max(1, min(cap, round(x * scale))) for x in raw]
    random.Random(0).shuffle(out)
    return out


@dataclass
class _Burst:
    output_tokens_per_s: float
    itl_ms: float
    tpot_ms: float
    ttft_s: float


def _simulate_burst(
    outputs: list[int],
    cap: int,
    prefill_s: float,
    step_s: Callable[[int], float],
    chunked: tuple[int, int] | None = None,
) -> _Burst:
    """A finite burst drained by a continuous-batching engine: up to `cap` requests run at once, each new
    one is prefilled, then decodes a token per step; a finished request's slot goes to the next queued one.
    step_s(k): one decode step with k sequences. Without chunked prefill (`chunked` None) a new prompt is a
    step of its own (prefill_s, stalling the running sequences); with it, (token budget, prompt tokens):
    each step carries the running sequences' decode tokens and, in what the budget leaves, chunks of the
    queued prompts at prefill_s / prompt a token (Sarathi-Serve; vLLM's scheduler), so admission follows the
    budget. Throughput is all output tokens over the makespan; the mean ITL weighs every decode gap (stalls
    included), the mean TPOT every request; TTFT is the wait until a request's prefill is done."""
    queue = list(reversed(outputs))
    heap: list[tuple[int, float, int]] = []  # (finish step, first-token time, output tokens)
    now, step, gaps_s, gaps, ttft_total, tpot_total = 0.0, 0, 0.0, 0, 0.0, 0.0
    prompt_left = chunked[1] if chunked else 0  # prompt tokens of the queue's head not yet prefilled
    while queue or heap:
        if chunked and queue and len(heap) < cap:
            # one mixed step: the running sequences' tokens, then prompt chunks in the rest of the budget
            k = len(heap)
            room = max(1, chunked[0] - k)
            done: list[int] = []
            took = 0
            while queue and len(heap) + len(done) < cap and took < room:
                bite = min(room - took, prompt_left)
                took += bite
                prompt_left -= bite
                if prompt_left == 0:
                    done.append(queue.pop())
                    prompt_left = chunked[1]
            dt = (step_s(k) if k else 0.0) + took * prefill_s / chunked[1]
            now += dt
            gaps_s += dt * k
            gaps += k
            step += 1 if k else 0
            for out in done:
                ttft_total += now
                heapq.heappush(heap, (step + out - 1, now, out))
            while heap and heap[0][0] <= step:
                _, first, out = heapq.heappop(heap)
                tpot_total += (now - first) / (out - 1) if out > 1 else 0.0
            continue
        while queue and len(heap) < cap:
            out = queue.pop()
            now += prefill_s
            gaps_s += prefill_s * len(heap)  # a prefill step stalls the running sequences' next token
            ttft_total += now
            heapq.heappush(heap, (step + out - 1, now, out))
        if not heap:
            continue
        finish = heap[0][0]
        if finish > step:
            k = len(heap)
            n = finish - step
            now += n * step_s(k)
            gaps_s += n * k * step_s(k)
            gaps += n * k
            step = finish
        while heap and heap[0][0] <= step:
            _, first, out = heapq.heappop(heap)
            tpot_total += (now - first) / (out - 1) if out > 1 else 0.0
    n_req = len(outputs)
    return _Burst(
        output_tokens_per_s=sum(outputs) / now,
        itl_ms=1000 * gaps_s / max(1, gaps),
        tpot_ms=1000 * tpot_total / n_req,
        ttft_s=ttft_total / n_req,
    )


def _burst_ranges(
    row: ServingRow, n: int, eff: ServingEfficiency | None, reading: tuple[str, str | None] | None
) -> tuple[Range, Range, Range]:
    """(output tokens/s, ms per output token, TTFT s) of a finite burst of n requests (_simulate_burst),
    each end of the step and prefill bands simulated apart. The engine's cap is the model's concurrency
    limit (KV cache at the mean held length, engine max batch); a decode step with k sequences is the
    model's decode-only step (static shape: prompt + output/2 of context, no prefill in the step)."""
    prompt, output = lengths(row)
    limit = _predict_at(row, n, eff, reading).max_concurrency
    cap = max(1, min(n, limit))
    alone = _predict_at(row, 1, eff, reading, (prompt, output, "static"))
    prefill = Range(
        low=alone.time_to_first_token_s.low - alone.ms_per_output_token.low / 1000,
        high=alone.time_to_first_token_s.high - alone.ms_per_output_token.high / 1000,
    )
    outputs = _burst_output_lengths(n, output, max(1, SHAREGPT_SAMPLER_MAX_TOKENS - prompt))
    held: tuple[int, int, Batching] = (prompt + output // 2, 2, "static")
    steps: dict[int, Range] = {}

    def step_ms(k: int) -> Range:
        if k not in steps:
            steps[k] = _predict_at(row, k, eff, reading, held).ms_per_output_token
        return steps[k]

    budget = _prefill_chunk_budget(row, reading[1] if reading else readings(row)[0][1])
    chunked = (budget, prompt) if budget else None
    fast = _simulate_burst(outputs, cap, prefill.low, lambda k: step_ms(k).low / 1000, chunked)
    slow = _simulate_burst(outputs, cap, prefill.high, lambda k: step_ms(k).high / 1000, chunked)
    itl = fast.itl_ms, slow.itl_ms
    if row.itl_ms is None and row.tpot_ms is not None:
        itl = fast.tpot_ms, slow.tpot_ms
    return (
        Range(low=slow.output_tokens_per_s, high=fast.output_tokens_per_s),
        Range(low=itl[0], high=itl[1]),
        Range(low=fast.ttft_s, high=slow.ttft_s),
    )


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
    )


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


WHOLE_REQUEST_SPEED_FAMILIES = frozenset({"qwen-speed-benchmark"})
"""Families whose batch-1 'speed' is output tokens over the whole request's wall time, prefill included:
Qwen's speed_benchmark_vllm.py times one llm.generate() call (prompt of 1 or 30,720 tokens, 2,048 out) and
divides the 2,048 by it."""


def _whole_request_speed(t: ServingTime) -> Range:
    """Output tokens / (time to first token + output x step) of one request, each end of the band apart."""
    fast = t.time_to_first_token_s.low + t.output_tokens * t.ms_per_output_token.low / 1000
    slow = t.time_to_first_token_s.high + t.output_tokens * t.ms_per_output_token.high / 1000
    return Range(low=t.output_tokens / slow, high=t.output_tokens / fast)


def _union(rs: list[Range]) -> Range:
    return Range(low=min(r.low for r in rs), high=max(r.high for r in rs))


_CAT: list[Catalog] = []


def _catalog() -> Catalog:
    if not _CAT:
        _CAT.append(load_catalog())
    return _CAT[0]


def checks(row: ServingRow, eff: ServingEfficiency | None = None) -> list[Check]:
    ts = [predict(row, eff, r) for r in readings(row)]
    tps = _union([t.output_tokens_per_s for t in ts])
    per_user = _union([t.per_user_tokens_per_s for t in ts])
    ms = _union([t.ms_per_output_token for t in ts])
    ttft = _union([t.time_to_first_token_s for t in ts])
    if _finite_rate(row) is not None:
        runs4 = [_rate_ranges(row, eff, r) for r in readings(row)]
        tps, per_user, ms, ttft = (_union([run[i] for run in runs4]) for i in range(4))
    burst = _burst_requests(row)
    if burst:  # a finite burst drains: its figures are the run's, not a steady state's
        runs = [_burst_ranges(row, burst, eff, r) for r in readings(row)]
        tps, ms, ttft = (_union([run[i] for run in runs]) for i in range(3))
    if row.family in WHOLE_REQUEST_SPEED_FAMILIES and row.concurrency == 1:
        tps = per_user = _union([_whole_request_speed(t) for t in ts])
    out: list[Check] = []
    replicas = row.gpus // (row.tp * row.pp)
    total = row.output_tokens_per_s_total
    if total is None and row.output_tokens_per_s_per_gpu is not None:
        total = row.output_tokens_per_s_per_gpu * row.gpus
    if total is not None:
        out.append(Check(row.id, row.family, "output_tokens_per_s", total, tps.scale(replicas)))
    if row.per_user_tokens_per_s is not None and row.concurrency:
        out.append(Check(row.id, row.family, "per_user_tokens_per_s", row.per_user_tokens_per_s, per_user))
    itl = row.itl_ms or row.tpot_ms
    if itl is not None:
        burst = _streamed_burst_steps(row) if row.itl_ms is not None else 1
        out.append(Check(row.id, row.family, "ms_per_output_token", itl, ms.scale(burst)))
    if row.ttft_ms is not None:
        out.append(Check(row.id, row.family, "ttft_s", row.ttft_ms / 1000, ttft))
    return out


def summarise(label: str, cs: list[Check]) -> str:
    if not cs:
        return f"{label:28s} no figures"
    inside = sum(c.inside for c in cs)
    width = statistics.median(c.width for c in cs)
    err = statistics.median(abs(c.error) for c in cs)
    return (
        f"{label:28s} {inside:3d}/{len(cs):<3d} inside ({inside / len(cs):5.1%}) median width {width:4.2f}x  "
        f"median |error| of geometric middle {err:5.1%}"
    )


def collect(families: list[str], eff: ServingEfficiency | None = None) -> list[Check]:
    rows = [r for r in load_serving_rows() if r.family in set(families) and skip_reason(r) is None]
    return [c for r in rows for c in checks(r, eff)]


GRID: dict[str, tuple[object, ...]] = {
    "bw": (0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85),
    "cmp": (0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.65),
    "prefill": (0.45, 0.55, 0.65, 0.75, 0.85),
    "overhead": (0.0001, 0.0003, 0.0007, 0.0015, 0.003),
    "p": (1.0, 1.5, 2.0, 3.0, math.inf),
    "moe": (0.4, 0.55, 0.7, 1.0),
    "fp8kv": (True, False),
    "layer": (0.0, 10e-6, 20e-6, 30e-6),
    "trt_layer": (0.0, 10e-6),
    "v0tp": (0.0, 1.5e-3, 3e-3, 4.5e-3),
    "int4": (0.0, 40e-6, 80e-6, 120e-6),
}
PYTORCH_ENGINES = ("vllm", "sglang", "tgi")
"""The engines that share the fitted per-layer step time (serving_constants.LAYER_STEP_S)."""


def _point(v: dict[str, object], spread: float = 1.0) -> ServingEfficiency:
    bw, cmp, ovh = float(v["bw"]), float(v["cmp"]), float(v["overhead"])  # type: ignore[arg-type]
    return ServingEfficiency(
        bandwidth=Range(low=bw / spread, high=min(0.95, bw * spread)),
        compute=Range(low=cmp / spread, high=min(0.9, cmp * spread)),
        prefill=Range(low=float(v["prefill"]) / spread, high=min(0.95, float(v["prefill"]) * spread)),  # type: ignore[arg-type]
        step_overhead_s=Range(low=ovh / spread, high=ovh * spread),
        overlap_exponent=float(v["p"]),  # type: ignore[arg-type]
        moe_compute_factor=float(v["moe"]),  # type: ignore[arg-type]
        fp8_kv_with_fp8_weights=bool(v["fp8kv"]),
        layer_step_s={
            "tensorrt-llm": float(v.get("trt_layer", v.get("layer", K.LAYER_STEP_S["tensorrt-llm"]))),  # type: ignore[arg-type]
            **{e: float(v.get("layer", K.LAYER_STEP_S[e])) for e in PYTORCH_ENGINES},  # type: ignore[arg-type]
        },
        v0_tp_step_s=float(v.get("v0tp", K.VLLM_V0_TP_STEP_S)),  # type: ignore[arg-type]
        int4_layer_s=float(v.get("int4", K.INT4_WEIGHT_ONLY_LAYER_S)),  # type: ignore[arg-type]
        fixed_band=spread,
        attention_apart=bool(v.get("apart", K.ATTENTION_KERNELS_APART)),
        framework_factor=_framework_factor(v),
    )


def _framework_factor(v: dict[str, object]) -> dict[str, float]:
    """The engines' speed relative to TensorRT-LLM's (serving_constants.FRAMEWORK_EFFICIENCY); grid key "pt":
    vLLM's and TGI's factor, SGLang's kept at its published ratio to vLLM's (1,920 / 1,850 tokens/s)."""
    pt = v.get("pt")
    if pt is None:
        return dict(K.FRAMEWORK_EFFICIENCY)
    vllm = float(pt)  # type: ignore[arg-type]
    sglang = min(1.0, vllm * K.FRAMEWORK_EFFICIENCY["sglang"] / K.FRAMEWORK_EFFICIENCY["vllm"])
    return {**K.FRAMEWORK_EFFICIENCY, "vllm": vllm, "tgi": vllm, "sglang": sglang}


def _fitted(row: ServingRow, c: Check) -> bool:
    """Figures the point estimate is fitted on: throughput and inter-token latency, and the time to first
    token of a lone request (prefill alone, no queue)."""
    return c.metric != "ttft_s" or row.concurrency == 1


def _loss(rows: list[ServingRow], eff: ServingEfficiency) -> float:
    cs = [c for r in rows for c in checks(r, eff) if _fitted(r, c)]
    return statistics.mean(abs(math.log1p(c.error)) for c in cs)


def _descend(rows: list[ServingRow], v: dict[str, object]) -> tuple[float, dict[str, object]]:
    best = _loss(rows, _point(v))
    for _sweep in range(6):
        before = best
        for k, opts in GRID.items():
            for o in opts:
                trial = {**v, k: o}
                loss = _loss(rows, _point(trial))
                if loss < best - 1e-9:
                    best, v = loss, trial
        if best >= before - 1e-9:
            break
    return best, v


def _fit_point(rows: list[ServingRow], quiet: bool = True) -> dict[str, object]:
    """Coordinate descent on the point estimate (mean |log error| over the rows' throughput and
    inter-token-latency figures and lone-request TTFTs), started from every combination of the
    structural choices (overlap exponent, FP8 KV) so it does not stop in a local minimum."""
    middle: dict[str, object] = {k: opts[len(opts) // 2] for k, opts in GRID.items()}
    best = (math.inf, middle)
    for p in GRID["p"]:
        for fp8kv in GRID["fp8kv"]:
            found = _descend(rows, {**middle, "p": p, "fp8kv": fp8kv})
            if found[0] < best[0] - 1e-9:
                best = found
                if not quiet:
                    print(f"mean |log error| {found[0]:.3f}  {found[1]}")
    return best[1]


SCORED_APART_SIDES = ("fresh5_held_out", "fresh6_held_out")
"""Sides that the CV and --fit leave out: fresh-5 and fresh-6 are scored apart (`--side fresh5_held_out`,
`--side fresh6_held_out`), never fitted (bench/data/README.md, "Fresh-5 / Fresh-6 held-out set (serving)");
the round-8 CV's 32 families / 377 figures."""


def _fit_rows() -> list[ServingRow]:
    """Every family of every side but SCORED_APART_SIDES: all are development data now (a new held-out set
    is collected apart)."""
    sides = load_serving_split().sides()
    fams = {f for name, side in sides.items() if name not in SCORED_APART_SIDES for f in side}
    return [r for r in load_serving_rows() if r.family in fams and skip_reason(r) is None]


def _fit() -> None:
    """The point estimate on the fit families, then the coverage of a few band spreads around it."""
    rows = _fit_rows()
    v = _fit_point(rows, quiet=False)
    for spread in (1.1, 1.15, 1.2, 1.265, 1.3):
        cs = [c for r in rows for c in checks(r, _point(v, spread)) if c.metric != "ttft_s"]
        print(summarise(f"spread {spread}", cs))


CV_GRID: dict[str, tuple[object, ...]] = {
    "bw": (0.8, 0.85, 0.9),
    "pt": (0.88, 0.94, 1.0),
    "cmp": (0.45, 0.5),
    "p": (1.5, 2.0, 3.0),
    "layer": (25e-6, 30e-6),
}
"""The grid of the joint fit and its cross-validation: the bandwidth efficiency with the step's fixed costs
(serving_constants LAYER_STEP_S, VLLM_V0_TP_STEP_S, INT4_WEIGHT_ONLY_LAYER_S); the other centres stay at
the constants' (CV_BASE)."""
CV_BASE: dict[str, object] = {
    "bw": 0.8, "cmp": 0.5, "prefill": 0.65, "overhead": 0.0001, "p": 1.5, "moe": 0.55, "fp8kv": True,
}  # fmt: skip


def _grid_points() -> list[dict[str, object]]:
    points: list[dict[str, object]] = [dict(CV_BASE)]
    for k, opts in CV_GRID.items():
        points = [{**p, k: o} for p in points for o in opts]
    return points


_Fig = tuple[str, str, str, float, float, float, bool]  # row, family, metric, published, low, high, fitted


BAND_GRID: tuple[float, ...] = (1.20, 1.24, 1.28, 1.30, 1.32, 1.34, 1.36, 1.38, 1.40)
"""Candidate band half-widths (serving_constants.BAND_HALF_WIDTH) the CV chooses among per fold."""
WIDTH_CAP = 1.55
"""The band is the widest of BAND_GRID whose median width over the training families' figures (throughput
and inter-token latency) stays at or under this: the issue caps the out-of-sample median width at 1.6x, and
the margin keeps a held-out family's median under it."""


def _table_at(v: dict[str, object], band: float | None = None) -> list[_Fig]:
    eff = _point(v, band or K.BAND_HALF_WIDTH)
    return [
        (c.row, c.family, c.metric, c.published, c.predicted.low, c.predicted.high, _fitted(r, c))
        for r in _fit_rows()
        for c in checks(r, eff)
    ]


def _table(jobs: int) -> list[list[_Fig]]:
    """Every grid point's figures over every row (the expensive part, run once: a fold is an argmin)."""
    points = _grid_points()
    if jobs <= 1:
        return [_table_at(v) for v in points]
    import multiprocessing

    with multiprocessing.Pool(jobs) as pool:
        return pool.map(_table_at, points)


def _log_err(f: _Fig) -> float:
    return abs(math.log(math.sqrt(f[4] * f[5]) / f[3]))


def _covered(figs: list[_Fig], without: str | None) -> int:
    """Throughput and inter-token-latency figures of every family but `without` inside their range; 0 when
    those figures' median width is over WIDTH_CAP (a point may not buy coverage with width)."""
    mine = [f for f in figs if f[1] != without and f[2] != "ttft_s"]
    if statistics.median(f[5] / f[4] for f in mine) > WIDTH_CAP:
        return 0
    return sum(f[4] <= f[3] <= f[5] for f in mine)


CV_CRITERIA = ("log", "coverage")
"""How a fold chooses its grid point on the training families: "log", the least mean |log error| of the
point estimate (throughput, inter-token latency, lone-request TTFT); "coverage", the most throughput and
inter-token-latency figures inside the range at the table's band (BAND_HALF_WIDTH) with the median width
within WIDTH_CAP, ties to the lower log error. Either way the left-out family is scored at the band
widest_band gives the chosen point: coverage chooses by the issue's own target, on training families only."""


def _cv(jobs: int = 2, rows: bool = False, criterion: str = "coverage", cache: str | None = None) -> None:
    """Leave-one-family-out over all families on the joint grid (CV_GRID): for each family, the grid point
    that fits every other family best (CV_CRITERIA: mean |log error| over throughput, inter-token latency and
    lone-request TTFT, or coverage at the width cap), scored on the left-out family at the fitted band.
    Prints each fold's point, the out-of-family
    coverage / median width / median error per side and the residual percentiles (which set
    serving_constants.BAND_HALF_WIDTH), then the all-families fit."""
    points, table = _grid_points(), _cached(cache, lambda: _table(jobs))
    families = sorted({f[1] for f in table[0]})
    loss: list[dict[str, list[float]]] = []
    for figs in table:
        by_fam: dict[str, list[float]] = {fam: [0.0, 0.0] for fam in families}
        for f in figs:
            if f[6]:
                by_fam[f[1]][0] += _log_err(f)
                by_fam[f[1]][1] += 1
        loss.append(by_fam)

    def best(without: str | None) -> int:
        def total(i: int) -> float:
            s = [v for fam, v in loss[i].items() if fam != without]
            return sum(a for a, _ in s) / max(1.0, sum(n for _, n in s))

        if criterion == "coverage":  # most training figures inside at the table's band, width within the cap
            return max(range(len(points)), key=lambda i: (_covered(table[i], without), -total(i)))
        return min(range(len(points)), key=total)

    chosen = sorted({best(fam) for fam in families} | {best(None)})
    banded = _banded_tables([points[i] for i in chosen], jobs)
    print(f"fold criterion: {criterion}")

    def band_for(i: int, without: str | None) -> float:
        return widest_band({b: banded[(chosen.index(i), b)] for b in BAND_GRID}, without)

    side_of = {fam: side for side, fams in load_serving_split().sides().items() for fam in fams}
    cv: dict[str, list[Check]] = {}
    for fam in families:
        i = best(fam)
        band = band_for(i, fam)
        print(f"without {fam}: {_short(points[i])}, band {band}")
        for f in banded[(chosen.index(i), band)]:
            if f[1] == fam and f[2] != "ttft_s":
                check = Check(f[0], f[1], f[2], f[3], Range(low=f[4], high=f[5]))
                cv.setdefault(side_of[fam], []).append(check)
    every = [c for cs in cv.values() for c in cs]
    if rows:
        for c in every:
            flag = "" if c.inside else "  OUT"
            print(f"  {c.row:52s} {c.metric:22s} pub {c.published:9.4g}  pred {c.predicted.low:9.4g}-"
                  f"{c.predicted.high:<9.4g} {c.error:+6.0%}{flag}")  # fmt: skip
    by_family: dict[str, list[Check]] = {}
    for c in every:
        by_family.setdefault(c.family, []).append(c)
    for fam, cs in sorted(by_family.items(), key=lambda kv: sum(c.inside for c in kv[1]) / len(kv[1])):
        print(summarise(f"CV {fam[:26]}", cs))
    for side, cs in cv.items():
        print(summarise(f"CV {side}", cs))
    print(summarise("CV all", every))
    a = sorted(abs(math.log1p(c.error)) for c in every)
    for q in (0.5, 0.8, 0.85, 0.9):
        print(f"out-of-family |log residual| p{int(q * 100)}: x/÷ {math.exp(a[int(q * (len(a) - 1))]):.3f}")
    print(f"fit on all families: {_short(points[best(None)])}, band {band_for(best(None), None)}")


def _cached(path: str | None, make: Callable[[], list[list[_Fig]]]) -> list[list[_Fig]]:
    """The grid's table from `path` when it holds one for this grid, these rows and this code (the serving
    model's sources, the bench, the serving data files), else made (and saved there): lets the fold criteria
    be compared without recomputing the grid. A development aid only."""
    import hashlib
    import pickle
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    sources = sorted(
        [*root.glob("tools/compute/*.py"), *root.glob("bench/data/serving_throughput*.yaml"), Path(__file__)]
    )
    digest = hashlib.sha256(b"".join(f.read_bytes() for f in sources)).hexdigest()
    key = (repr(_grid_points()), sorted(r.id for r in _fit_rows()), digest)
    if path:
        try:
            with open(path, "rb") as fh:
                saved_key, saved = pickle.load(fh)
            if saved_key == key:
                return saved  # type: ignore[no-any-return]
        except (OSError, EOFError, pickle.UnpicklingError, ValueError):
            pass
    table = make()
    if path:
        with open(path, "wb") as fh:
            pickle.dump((key, table), fh)
    return table


def _banded_at(args: tuple[dict[str, object], float]) -> list[_Fig]:
    return _table_at(*args)


def _banded_tables(points: list[dict[str, object]], jobs: int) -> dict[tuple[int, float], list[_Fig]]:
    """The figures of each of `points` at every band of BAND_GRID, keyed (point index, band)."""
    keys = [(i, b) for i in range(len(points)) for b in BAND_GRID]
    args = [(points[i], b) for i, b in keys]
    if jobs <= 1:
        return dict(zip(keys, map(_banded_at, args), strict=True))
    import multiprocessing

    with multiprocessing.Pool(jobs) as pool:
        return dict(zip(keys, pool.map(_banded_at, args), strict=True))


def widest_band(by_band: dict[float, list[_Fig]], without: str | None) -> float:
    """The widest band whose median width over the figures of every family but `without` (the training
    families of a fold) is within WIDTH_CAP; the narrowest band when none is."""
    ok = [b for b, figs in by_band.items() if _median_width(figs, without) <= WIDTH_CAP]
    return max(ok) if ok else min(by_band)


def _median_width(figs: list[_Fig], without: str | None) -> float:
    """Median high / low of the throughput and inter-token-latency figures of every family but `without`."""
    return statistics.median(f[5] / f[4] for f in figs if f[1] != without and f[2] != "ttft_s")


def _short(v: dict[str, object]) -> str:
    return ", ".join(f"{k} {v[k]}" for k in CV_GRID)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--fit", action="store_true")
    ap.add_argument("--cv", action="store_true", help="leave-one-family-out over all families (CV_GRID)")
    ap.add_argument("--jobs", type=int, default=2, help="processes for --cv's grid")
    ap.add_argument("--rows", action="store_true")
    ap.add_argument("--criterion", choices=CV_CRITERIA, default="coverage", help="--cv: a fold's choice")
    ap.add_argument("--cache", help="--cv: a file to keep the grid's table in (same grid and rows: reused)")
    ap.add_argument("--side", help="score one side only (fit, held_out, fresh_held_out)")
    a = ap.parse_args()
    if a.fit:
        _fit()
        return 0
    if a.cv:
        _cv(a.jobs, a.rows, a.criterion, a.cache)
        return 0
    split = load_serving_split()
    for r in load_serving_rows():
        why = skip_reason(r)
        if why:
            print(f"skipped {r.id}: {why}")
    for name, fams in split.sides().items():
        if a.side and name != a.side:
            continue
        label = name.replace("_", " ")
        cs = collect(fams)
        if a.rows:
            for c in cs:
                flag = "" if c.inside else "  OUT"
                print(f"  {c.row:52s} {c.metric:22s} pub {c.published:9.4g}  pred {c.predicted.low:9.4g}-"
                      f"{c.predicted.high:<9.4g} {c.error:+6.0%}{flag}")  # fmt: skip
        main_cs = [c for c in cs if c.metric != "ttft_s"]
        print(summarise(f"{label}: throughput + ITL", main_cs))
        print(summarise(f"{label}: time to first token", [c for c in cs if c.metric == "ttft_s"]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
