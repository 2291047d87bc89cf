"""The words that show a reply named a stated constraint (evals/harness.py's silent-drop test, issue 12):
an unused clause of a named kind holding words of the constraint's topic named it; else the constraint was
dropped silently. Split out of the harness (drops0, 2026-11-28) when the topics grew: dates and "due" name a
deadline, a GPU name names the owned GPU, and a rate the answer derives from a volume and a window is named
by either.
"""

from __future__ import annotations

# Words an unused clause holds when it states the constraint (so the reply named it, not dropped it).
_MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?"
# a date names a deadline ("Due: Dec 2", "deadline = 2026-12-11", a table's "Dec 10")
_DATE = rf"\b{_MONTH}\s+\d{{1,2}}\b|\b\d{{1,2}}\s+{_MONTH}(?!\w)|\b\d{{4}}-\d{{2}}-\d{{2}}\b"
_GPU_WORDS = (
    r"\b(?:[abhl]\d{2,3}|t4|b200|gb200|mi\d{3}x?|rtx|\d{4}|gpus?|cards?|consumer|dgx|hgx|nodes?|boxe?s?)"
    r"(?:s|'s)?\b"
)
_TIME_WORDS = (
    r"\b(?:hours?|h\b|days?|weeks?|months?|by|before|deadline|due|friday|monday|ms|latency|tokens?/s|"
    rf"per second|(?:milli)?seconds?|secs?|window)|{_DATE}"
)
CONSTRAINT_WORDS: dict[str, str] = {
    "eu": r"\beu\b|europe|union|gdpr|german|frankfurt|residen|sovereign",
    "provider": r"\b(?:aws|amazon|azure|gcp|google|lambda|coreweave|runpod|nebius|oracle|oci|hetzner|ovh"
    r"|scaleway|vast|together|cloud|provider|on[- ]?prem)",
    "pricing": r"spot|preempt|reserved|interrupt|on[- ]demand|commit",
    # a GPU named in the plural ("h100s only", "H100s or H200s") names it too
    "gpu": _GPU_WORDS,
    "money": r"[$€£]|\b(?:usd|eur|budget|dollars?|euros?|bucks|\d+\s*k\b|kwh|cents?)",
    "time": _TIME_WORDS,
    # a rate the answer derives from the volume and the window: either named names it
    "rate": _TIME_WORDS + r"|\b(?:tokens?|samples?|prompts?|checkpoints?|items?|skus?|articles?|reviews?)\b",
    # the owned hardware is named by its GPU ("Sorry, 8 L40S"), where it runs by "cloud", "colo", "rent"
    "owned": r"\b(?:own|owned|have|our|already|sitting|idle|in-house|on[- ]?prem|hold|rent|cloud|colo|"
    rf"reservation)|{_GPU_WORDS}",
    "question": r"\?|\b(?:can|could|is it|how long|my boss|claim)",
}
CONSTRAINT_TOPIC: dict[str, str] = {
    "eu_only": "eu", "eu_provider": "eu", "providers_required": "provider", "providers_preferred": "provider",
    "providers_excluded": "provider", "provider_in": "provider", "provider_not_in": "provider",
    "pricing_excluded": "pricing", "pricing_in": "pricing", "pricing_not": "pricing", "gpus_wanted": "gpu",
    "gpus_excluded": "gpu", "gpu_in": "gpu", "gpu_not_in": "gpu", "max_gpus": "gpu", "max_total_gpus": "gpu",
    "min_total_gpus": "gpu", "min_vram_gib": "gpu", "single_node": "gpu", "max_nodes": "gpu",
    "budget_usd": "money", "power_price_usd_per_kwh": "money", "deadline_hours": "time",
    "latency_ms_per_token": "time", "target_tokens_per_s": "rate", "ttft_target_s": "time",
    "owned_gpu": "owned",
    "owned_gpu_count": "owned", "deployment": "owned", "deployment_preference": "owned",
    "claimed_gpu": "question", "claimed_hours": "question", "claim_checked": "question",
}  # fmt: skip
