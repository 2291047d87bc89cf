"""A Llama-like architecture for a bare parameter count (`gpu-advisor size --params-b N`).

When a user gives only "a 20B model", the memory calculator still needs layers, hidden size, heads
and vocabulary for activations and logits. This module interpolates them from published Llama 2/3
shapes (anchors below, from each model's config.json), then solves the MLP width so that the
derived parameter count matches the requested one:

1. hidden size and layer count are interpolated linearly in log(parameters) between anchors
   (hidden rounded to a multiple of 128; both never decrease as parameters grow); beyond the largest
   anchor the depth grows with the parameters;
2. head_dim 128 always and heads = hidden / 128, 8 KV heads (GQA as in Llama 3). The head count is
   invented, so tensor parallelism is not required to divide it (tools.memory checks tp <= heads);
3. vocabulary 128,256 (Llama 3 tokenizer), untied embeddings, SwiGLU MLP, 2 RMSNorms per layer;
4. intermediate (MLP) width = (target - embeddings - layers x (attention + norms) - final norm)
   / (layers x 3 x hidden), rounded to a multiple of 64.

The result is an estimate's input, not a real model: the report says it is synthetic. At a fixed
parameter count a wider, shallower shape stores fewer activations per token (activations ~ L x h,
parameters ~ L x h^2), so where the interpolated width steps up by 128 the next size's estimate can
dip slightly (at most ~7% below 1B, ~2% above 2B in bench sweeps) before rising again; growing one
architecture (more layers, or wider everywhere) never lowers the estimate (tests/memory properties).
"""

from __future__ import annotations

import datetime as dt
import math

from tools.catalog.schema import ModelArch
from tools.errors import InputError

SYNTHETIC_AS_OF = dt.date(2026, 11, 22)
SYNTHETIC_VOCAB = 128256
SYNTHETIC_HEAD_DIM = 128
SYNTHETIC_KV_HEADS = 8
MIN_PARAMS_B = 0.1
MAX_PARAMS_B = 10000.0
SMALL_PARAMS_B = 0.5
"""Below this, a 128k vocabulary with an untied head would be most of the model: small models use
SmolLM2's shapes instead (49,152-token vocabulary, tied embeddings; HuggingFaceTB/SmolLM2-135M and -360M
config.json, 2024-11), review 6: 'train a 350M param model from scratch' was refused."""
SMALL_VOCAB = 49152
# (parameters in billions, layers, hidden) of SmolLM2-135M and -360M (config.json), then the 0.5B anchor
SMALL_ANCHORS: tuple[tuple[float, int, int], ...] = ((0.135, 30, 576), (0.36, 32, 960), (0.5, 32, 1024))

# (parameters in billions, layers, hidden) from Llama config.json files (Llama 3.2 1B/3B, Llama 3.1
# 8B/70B/405B, Llama 2 13B, CodeLlama 34B); the 0.5B anchor extends the family's aspect ratio down.
ANCHORS: tuple[tuple[float, int, int], ...] = (
    (0.5, 16, 1024),
    (1.2, 16, 2048),
    (3.2, 28, 3072),
    (8.0, 32, 4096),
    (13.0, 40, 5120),
    (34.0, 48, 8192),
    (70.0, 80, 8192),
    (405.0, 126, 16384),
)


def _interpolate(params_b: float) -> tuple[int, int]:
    """(layers, hidden) for a parameter count, log-linear between anchors."""
    if params_b < SMALL_PARAMS_B:
        return _between(SMALL_ANCHORS, params_b, step=64)
    if params_b >= ANCHORS[-1][0]:
        _, layers, hidden = ANCHORS[-1]
        return max(layers, math.floor(layers * params_b / ANCHORS[-1][0])), hidden
    return _between(ANCHORS, params_b, step=128)


