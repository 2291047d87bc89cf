"""Record types of the catalogs (GPUs, models, prices). Validated with pydantic on load.

Every record carries `source` (where the figure was read) and `as_of` (the date it was read).
"""

from __future__ import annotations

import datetime as dt
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

ScaleUpLink = Literal[
    "nvlink3", "nvlink4", "nvlink5", "nvlink_bridge", "nvlink_c2c", "infinity_fabric", "pcie", "roce", "none"
]
ScaleOut = Literal["infiniband", "roce", "ethernet", "none"]
Pricing = Literal["on_demand", "spot", "reserved"]
Cloud = Literal["aws", "gcp", "azure"]
Area = Literal["us", "eu", "other"]
"""Where a provider has data centres: the US, the EU, elsewhere (a price record's `areas`)."""


class Sourced(BaseModel):
    """Base of every catalog record: frozen, unknown fields rejected, dated and sourced."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    source: str = Field(min_length=1)
    as_of: dt.date


class GpuSpec(Sourced):
    """One accelerator. Dense (not 2:4 sparse) TFLOPS; marketed GB (1e9) vs usable GiB (2**30)."""

    id: str
    name: str
    vendor: Literal["nvidia", "amd", "intel"]
    aliases: tuple[str, ...] = ()
    consumer: bool = False
    memory_gb: float = Field(gt=0, description="marketed memory, GB")
    usable_memory_gib: float = Field(gt=0, description="memory the runtime exposes, GiB")
    memory_bandwidth_tb_per_s: float = Field(gt=0)
    bf16_dense_tflops: float = Field(gt=0)
    fp8_dense_tflops: float | None = Field(default=None, gt=0)
    int8_dense_tops: float | None = Field(default=None, gt=0)
    scale_up_link: ScaleUpLink
    scale_up_bandwidth_gb_per_s: float | None = Field(
        default=None, gt=0, description="per-GPU bidirectional scale-up bandwidth, GB/s"
    )
    max_gpus_per_node: int = Field(default=8, gt=0)
    tdp_w: float | None = Field(default=None, gt=0)
    form_factor: str
    purchase_price_usd: float | None = Field(default=None, gt=0, description="per GPU, street price")
    purchase_price_source: str | None = None
    purchase_price_as_of: dt.date | None = Field(
        default=None, description="the price's own date (its source's latest year or month; day 1)"
    )
    notes: str = ""


class ModelArch(Sourced):
    """A decoder-only transformer's architecture, as in its Hugging Face config.json.

    Parameter counts are derived from these fields (never stored), and a test checks them against
    `published_params_b`.
    """

    id: str
    name: str
    family: str
    aliases: tuple[str, ...] = ()
    hf_architecture: str = ""
    n_layers: int = Field(gt=0)
    hidden_size: int = Field(gt=0)
    n_heads: int = Field(gt=0)
    n_kv_heads: int = Field(gt=0)
    head_dim: int = Field(gt=0)
    intermediate_size: int = Field(gt=0, description="dense MLP width")
    vocab_size: int = Field(gt=0)
    tied_embeddings: bool = False
    mlp_gated: bool = True
    qkv_bias: bool = False
    norms_per_layer: int = 2
    # Fused projections (the modelling code's module layout, not config.json): one nn.Linear for q/k/v
    # (Phi3Attention.qkv_proj) and one for the MLP's gate and up (Phi3MLP.gate_up_proj);
    # huggingface/transformers src/transformers/models/phi3/modeling_phi3.py, read 2026-11-28. Same parameters
    # as separate linears, but LoRA adapts (and peft casts the input of) one linear, not two or three.
    fused_qkv_proj: bool = False
    fused_gate_up_proj: bool = False
    # Mixture of experts (None for dense models)
    n_experts: int | None = Field(default=None, gt=0)
    n_active_experts: int | None = Field(default=None, gt=0)
    moe_intermediate_size: int | None = Field(default=None, gt=0)
    n_shared_experts: int = 0
    shared_expert_intermediate_size: int | None = Field(default=None, gt=0)
    first_dense_layers: int = 0
    # Multi-head latent attention (DeepSeek-V2/V3); None for standard attention
    q_lora_rank: int | None = Field(default=None, gt=0)
    kv_lora_rank: int | None = Field(default=None, gt=0)
    qk_rope_head_dim: int | None = Field(default=None, gt=0)
    qk_nope_head_dim: int | None = Field(default=None, gt=0)
    v_head_dim: int | None = Field(default=None, gt=0)
    # Local (sliding-window) attention: every `global_layer_every`-th layer is global
    sliding_window: int | None = Field(default=None, gt=0)
    global_layer_every: int | None = Field(default=None, gt=0)
    max_context: int = Field(gt=0)
    published_params_b: float | None = Field(default=None, gt=0, description="the count its authors publish")
    license: str = ""

    # --- derived shapes ---------------------------------------------------------------------
    @property
    def is_moe(self) -> bool:
        return self.n_experts is not None and self.n_experts > 1

    @property
    def uses_mla(self) -> bool:
        return self.kv_lora_rank is not None

    def attention_linears(self) -> dict[str, tuple[int, int]]:
        """(in, out) of each attention projection in one layer."""
        h = self.hidden_size
        if self.uses_mla:
            assert self.kv_lora_rank and self.qk_rope_head_dim and self.qk_nope_head_dim and self.v_head_dim
            qk = self.qk_nope_head_dim + self.qk_rope_head_dim
            shapes: dict[str, tuple[int, int]] = {}
            if self.q_lora_rank:
                shapes["q_a_proj"] = (h, self.q_lora_rank)
                shapes["q_b_proj"] = (self.q_lora_rank, self.n_heads * qk)
            else:
                shapes["q_proj"] = (h, self.n_heads * qk)
            shapes["kv_a_proj_with_mqa"] = (h, self.kv_lora_rank + self.qk_rope_head_dim)
            kv_b_out = self.n_heads * (self.qk_nope_head_dim + self.v_head_dim)
            shapes["kv_b_proj"] = (self.kv_lora_rank, kv_b_out)
            shapes["o_proj"] = (self.n_heads * self.v_head_dim, h)
            return shapes
        q = self.n_heads * self.head_dim
        kv = self.n_kv_heads * self.head_dim
        return {"q_proj": (h, q), "k_proj": (h, kv), "v_proj": (h, kv), "o_proj": (q, h)}

    def mlp_linears(self, width: int) -> dict[str, tuple[int, int]]:
        """(in, out) of each MLP projection of one MLP of the given width."""
        h = self.hidden_size
        if self.mlp_gated:
            return {"gate_proj": (h, width), "up_proj": (h, width), "down_proj": (width, h)}
        return {"up_proj": (h, width), "down_proj": (width, h)}

    def _linear_params(self, shapes: dict[str, tuple[int, int]]) -> int:
        return sum(i * o for i, o in shapes.values())

    def _attention_params(self) -> int:
        n = self._linear_params(self.attention_linears())
        if self.qkv_bias and not self.uses_mla:
            n += (self.n_heads + 2 * self.n_kv_heads) * self.head_dim
        if self.uses_mla:  # the two latent RMSNorms
            n += (self.q_lora_rank or 0) + (self.kv_lora_rank or 0)
        return n

    def _moe_layer_params(self, experts: int) -> int:
        assert self.moe_intermediate_size is not None and self.n_experts is not None
        per_expert = self._linear_params(self.mlp_linears(self.moe_intermediate_size))
        shared_width = self.shared_expert_intermediate_size or (
            self.moe_intermediate_size * self.n_shared_experts if self.n_shared_experts else 0
        )
        shared = self._linear_params(self.mlp_linears(shared_width)) if shared_width else 0
        router = self.hidden_size * self.n_experts
        return experts * per_expert + shared + router

    def _dense_mlp_params(self) -> int:
        return self._linear_params(self.mlp_linears(self.intermediate_size))

    @property
    def n_moe_layers(self) -> int:
        return self.n_layers - self.first_dense_layers if self.is_moe else 0

    def embedding_params(self) -> int:
        """Input embedding plus an untied output head."""
        e = self.vocab_size * self.hidden_size
        return e if self.tied_embeddings else 2 * e

    def layer_params(self, active_only: bool = False) -> int:
        """Parameters of all transformer layers (attention, MLP or experts, norms)."""
        norms = self.norms_per_layer * self.hidden_size
        attn = self._attention_params()
        dense = self.n_layers - self.n_moe_layers
        total = dense * (attn + self._dense_mlp_params() + norms)
        if self.n_moe_layers:
            assert self.n_experts is not None
            experts = (self.n_active_experts or self.n_experts) if active_only else self.n_experts
            total += self.n_moe_layers * (attn + self._moe_layer_params(experts) + norms)
        return total

    def param_count(self) -> int:
        """Total parameters: embeddings (+ untied head) + layers + final norm."""
        return self.embedding_params() + self.layer_params() + self.hidden_size

    def active_param_count(self) -> int:
        """Parameters used per token (MoE: routed top-k plus shared experts); equals total when dense."""
        return self.embedding_params() + self.layer_params(active_only=True) + self.hidden_size

    def linear_params(self) -> int:
        """Parameters in the transformer layers' linear projections (what 4-bit quantisation touches)."""
        return self.layer_params() - self.n_layers * self.norms_per_layer * self.hidden_size

    def kv_bytes_per_token(self, bytes_per_value: float) -> float:
        """KV-cache bytes per token over all layers. MLA caches the compressed latent plus rope key.

        Standard: 2 x layers x kv_heads x head_dim x bytes (seed 001). Sliding-window layers are
        counted at full context here; `kv_cache_bytes` caps them at the window.
        """
        if self.uses_mla:
            assert self.kv_lora_rank and self.qk_rope_head_dim
            return self.n_layers * (self.kv_lora_rank + self.qk_rope_head_dim) * bytes_per_value
        return 2 * self.n_layers * self.n_kv_heads * self.head_dim * bytes_per_value

    def kv_cache_bytes(self, tokens: int, bytes_per_value: float) -> float:
        """KV-cache bytes for one sequence of `tokens`, capping local layers at the sliding window."""
        if self.uses_mla or not (self.sliding_window and self.global_layer_every):
            return self.kv_bytes_per_token(bytes_per_value) * tokens
        n_global = self.n_layers // self.global_layer_every
        n_local = self.n_layers - n_global
        per_layer_token = 2 * self.n_kv_heads * self.head_dim * bytes_per_value
        return per_layer_token * (n_global * tokens + n_local * min(tokens, self.sliding_window))


