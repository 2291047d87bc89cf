"""Profile extraction: free text -> `tools.profile.WorkloadProfile` with provenance per field.

`get_extractor("rules")` is the offline, deterministic default; `get_extractor("openai")` loads the LLM
backend from advisor/llm/ (imported lazily so the rules path never pulls in LangChain).
"""

from __future__ import annotations

import importlib
from typing import Any

from advisor.extract.base import Extractor, Finding, merge_findings
from tools.errors import InputError

# backend name -> "module:attribute" of a zero-argument factory (a class or a function)
BACKENDS: dict[str, str] = {
    "rules": "advisor.extract.rules:RulesExtractor",
    "openai": "advisor.llm.extractor:OpenAIExtractor",
}


def get_extractor(backend: str = "rules", **kwargs: Any) -> Extractor:
    """The extractor registered under `backend`; unknown names raise InputError listing the known ones."""
    target = BACKENDS.get(backend)
    if target is None:
        raise InputError(f"unknown extraction backend {backend!r}: use one of {', '.join(sorted(BACKENDS))}")
    module_name, attr = target.split(":")
    factory = getattr(importlib.import_module(module_name), attr)
    extractor: Extractor = factory(**kwargs)
    return extractor


__all__ = ["BACKENDS", "Extractor", "Finding", "get_extractor", "merge_findings"]
