"""Architecture and LoRA helpers of the memory calculator (split out of tools.memory_states): the largest
layer and linear, Adafactor's factored state count, LoRA target names, adapted shapes and parameter counts."""

from __future__ import annotations

from tools.catalog.schema import ModelArch
from tools.errors import InputError

_TARGET_ALIASES = {"output_proj": "o_proj", "w1": "gate_proj", "w3": "up_proj", "w2": "down_proj"}


# --- architecture helpers -------------------------------------------------------------------------
def _mlp_width(arch: ModelArch) -> int:
    return (
        arch.moe_intermediate_size if arch.is_moe and arch.moe_intermediate_size else arch.intermediate_size
    )


def largest_layer_params(arch: ModelArch) -> int:
    """Parameters of the largest transformer layer (an MoE layer with all its experts when MoE)."""
    if arch.is_moe:
        moe = arch.model_copy(update={"first_dense_layers": 0})
        return moe.layer_params() // moe.n_layers
    return arch.layer_params() // arch.n_layers


def largest_linear_params(arch: ModelArch) -> int:
    """Parameters of the largest single linear projection (what QLoRA dequantises at once)."""
    shapes = dict(arch.attention_linears())
    shapes.update(arch.mlp_linears(arch.intermediate_size))
    if arch.is_moe and arch.moe_intermediate_size:
        shapes.update({f"expert_{k}": v for k, v in arch.mlp_linears(arch.moe_intermediate_size).items()})
    return max(i * o for i, o in shapes.values())


def adafactor_state_values(arch: ModelArch) -> float:
    """Adafactor (Shazeer & Stern 2018) without momentum keeps factored second moments: one row and one
    column vector per matrix (d_in + d_out values) and a full vector for 1-D parameters."""
    per_layer = sum(i + o for i, o in arch.attention_linears().values())
    if arch.is_moe and arch.moe_intermediate_size and arch.n_experts:
        per_layer += arch.n_experts * sum(
            i + o for i, o in arch.mlp_linears(arch.moe_intermediate_size).values()
        )
    else:
        per_layer += sum(i + o for i, o in arch.mlp_linears(arch.intermediate_size).values())
    per_layer += arch.norms_per_layer * arch.hidden_size
    embeddings = (1 if arch.tied_embeddings else 2) * (arch.vocab_size + arch.hidden_size)
    return float(arch.n_layers * per_layer + embeddings + arch.hidden_size)


# --- LoRA ----------------------------------------------------------------------------------------
def resolve_lora_targets(arch: ModelArch, targets: str | list[str] | tuple[str, ...]) -> tuple[str, ...]:
    """Module names LoRA adapts: 'attention' (q, k, v, o; MLA's projections), 'all-linear' (attention +
    MLP), 'mlp', or explicit names as a comma list (torchtune/Qwen names output_proj, w1-w3 accepted)."""
    attention = tuple(arch.attention_linears())
    mlp = tuple(arch.mlp_linears(_mlp_width(arch)))
    if isinstance(targets, str):
        key = targets.strip().lower()
        if key == "attention":
            return attention
        if key in ("all-linear", "all_linear", "all"):
            return attention + mlp
        if key == "mlp":
            return mlp
        names = [t.strip() for t in targets.split(",") if t.strip()]
    else:
        names = [t.strip() for t in targets if t.strip()]
    valid = attention + mlp
    out: list[str] = []
    for raw in names:
        name = _TARGET_ALIASES.get(raw, raw)
        if name not in valid:
            raise InputError(
                f"unknown LoRA target {name!r} for {arch.id}: use attention, all-linear, mlp or names from "
                f"{', '.join(valid)}"
            )
        if name not in out:
            out.append(name)
    if not out:
        raise InputError("--lora-targets is empty: use attention, all-linear or a comma list of module names")
    return tuple(out)


def adapted_linears(
    arch: ModelArch, targets: tuple[str, ...]
) -> tuple[dict[str, tuple[int, int]], dict[str, tuple[int, int]]]:
    """(attention shapes, MLP shapes) of the adapted linears in one layer; MLP shapes are per expert."""
    all_attn, all_mlp = arch.attention_linears(), arch.mlp_linears(_mlp_width(arch))
    attn = {k: v for k, v in all_attn.items() if k in targets}
    mlp = {k: v for k, v in all_mlp.items() if k in targets}
    if arch.fused_qkv_proj:
        attn = _fuse(attn, all_attn, ("q_proj", "k_proj", "v_proj"), "qkv_proj")
    if arch.fused_gate_up_proj:
        mlp = _fuse(mlp, all_mlp, ("gate_proj", "up_proj"), "gate_up_proj")
    return attn, mlp


def _fuse(
    adapted: dict[str, tuple[int, int]], every: dict[str, tuple[int, int]], names: tuple[str, ...], fused: str
) -> dict[str, tuple[int, int]]:
    """The model's one fused linear in place of the separate ones it stands for (ModelArch.fused_qkv_proj,
    fused_gate_up_proj): peft can only adapt the module that exists, so any of `names` targeted adapts the
    whole fused linear, (d_in, sum of the d_outs): one LoRA pair and one adapter input, not one per name."""
    if not any(n in adapted for n in names):
        return adapted
    parts = [every[n] for n in names if n in every]
    rest = {k: v for k, v in adapted.items() if k not in names}
    return {fused: (parts[0][0], sum(o for _, o in parts)), **rest}


def lora_param_count(arch: ModelArch, *, rank: int, targets: tuple[str, ...]) -> int:
    """LoRA trainable parameters: r x (d_in + d_out) per adapted matrix (Hu et al. 2021), over all
    layers; MoE expert linears are adapted in every expert (PEFT target_modules matches each expert's
    projections), shared experts and dense layers once."""
    attn, mlp = adapted_linears(arch, targets)
    per_attn = sum(rank * (i + o) for i, o in attn.values())
    per_mlp = sum(rank * (i + o) for i, o in mlp.values())
    if not arch.is_moe:
        return arch.n_layers * (per_attn + per_mlp)
    assert arch.n_experts is not None
    shared_width = (
        arch.shared_expert_intermediate_size or (arch.moe_intermediate_size or 0) * arch.n_shared_experts
    )
    shared = sum(rank * (i + o) for n, (i, o) in arch.mlp_linears(shared_width).items() if n in targets)
    dense = sum(
        rank * (i + o) for n, (i, o) in arch.mlp_linears(arch.intermediate_size).items() if n in targets
    )
    moe_layers = arch.n_moe_layers
    return (
        arch.n_layers * per_attn
        + moe_layers * (arch.n_experts * per_mlp + (shared if shared_width else 0))
        + (arch.n_layers - moe_layers) * dense
    )
