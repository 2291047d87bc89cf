"""How the report names the engine's things: profile fields and their values, options, pricing and
deployment kinds, option keys. Numbers inside go through tools.present."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from typing import Any

import prompts
from reports import charts
from tools import present
from tools.catalog.load import load_catalog
from tools.preference import OBJECTIVE_TEXT
from tools.provider_scope import provider_name, unpriced
from tools.recommend.models import Option
from tools.recommend.option_id import OptionId
from tools.recommend.owned import FABRIC_WORDS

PRICING_TEXT = {"on_demand": "on-demand", "spot": "spot", "reserved": "reserved", "owned": "owned"}
DEPLOYMENT_TEXT = {
    "cloud": "cloud, self-managed",
    "managed": "managed ML service",
    "bare_metal": "bare metal",
    "colocation": "colocation",
    "owned": "owned hardware",
}
STATUS_TEXT = {"stated": "stated", "inferred": "inferred", "assumed": "assumed"}

# Profile fields as the report shows them: label and how to format the value.
FIELD_LABELS: dict[str, str] = {
    "workload": "Workload",
    "model_id": "Model",
    "params_b": "Parameters",
    "method": "Method",
    "precision": "Weight precision",
    "dataset_tokens": "Training tokens per epoch",
    "dataset_gb": "Dataset size",
    "epochs": "Epochs",
    "seq_len": "Sequence length",
    "batch_size": "Micro-batch per GPU",
    "lora_rank": "LoRA rank",
    "training_objective": "Training objective",
    "ref_log_probs_precomputed": "Reference log-probs precomputed",
    "kv_cache_precision": "KV cache precision",
    "data_location": "Data location",
    "data_region": "Data region",
    "data_cached": "Data cached at provider",
    "runs_per_month": "Runs per month",
    "budget_usd": "Budget",
    "deadline_hours": "Deadline",
    "deadline_soft": "Deadline kind",
    "concurrency": "Concurrent sequences",
    "context_len": "Context length",
    "target_tokens_per_s": "Target decode rate",
    "latency_ms_per_token": "Latency target",
    "no_latency_target": "Per-user latency target",
    "serving_scheduled": "Service hours",
    "runs_total": "Training runs",
    "utilization": "Sustained utilisation",
    "horizon_months": "Planning horizon",
    "eu_only": "EU-only data residency",
    "us_only": "US regions only",
    "region_asked": "Place asked for (outside the US and EU)",
    "spot_ok": "Spot capacity acceptable",
    "cannot_resume": "Restarts from a checkpoint",
    "ops_capacity": "Operations capacity",
    "deployment_preference": "Deployment preference",
    "providers_preferred": "Preferred providers",
    "providers_excluded": "Excluded providers",
    "providers_required": "Required providers (nothing else)",
    "pricing_excluded": "Pricing ruled out",
    "objective": "Objective",
    "claimed_gpu": "GPU in the user's claim",
    "claimed_gpu_count": "GPU count in the claim",
    "claimed_gpu_bound": "What the claim says of that count (minimum, too few)",
    "claim_source": "Who makes the claim (the user's vendor, boss, a blog)",
    "claimed_hours": "Hours the user expects",
    "claimed_speedup": "Times faster the claim says the first compared GPU is",
    "availability_target": "Uptime target",
    "framework": "Training framework",
    "gpus_wanted": "GPU types wanted",
    "gpus_excluded": "GPU types ruled out",
    "max_gpus": "Most GPUs allowed",
    "ttft_target_s": "Time to first token",
    "response_target_s": "Time per answer",
    "latency_percentile": "Latency percentile",
    "latency_median": "Latency percentile",
    "purchase_usd_per_gpu": "Stated purchase price per GPU",
    "budget_capex": "Budget is a one-off purchase",
    "colocation": "Bought hardware is colocated",
    "gpus_compared": "GPUs compared",
    "gpu_counts_compared": "GPU counts compared",
    "memory_asked": "You asked",
    "count_asked": "You asked",
    "purchase_gpu": "GPU of the stated purchase price",
    "owned_gpu": "GPUs you own",
    "owned_gpu_count": "How many you own",
    "owned_reserved": "Held as a cloud reservation",
    "owned_provider": "Where your GPUs are",
    "owned_months_left": "Term left on them",
    "owned_gpus_per_node": "GPUs per server you own",
    "owned_fabric": "Network between your servers",
    "buy_what_if": "Buying",
    "buy_asked": "You asked",
    "current_gpu": "GPUs you rent now",
    "current_gpu_count": "How many you rent now",
    "current_provider": "Where they run now",
    "current_pricing": "How they are paid now",
    "current_usd_per_month": "What they cost you a month",
    "providers_asked": "Providers priced for the same capacity",
    "reserved_months_asked": "Reserved term asked",
    "power_price_usd_per_kwh": "Power price",
    "prompt_tokens": "Prompt length",
    "output_tokens": "Answer length",
    "generation_tokens": "Tokens to generate",
}

MEMORY_LABELS = {key: name for key, name, _c, _p in charts.MEMORY_COMPONENTS}


def field_value(name: str, value: Any, workload: str | None = None) -> str:
    """A profile value as the report prints it (`workload` names the method of a pre-training job)."""
    if value is None:
        return present.UNKNOWN
    if name == "providers_excluded" and value:  # a name the catalog does not price changes nothing (fix34)
        return excluded_providers_text(value)
    if isinstance(value, list | tuple):
        words = [PRICING_TEXT.get(str(v), str(v)) if name == "pricing_excluded" else str(v) for v in value]
        return ", ".join(words) if words else "none"
    formatters: dict[str, Callable[[Any], str]] = {
        "params_b": lambda v: present.count(v * 1e9),
        "dataset_tokens": present.count,
        "dataset_gb": present.gb,
        "budget_usd": present.usd,
        "deadline_hours": present.hours_with_days,
        "claimed_hours": present.hours,
        "utilization": present.pct,
        "availability_target": present.availability,
        "horizon_months": lambda v: f"{present.number(v)} months",
        "owned_months_left": present.months,
        "owned_fabric": lambda v: FABRIC_WORDS.get(str(v), str(v)),
        "buy_what_if": lambda v: (
            "weighed against renting (the cheaper over the horizon is the pick)" if v else "not asked"
        ),
        "buy_asked": lambda v: "whether buying pays off against renting" if v else "not asked",
        "current_usd_per_month": lambda v: f"{present.usd(v)}/month",
        "reserved_months_asked": present.months,
        "target_tokens_per_s": lambda v: f"{present.number(v)} tokens/s",
        "latency_ms_per_token": lambda v: f"{present.number(v)} ms/token",
        "no_latency_target": lambda v: "none" if v else "stated",
        "deadline_soft": lambda v: (
            "a preference, not a limit (options that miss it are not ruled out)" if v else "a hard limit"
        ),
        "serving_scheduled": lambda v: "only those stated (stopped outside them)" if v else "all month",
        "ttft_target_s": lambda v: f"under {present.number(v)} s",
        "response_target_s": lambda v: f"under {present.number(v)} s per answer",
        "latency_percentile": lambda v: f"p{present.number(v)} (holds at the slow end of the range)",
        "latency_median": lambda v: "p50, the median (judged at the middle of the range)" if v else "not p50",
        "cannot_resume": lambda v: "not possible (no spot or marketplace hosts)" if v else "possible",
        "memory_asked": lambda v: "how much GPU memory (per card and in all)" if v else "no memory figure",
        "count_asked": lambda v: "how many GPUs" if v else "no count",
        "seq_len": lambda v: f"{present.number(v)} tokens",
        "context_len": lambda v: f"{present.number(v)} tokens",
        "prompt_tokens": lambda v: f"{present.number(v)} tokens",
        "output_tokens": lambda v: f"{present.number(v)} tokens",
        "generation_tokens": lambda v: f"{present.count(v)} tokens",
        "power_price_usd_per_kwh": lambda v: present.usd_rate(v, "kWh"),
        "method": lambda v: present.method_text(v, workload),
        "training_objective": lambda v: OBJECTIVE_TEXT.get(v, str(v)),
    }
    if name in formatters:  # before the plain yes/no: "Per-user latency target: none", not "yes"
        return str(formatters[name](value))
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int | float):
        return present.number(value)
    return str(value).replace("_", " ") if name in ("workload", "objective", "data_location") else str(value)


def option_title(opt: Option) -> str:
    """'1× H100 SXM 80GB' or '16× H100 SXM 80GB (2 nodes × 8)'."""
    name = opt.gpu_name or opt.gpu
    text = f"{opt.total_gpus}× {name}"
    if opt.nodes > 1:
        text += f" ({opt.nodes} nodes × {opt.gpus_per_node})"
    return text


def pricing_text(opt: Option) -> str:
    """How an option is paid for, as the report writes it ('on-demand'; 'owned' / 'to buy' for hardware)."""
    return opt.pricing_words() if opt.pricing == "owned" else PRICING_TEXT.get(opt.pricing, opt.pricing)


def option_where(opt: Option) -> str:
    """'lambda · on-demand · us-east-1'."""
    parts = [opt.provider, pricing_text(opt)]
    if opt.region:
        parts.append(opt.region)
    return " · ".join(parts)


def option_short(opt: Option) -> str:
    """'8× H100 SXM 80GB': the GPUs without the node layout."""
    name = opt.gpu_name or opt.gpu
    return f"{opt.total_gpus}× {name}"


def value_words(text: str) -> str:
    """Engine value strings as words: True/False -> yes/no, snake_case -> spaces."""
    mapped = {"True": "yes", "False": "no", "None": present.UNKNOWN}.get(text.strip(), text)
    return mapped.replace("_", " ") if " " not in mapped else mapped


def option_key_text(key: OptionId | None, options: tuple[Option, ...] = (), catalog: Any = None) -> str:
    """An Option.key (gpu, count, provider, pricing) as words; the option's own title when it is listed."""
    if key is None:
        return ""
    for o in options:
        if o.key == key:
            return f"{option_short(o)} at {o.provider} ({pricing_text(o)})"
    gpu = key.gpu
    if catalog is not None:
        with contextlib.suppress(ValueError, KeyError, AttributeError):
            gpu = str(catalog.gpu(gpu).name)
    return f"{key.total_gpus}× {gpu} at {key.provider} ({PRICING_TEXT.get(key.pricing, key.pricing)})"


def excluded_providers_text(names: Sequence[str]) -> str:
    """The excluded providers as read, those the catalog does not price said to change nothing: 'azure, Oracle
    Cloud (Oracle Cloud is not among the providers priced; nothing to exclude)' (tools/provider_scope.py;
    "(not IBM)" was dropped, or read as an exclusion of the providers before it). The chat reply
    (advisor.llm.templates.understood) and the report's workload section say it alike."""
    missing = unpriced(names, load_catalog().prices)
    if not missing:
        return ", ".join(names) or "none"
    shown = [provider_name(n) if n in missing else n for n in names]
    gone = [provider_name(n) for n in missing]
    said = gone[0] if len(gone) == 1 else ", ".join(gone[:-1]) + " and " + gone[-1]
    key = "provider_not_priced_one" if len(gone) == 1 else "provider_not_priced_many"
    note = prompts.fill(prompts.sections("summary")[key], names=said)
    return f"{', '.join(shown)} ({note})"
