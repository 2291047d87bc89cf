"""Resolve a WorkloadProfile's unknowns into named defaults, each marked "assumed" with its source.

The recommender never guesses silently: every default below is a named constant with the reason it
was chosen, recorded as a TraceBuilder assumption and as provenance "assumed" on the profile, so the
report can list it and the conversation can ask about it when it matters (tools.recommend.sensitivity).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from pydantic import ConfigDict

from tools.catalog.schema import EgressSchedule, Estimate, GpuSpec, ModelArch, PriceRecord, StoragePrice
from tools.catalog.synthetic import synthetic_arch
from tools.compute.serving_constants import OUTPUT_TOKENS_DEFAULT
from tools.errors import InputError
from tools.profile import WorkloadProfile
from tools.trace import TraceBuilder, Traced
from tools.ttft_prompt import TTFT_FULL_CONTEXT_WHY, ttft_prompt_tokens
from tools.units import bytes_to_gb, gb_to_bytes, tokens_per_s_to_ms_per_token
from tools.vocabulary import (
    BATCH_SIZE_DEFAULT,
    FRAMEWORK_DEFAULT,
    LORA_RANK_DEFAULT,
    PRETRAINING_FRAMEWORK_DEFAULT,
    PRETRAINING_STACK_TEXT,
    SEQ_LEN_DEFAULT,
    ProfileMethod,
)


class CatalogView(Protocol):
    """What the recommender reads from a catalog (tools.catalog.load.Catalog satisfies it)."""

    @property
    def gpus(self) -> Sequence[GpuSpec]: ...
    @property
    def models(self) -> Sequence[ModelArch]: ...
    @property
    def prices(self) -> Sequence[PriceRecord]: ...
    def gpu(self, id_or_alias: str) -> GpuSpec: ...
    def model(self, id_or_alias: str) -> ModelArch: ...
    def prices_for(self, gpu_id: str) -> Sequence[PriceRecord]: ...
    def egress_for(self, cloud: str) -> EgressSchedule: ...
    def storage_for(self, provider: str) -> StoragePrice: ...
    def estimate(self, name: str) -> Estimate: ...
    def as_of_dates(self) -> Any: ...


# --- named defaults (value, source) -----------------------------------------------------------
NATIVE_SERVING_PRECISION: dict[str, str] = {"deepseek_v3": "fp8"}
"""Model families whose published weights are not BF16, served as published unless the user says
otherwise: DeepSeek-V3/R1 ship FP8 weights (config.json quantization_config fp8, block-wise 128x128
scales; DeepSeek-V3 technical report, arXiv 2412.19437, Section 3.3). Serving them in BF16 doubles the
weights to ~1.3 TB."""
BYTES_PER_TOKEN = 4.0
"""Bytes of raw text per BPE token for English prose (OpenAI tokenizer guidance: ~4 characters/token)."""
FINE_TUNING_TOKENS_DEFAULT = 100e6
"""An instruction-tuning / domain corpus of ~100M tokens: an assumption to replace with the real size."""
CONTINUAL_PRETRAINING_TOKENS_DEFAULT = 10e9
"""Seed 000: fine-tuning class ends at ~10B tokens; continual pre-training starts there."""
CHINCHILLA_TOKENS_PER_PARAM = 20.0
"""Hoffmann et al. 2022 (Chinchilla): compute-optimal pre-training at ~20 tokens per parameter."""
EPOCHS_DEFAULT = 1.0
"""One pass: the common default for large fine-tuning corpora (seed 001 uses 3; sensitivity covers 1-3)."""
RUNS_PER_MONTH_DEFAULT = 1.0
"""One training run a month."""
CONCURRENCY_DEFAULT = 8
"""Concurrent sequences for an inference service when not stated (a small internal deployment)."""
CONCURRENCY_DEFAULT_SOURCE = "8 sequences in flight: a small internal deployment"
"""Where CONCURRENCY_DEFAULT comes from, as the report's assumption list prints it."""
READING_WORDS_PER_MINUTE = 238.0
"""Silent reading of English non-fiction, adults: 238 words per minute (Brysbaert 2019, "How many words do
we read per minute? A review and meta-analysis of reading rate", J. Memory and Language 109, 104047)."""
TOKENS_PER_WORD = 1.33
"""BPE tokens per English word (OpenAI tokenizer guidance: ~0.75 words per token)."""
READING_TOKENS_PER_S = READING_WORDS_PER_MINUTE / 60.0 * TOKENS_PER_WORD
"""How fast a person reads, in tokens/s: 238 / 60 x 1.33 = 5.3 tokens/s."""
INTERACTIVE_TOKENS_PER_S_DEFAULT = 10.0
"""Per-user speed of a chat or other interactive endpoint when neither a latency nor a rate is stated:
about twice reading speed (READING_TOKENS_PER_S), so a streamed answer never makes its reader wait. A
floor, not a comfortable speed: "below ~5 tokens/sec feels sluggish, ~10-20 is comfortable for chat
(around or above reading speed)" (https://spanvero.com/learn/usable-tokens-per-second/, read 2026-11);
expert reviews 5 and 6 (evals/reviews/2026-11-27-expert-review-5.md, -6.md) reject 5-12 tokens/s chat."""
INTERACTIVE_LATENCY_MS_PER_TOKEN_DEFAULT = tokens_per_s_to_ms_per_token(INTERACTIVE_TOKENS_PER_S_DEFAULT)
"""The floor as a latency target: 1000 ms / 10 tokens/s = 100 ms per output token."""
INTERACTIVE_SPEED_SOURCE = (
    f"per-user speed at least {INTERACTIVE_TOKENS_PER_S_DEFAULT:g} tokens/s for interactive serving, about "
    f"twice reading speed ({READING_WORDS_PER_MINUTE:g} words/min x {TOKENS_PER_WORD:g} tokens/word = "
    f"{READING_TOKENS_PER_S:.1f} tokens/s, Brysbaert 2019)"
)
"""Where INTERACTIVE_LATENCY_MS_PER_TOKEN_DEFAULT comes from, as the report's assumption list prints it."""
CONTEXT_LEN_DEFAULT = 4096
"""Tokens per sequence served when not stated (capped at the model's maximum context)."""
HORIZON_MONTHS_DEFAULT = 12.0
"""Planning horizon for owned hardware and reserved capacity comparisons."""
DATA_CACHED_DEFAULT = True
"""Dataset copied to the GPU provider once and reused (seed 001: caching turns $900 of egress into $45)."""
DATA_LOCATION_DEFAULT = "on_prem"
"""Unknown data location: treated as uploaded from the user's own machines (cloud ingress is free)."""


