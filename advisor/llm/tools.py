"""Thin LangChain tool adapters over the tools/ calculators and the recommender.

Each adapter takes plain JSON arguments (a model id rather than a ModelArch), looks the objects up in
the catalog, calls one calculator and returns its result as JSON. Its description is the calculator's
own docstring, so the agent reads what the engineer wrote. Every result is also recorded in an
`AllowedNumbers` ledger for the number check; errors come back to the model as text ("error: ...")
instead of ending the conversation.
"""

from __future__ import annotations

import importlib
import inspect
import json
import logging
from collections.abc import Callable
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, create_model

from advisor.llm.numbers import AllowedNumbers
from advisor.service.recommending import CatalogLoader, Recommender, process_recommending
from tools.compute.inference import estimate_inference
from tools.compute.training import estimate_training_time
from tools.cost import egress_cost
from tools.defaults import CONTEXT_LEN_DEFAULT
from tools.errors import InputError
from tools.memory import estimate_memory
from tools.profile import WorkloadProfile
from tools.recommend.models import option_json
from tools.sizing_request import MODEL_FIELDS, SHAPE_FIELDS, SizingRequest
from tools.vocabulary import (
    Precision,
    TrainingMethod,
)

log = logging.getLogger(__name__)

WHAT_IF_FIELDS = (
    "model_id",
    "params_b",
    "method",
    "precision",
    "dataset_tokens",
    "epochs",
    "seq_len",
    "lora_rank",
    "training_objective",
    "ref_log_probs_precomputed",
    "budget_usd",
    "deadline_hours",
    "concurrency",
    "context_len",
    "utilization",
    "horizon_months",
    "eu_only",
    "us_only",
    "region_asked",
    "spot_ok",
    "runs_per_month",
    "runs_total",
    "cannot_resume",
    "data_location",
    "data_cached",
    "objective",
    "ops_capacity",
    "deployment_preference",
    "providers_excluded",
    "providers_preferred",
    "target_tokens_per_s",
    "no_latency_target",
    "serving_scheduled",
    "ttft_target_s",
    "response_target_s",
    "latency_percentile",
    "latency_median",
    "gpus_wanted",
    "gpus_excluded",
    "max_gpus",
    "owned_gpu",
    "owned_gpu_count",
    "owned_reserved",
    "owned_provider",
    "owned_months_left",
    "owned_gpus_per_node",
    "owned_fabric",
    "power_price_usd_per_kwh",
    "colocation",
    "prompt_tokens",
    "output_tokens",
    "generation_tokens",
    "availability_target",
)


def recommendation_brief(rec: Any) -> dict[str, Any]:
    """The parts of a Recommendation an explanation needs (primary, alternatives, rejections, checks),
    small enough for a prompt. Numbers are the recommender's, untouched."""

    def opt(o: Any) -> dict[str, Any]:
        d = option_json(o)
        keep = (
            "gpu",
            "gpu_name",
            "label",
            "total_gpus",
            "nodes",
            "gpus_per_node",
            "provider",
            "pricing",
            "region",
            "usd_per_gpu_hour",
            "wall_hours",
            "cost_usd",
            "cost_basis",
            "peak_gib_per_gpu",
            "vram_gib_per_gpu",
            "why",
            "risks",
            "meets_deadline",
            "meets_budget",
            "summary",
            "tco",
        )
        return {k: d[k] for k in keep if k in d and d[k] not in (None, [], ())}

    return {
        "primary": opt(rec.primary) if rec.primary is not None else None,
        "alternatives": [opt(o) for o in rec.alternatives[:3]],
        "rejected": [{"gpu": r.gpu, "reason": r.reason} for r in rec.rejected[:6]],
        "expectation_checks": [c.model_dump(mode="json") for c in rec.expectation_checks],
        "infeasible_advice": list(rec.infeasible_advice),
        "notes": list(getattr(rec, "notes", ())),
        "workload_class": getattr(rec, "workload_class", None),
    }


def _doc(fn: Callable[..., Any], extra: str = "") -> str:
    doc = inspect.getdoc(fn) or fn.__name__
    return f"{doc}\n\n{extra}".strip() if extra else doc