class PriceRecord(Sourced):
    """One provider's price for one GPU under one pricing model, USD per GPU-hour."""

    provider: str
    gpu: str = Field(description="catalog GPU id")
    pricing: Pricing
    usd_per_gpu_hour: float = Field(gt=0)
    tier: str = Field(description="product tier, e.g. hyperscaler, secure, community, marketplace")
    region: str | None = None
    eu: bool = False
    areas: tuple[Area, ...] = Field(
        default=(),
        description="where the provider has data centres (its public region list), for a record with no "
        "region: 'us', 'eu', 'other'; empty: not listed (the recommender says 'region not listed')",
    )
    areas_source: str = Field(default="", description="the region list (URL or document); needed with areas")
    areas_as_of: dt.date | None = Field(default=None, description="when the region list was read")
    cloud: Cloud | None = Field(default=None, description="set when the provider is a hyperscaler")
    managed: bool = Field(default=False, description="a managed ML service (premium applies)")
    gpus_per_node: tuple[int, ...] = (1, 8)
    scale_out: ScaleOut = "none"
    commitment_months: float | None = Field(default=None, gt=0, description="reserved term")
    egress_free: bool = Field(default=False, description="provider charges no egress")
    reference_only: bool = Field(
        default=False,
        description="a price quoted for a worked example (e.g. seed 001's unnamed bare-metal provider): "
        "offered only when a profile shortlists its provider, never as a market option",
    )
    negotiated: bool = Field(
        default=False,
        description="a rate agreed with the provider (the buyer's contract or written quote): the run "
        "pays it, so no price spread applies whatever the pricing model (records of a --prices file "
        "are negotiated unless they say negotiated: false)",
    )
    notes: str = ""

    @model_validator(mode="after")
    def _areas_sourced(self) -> PriceRecord:
        """A data-centre area is a fact like a price: it carries its own source and date."""
        if self.areas and not (self.areas_source and self.areas_as_of):
            raise ValueError(f"{self.provider}: areas need areas_source and areas_as_of")
        return self


class EgressTier(BaseModel):
    """USD per GB for monthly volume up to `up_to_gb` (None = no upper bound)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    up_to_gb: float | None = Field(default=None, gt=0)
    usd_per_gb: float = Field(ge=0)


class EgressSchedule(Sourced):
    """A cloud's internet egress price schedule, tiered by monthly volume."""

    cloud: str
    free_gb_per_month: float = Field(default=0, ge=0)
    tiers: tuple[EgressTier, ...]


class StoragePrice(Sourced):
    """Object storage price, USD per GB-month."""

    provider: str
    usd_per_gb_month: float = Field(ge=0)
    tier: str = "standard"


class Estimate(Sourced):
    """A named, editable estimate (managed-service premium, power price, PUE...)."""

    name: str
    value: float
    unit: str
    notes: str = ""