class ResolvedWorkload(Traced):
    """A profile with every field the recommender needs filled, the architecture it sizes, and the
    parameter count used for FLOPs."""

    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True)

    profile: WorkloadProfile
    arch: ModelArch
    params_for_flops: float
    assumed_fields: tuple[str, ...] = ()

    @property
    def training_tokens(self) -> float:
        """dataset tokens x epochs (0 for inference)."""
        p = self.profile
        if p.workload == "inference" or p.dataset_tokens is None:
            return 0.0
        return p.dataset_tokens * (p.epochs or 1.0)


def resolve_workload(*, profile: WorkloadProfile, catalog: CatalogView) -> ResolvedWorkload:
    """Fill the profile's unknown fields with the named defaults above (provenance "assumed").

    Raises InputError when neither a model id nor a parameter count is given.
    """
    tb = TraceBuilder()
    p = profile
    assumed: dict[str, Any] = {}
    src_default = "tools/defaults.py"

    def default(field: str, value: object, why: str, unit: str = "") -> None:
        if getattr(p, field) is None:
            assumed[field] = value
            scalar = value if isinstance(value, int | float | str | bool) else str(value)
            tb.assume(f"{field} (default)", scalar, unit, f"{why} [{src_default}]")

    # --- model -------------------------------------------------------------------------------
    if p.model_id:
        arch = catalog.model(p.model_id)
        params_for_flops = float(arch.active_param_count())
        if p.params_b is None:
            assumed["params_b"] = round(arch.param_count() / 1e9, 3)
            tb.assume("params_b (from catalog)", float(assumed["params_b"]), "B", f"{arch.id} architecture")
    elif p.params_b:
        arch = synthetic_arch(p.params_b)
        params_for_flops = p.params_b * 1e9
        tb.assume(
            "architecture (synthetic)",
            arch.id,
            "",
            f"Llama-like layer shapes for {p.params_b:g}B parameters (tools/catalog/synthetic.py); "
            "give the model id for exact shapes",
        )
    else:
        raise InputError("Say which model to size: a catalog model id (e.g. llama-3-8b) or params_b.")

    # --- workload and method -----------------------------------------------------------------
    serving = (p.concurrency, p.target_tokens_per_s, p.latency_ms_per_token, p.ttft_target_s)
    inference_hint = any(v is not None for v in serving)
    workload = p.workload or ("inference" if inference_hint and p.method is None else "fine_tuning")
    default("workload", workload, "fine-tuning unless serving terms appear")
    method: ProfileMethod | None
    if workload == "fine_tuning":
        method = p.method or "lora"
        default("method", method, "LoRA: the usual parameter-efficient fine-tuning method (seed 000)")
    elif workload in ("pretraining", "continual_pretraining"):
        method = p.method or "full"
        default("method", method, "pre-training updates every weight")
    else:
        method = p.method
    native = NATIVE_SERVING_PRECISION.get(arch.family) if workload == "inference" else None
    precision = p.precision or ("nf4" if method == "qlora" else native or "bf16")
    if native and p.precision is None:
        default("precision", precision, f"{arch.name} is published and served in {native.upper()}")
    else:
        default("precision", precision, "QLoRA stores the base in NF4; otherwise BF16 (seed 001)")

    if workload == "inference":
        if not p.generation_tokens:  # a batch job's concurrency is the plan's (all it holds), not assumed
            default("concurrency", CONCURRENCY_DEFAULT, CONCURRENCY_DEFAULT_SOURCE, "sequences")
            # an aggregate rate stated is the speed asked for, and a latency target waived is none: no floor
            if p.target_tokens_per_s is None and not p.no_latency_target:
                default(
                    "latency_ms_per_token",
                    INTERACTIVE_LATENCY_MS_PER_TOKEN_DEFAULT,
                    INTERACTIVE_SPEED_SOURCE,
                    "ms/token",
                )
        # a TTFT target with a stated context and no prompt: checked for a full-context prompt (review 20)
        full = ttft_prompt_tokens(
            ttft_target_s=p.ttft_target_s,
            context_len=p.context_len,
            prompt_tokens=p.prompt_tokens,
            output_tokens=p.output_tokens or OUTPUT_TOKENS_DEFAULT,
        )
        if full is not None:
            default("prompt_tokens", full, TTFT_FULL_CONTEXT_WHY, "tokens")
        # "8k-token prompts": the context holds the prompt and its answer (expert review 10, R13)
        if p.prompt_tokens:
            answer = p.output_tokens or OUTPUT_TOKENS_DEFAULT
            ctx = min(max(CONTEXT_LEN_DEFAULT, p.prompt_tokens + answer), arch.max_context)
            why = f"the stated prompt plus {answer:,} answer tokens (at least 4096, within the model's limit)"
        else:
            ctx = min(CONTEXT_LEN_DEFAULT, arch.max_context)
            why = "4096 tokens, capped at the model's maximum context"
        default("context_len", ctx, why, "tokens")
    else:
        default(
            "seq_len", min(SEQ_LEN_DEFAULT, arch.max_context), "seed 001 / tools.memory default", "tokens"
        )
        default("batch_size", BATCH_SIZE_DEFAULT, "micro-batch 1 with gradient accumulation", "sequences")
        if workload in ("pretraining", "continual_pretraining"):
            if p.framework is None:  # the generic band: None is the value, recorded as assumed
                assumed["framework"] = PRETRAINING_FRAMEWORK_DEFAULT
                tb.assume(
                    "framework (default)",
                    "none named: the generic band of the pre-training stacks",
                    "",
                    f"{PRETRAINING_STACK_TEXT}; PRETRAINING_FRAMEWORK_DEFAULT [{src_default}]",
                )
        else:
            default(
                "framework",
                FRAMEWORK_DEFAULT,
                "Transformers Trainer / TRL / PEFT: what most fine-tuning teams run (seed 000)",
            )
        if method in ("lora", "qlora"):
            default("lora_rank", LORA_RANK_DEFAULT, "PEFT examples; seed 000 ranks 16-64")
        default("epochs", EPOCHS_DEFAULT, "one pass; seed 001 uses 3 (see sensitivity)")
        tokens = p.dataset_tokens
        if tokens is None:
            if p.dataset_gb is not None:
                tokens = gb_to_bytes(p.dataset_gb) / BYTES_PER_TOKEN
                default(
                    "dataset_tokens",
                    tokens,
                    f"dataset_gb x 1e9 / {BYTES_PER_TOKEN:g} bytes per token",
                    "tokens",
                )
            elif workload == "pretraining":
                tokens = CHINCHILLA_TOKENS_PER_PARAM * params_for_flops
                default("dataset_tokens", tokens, "Chinchilla: 20 tokens per parameter", "tokens")
            elif workload == "continual_pretraining":
                tokens = CONTINUAL_PRETRAINING_TOKENS_DEFAULT
                default(
                    "dataset_tokens",
                    tokens,
                    "seed 000: continual pre-training starts near 10B tokens",
                    "tokens",
                )
            else:
                tokens = FINE_TUNING_TOKENS_DEFAULT
                default(
                    "dataset_tokens",
                    tokens,
                    "a ~100M-token fine-tuning corpus (replace with yours)",
                    "tokens",
                )
        if p.dataset_gb is None:
            default(
                "dataset_gb",
                bytes_to_gb(tokens * BYTES_PER_TOKEN),
                f"{BYTES_PER_TOKEN:g} bytes per token",
                "GB",
            )
        default("runs_per_month", RUNS_PER_MONTH_DEFAULT, "one run a month", "runs")
        default("data_cached", DATA_CACHED_DEFAULT, "copy once to the provider, reuse (seed 001)")
        default("data_location", DATA_LOCATION_DEFAULT, "uploads from your machines: cloud ingress is free")
    default("horizon_months", HORIZON_MONTHS_DEFAULT, "owned-hardware and reserved comparisons", "months")
    default("eu_only", False, "no data-residency constraint stated")
    default("ops_capacity", "limited", "a small team without dedicated cluster operations")
    default("deployment_preference", "cloud", "rent unless a reason to own is stated")
    default("objective", "balanced", "cost and time weighed together")

    resolved = p.with_values("assumed", None, **assumed) if assumed else p
    return ResolvedWorkload(
        profile=resolved,
        arch=arch,
        params_for_flops=params_for_flops,
        assumed_fields=tuple(k for k in assumed if k != "params_b"),
        **tb.fields(),
    )