class _WhatIf(BaseModel):
    model_config = ConfigDict(extra="forbid")

    changes: dict[str, Any] = Field(
        default_factory=dict,
        description='profile fields to change for this what-if, e.g. {"epochs": 8} or '
        '{"method": "lora"}; allowed: ' + ", ".join(WHAT_IF_FIELDS),
    )


_MEMORY_SKIP = (*MODEL_FIELDS, *SHAPE_FIELDS, "gpu")
_Memory: type[BaseModel] = create_model(
    "_Memory",
    __config__=ConfigDict(extra="forbid"),
    model=(str, Field(description="catalog model id or alias, e.g. llama-3-70b")),
    **{name: (f.annotation, f) for name, f in SizingRequest.model_fields.items() if name not in _MEMORY_SKIP},  # type: ignore[call-overload]
)
"""The estimate_memory tool's arguments: a catalog model plus every calculator flag of
tools.sizing_request.SizingRequest (its types, defaults and help), derived as the CLI derives its flags."""


class _Training(BaseModel):
    model_config = ConfigDict(extra="forbid")

    model: str = Field(description="catalog model id or alias")
    gpu: str = Field(description="catalog GPU id or alias, e.g. h100-sxm")
    n_gpus: int = Field(ge=1)
    method: TrainingMethod
    dataset_tokens: float = Field(gt=0, description="tokens per epoch")
    epochs: float = Field(default=1, gt=0)


class _Inference(BaseModel):
    model_config = ConfigDict(extra="forbid")

    model: str
    gpu: str
    n_gpus: int = Field(default=1, ge=1)
    precision: Precision = "bf16"
    concurrency: int = Field(default=1, ge=1)
    context_len: int = Field(default=CONTEXT_LEN_DEFAULT, ge=1)


class _Egress(BaseModel):
    model_config = ConfigDict(extra="forbid")

    dataset_gb: float = Field(ge=0, description="dataset size, GB (1e9 bytes)")
    pulls: float = Field(ge=0, description="full reads of the dataset per month (runs that re-read it)")
    cloud: str = Field(description="where the data lives: aws | gcp | azure")
    same_cloud: bool = Field(default=False, description="the GPUs are in the same cloud as the data")


class _Gpu(BaseModel):
    model_config = ConfigDict(extra="forbid")

    gpu: str = Field(description="catalog GPU id or alias")