def _between(anchors: tuple[tuple[float, int, int], ...], params_b: float, step: int) -> tuple[int, int]:
    """(layers, hidden) log-linear between the two anchors around `params_b` (hidden a multiple of
    `step`); below the first anchor, its shape."""
    for (p0, l0, h0), (p1, l1, h1) in zip(anchors, anchors[1:], strict=False):
        if p0 <= params_b <= p1:
            t = (math.log(params_b) - math.log(p0)) / (math.log(p1) - math.log(p0))
            layers = math.floor(l0 + t * (l1 - l0))
            hidden = step * round((h0 + t * (h1 - h0)) / step)
            return layers, hidden
    return anchors[0][1], anchors[0][2]


def synthetic_arch(
    params_b: float, *, kv_heads: int | None = None, layers: int | None = None, hidden: int | None = None
) -> ModelArch:
    """A Llama-like decoder whose derived parameter count is within ~1% of `params_b` billion.

    `kv_heads`, `layers` and `hidden` (issue 15) replace the interpolated/assumed values when the
    user knows them (a full-attention model has as many KV heads as heads: its KV cache is 4x the
    8-head assumption at 32 heads); the MLP width is then solved for the rest of the parameters."""
    if not math.isfinite(params_b) or params_b < MIN_PARAMS_B or params_b > MAX_PARAMS_B:
        raise InputError(
            f"--params-b must be between {MIN_PARAMS_B} and {MAX_PARAMS_B:g} (got {params_b}); "
            "for other models use --model or --config"
        )
    for flag, value in (("--kv-heads", kv_heads), ("--layers", layers), ("--hidden", hidden)):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
            raise InputError(f"{flag} must be a whole number >= 1 (got {value!r})")
    target = params_b * 1e9
    auto_layers, auto_hidden = _interpolate(params_b)
    layers = layers or auto_layers
    hidden = hidden or auto_hidden
    if params_b >= SMALL_PARAMS_B and hidden % SYNTHETIC_HEAD_DIM:
        raise InputError(f"--hidden must be a multiple of {SYNTHETIC_HEAD_DIM} (got {hidden})")
    small = params_b < SMALL_PARAMS_B
    head_dim = 64 if small else SYNTHETIC_HEAD_DIM  # SmolLM2: 64-wide heads
    if small and hidden % head_dim:
        raise InputError(f"--hidden must be a multiple of {head_dim} (got {hidden})")
    heads = hidden // head_dim
    kv = kv_heads or min(SYNTHETIC_KV_HEADS, heads)
    if kv > heads:  # the head count is invented (hidden / 128), so only kv <= heads is required
        raise InputError(
            f"--kv-heads {kv} exceeds the {heads} attention heads of hidden size {hidden}: "
            f"give --hidden {kv * head_dim} (or more) too"
        )
    q = heads * head_dim
    kvd = kv * head_dim
    attention = hidden * q + 2 * hidden * kvd + q * hidden
    vocab = SMALL_VOCAB if small else SYNTHETIC_VOCAB
    embeddings = (1 if small else 2) * vocab * hidden  # small models tie the head to the embedding
    budget = target - embeddings - layers * (attention + 2 * hidden) - hidden
    if budget <= 0:
        raise InputError(
            f"{params_b:g}B parameters leave no room for an MLP at {layers} layers x hidden {hidden}: "
            "give fewer --layers or a smaller --hidden"
        )
    ffn = max(64, 64 * round(budget / (layers * 3 * hidden) / 64))
    return ModelArch(
        id=f"synthetic-{params_b:g}b",
        name=f"Synthetic {params_b:g}B (Llama-like)",
        family="synthetic",
        hf_architecture="LlamaForCausalLM",
        n_layers=layers,
        hidden_size=hidden,
        n_heads=heads,
        n_kv_heads=kv,
        head_dim=head_dim,
        intermediate_size=ffn,
        vocab_size=vocab,
        tied_embeddings=small,
        max_context=131072,
        published_params_b=params_b,
        source="synthetic: shapes interpolated from "
        + ("SmolLM2" if small else "Llama 2/3")
        + " config.json anchors (catalog/synthetic.py)",
        as_of=SYNTHETIC_AS_OF,
    )