class ToolBox:
    """The agent's tools for one conversation turn, sharing a catalog, the current profile and a ledger.
    `catalog` and `recommender` default to the process's (advisor.service.recommending)."""

    def __init__(
        self,
        profile: WorkloadProfile,
        ledger: AllowedNumbers,
        *,
        catalog: CatalogLoader | None = None,
        recommender: Recommender | None = None,
    ) -> None:
        wired = process_recommending()
        self.profile = profile
        self.ledger = ledger
        self._catalog = catalog if catalog is not None else wired.catalog
        self._recommender = recommender if recommender is not None else wired
        self.calls: list[str] = []

    def _run(self, name: str, fn: Callable[[], Any]) -> str:
        self.calls.append(name)
        try:
            result = fn()
        except (InputError, ValueError) as exc:
            return f"error: {exc}"
        except Exception as exc:  # a calculator bug must not end the conversation
            log.exception("tool %s failed", name)
            return f"error: the {name} tool failed ({type(exc).__name__}); answer without it"
        self.ledger.add_tool_result(result)
        if isinstance(result, BaseModel):
            data: Any = result.model_dump(mode="json", exclude={"trace"})
        else:
            data = result
        return json.dumps(data, default=str)

    # -- adapters ------------------------------------------------------------------------------------
    def recommend_gpus(self, changes: dict[str, Any] | None = None) -> str:
        def run() -> Any:
            bad = sorted(set(changes or {}) - set(WHAT_IF_FIELDS))
            if bad:
                raise InputError(f"cannot change {', '.join(bad)}; allowed: {', '.join(WHAT_IF_FIELDS)}")
            profile = self.profile.with_values("stated", **(changes or {})) if changes else self.profile
            rec = self._recommender(profile)
            self.ledger.add_tool_result(rec)
            return recommendation_brief(rec)

        return self._run("recommend_gpus", run)

    def estimate_memory(self, **kw: Any) -> str:
        def run() -> Any:
            args = _Memory.model_validate(kw).model_dump()
            arch = self._catalog().model(args.pop("model"))
            return estimate_memory(**args, arch=arch)

        return self._run("estimate_memory", run)

    def estimate_training_time(self, **kw: Any) -> str:
        def run() -> Any:
            args = _Training.model_validate(kw)
            cat = self._catalog()
            arch = cat.model(args.model)
            return estimate_training_time(
                active_params=float(arch.active_param_count()),
                tokens=args.dataset_tokens * args.epochs,
                method=args.method,
                grad_checkpointing=True,
                gpu=cat.gpu(args.gpu),
                n_gpus=args.n_gpus,
                arch=arch,
            )

        return self._run("estimate_training_time", run)

    def estimate_inference(self, **kw: Any) -> str:
        def run() -> Any:
            args = _Inference.model_validate(kw)
            cat = self._catalog()
            return estimate_inference(
                arch=cat.model(args.model),
                gpu=cat.gpu(args.gpu),
                n_gpus=args.n_gpus,
                precision=args.precision,
                concurrency=args.concurrency,
                context_len=args.context_len,
            )

        return self._run("estimate_inference", run)

    def egress_cost(self, **kw: Any) -> str:
        def run() -> Any:
            args = _Egress.model_validate(kw)
            return egress_cost(
                dataset_gb=args.dataset_gb,
                pulls=args.pulls,
                same_cloud=args.same_cloud,
                schedule=self._catalog().egress_for(args.cloud),
            )

        return self._run("egress_cost", run)

    def gpu_spec(self, gpu: str) -> str:
        return self._run("gpu_spec", lambda: self._catalog().gpu(gpu))

    # -- LangChain tools -------------------------------------------------------------------------------
    def langchain_tools(self) -> list[Any]:
        """StructuredTools whose descriptions are the calculators' docstrings (missing calculators are
        left out, so the agent only sees what exists)."""
        # lazy: LangChain loads only when a chat model asks for the tools (the rules backend never does)
        from langchain_core.tools import StructuredTool

        Spec = tuple[str, Callable[..., str], type[BaseModel], Callable[[], Callable[..., Any]], str]
        specs: list[Spec] = [
            (
                "recommend_gpus",
                self.recommend_gpus,
                _WhatIf,
                _calc("tools.recommend", "recommend"),
                "Re-runs the recommender on the user's current workload with `changes` applied (a what-if).",
            ),
            (
                "estimate_memory",
                self.estimate_memory,
                _Memory,
                _calc("tools.memory", "estimate_memory"),
                "Call with a catalog model id instead of an architecture.",
            ),
            (
                "estimate_training_time",
                self.estimate_training_time,
                _Training,
                _calc("tools.compute.training", "estimate_training_time"),
                "Call with a catalog model id and GPU id; tokens = dataset_tokens x epochs.",
            ),
            (
                "estimate_inference",
                self.estimate_inference,
                _Inference,
                _calc("tools.compute.inference", "estimate_inference"),
                "Call with a catalog model id and GPU id.",
            ),
            (
                "egress_cost",
                self.egress_cost,
                _Egress,
                _calc("tools.cost", "egress_cost"),
                "Call with the cloud name; the catalog's tiered egress schedule is used.",
            ),
            (
                "gpu_spec",
                self.gpu_spec,
                _Gpu,
                _calc("tools.catalog.load", "Catalog.gpu"),
                "Returns the catalog's datasheet record of the GPU (memory, TFLOPS, bandwidth, sources).",
            ),
        ]
        out = []
        for name, fn, schema, calc, extra in specs:
            try:
                target = calc()
            except (ImportError, AttributeError):
                continue
            out.append(
                StructuredTool.from_function(
                    func=fn, name=name, description=_doc(target, extra), args_schema=schema
                )
            )
        return out


def _calc(module: str, attr: str) -> Callable[[], Callable[..., Any]]:
    def get() -> Callable[..., Any]:
        obj: Any = importlib.import_module(module)
        for part in attr.split("."):
            obj = getattr(obj, part)
        return obj  # type: ignore[no-any-return]

    return get
