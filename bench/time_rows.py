"""What the time bench needs from a calibration row that the row does not carry itself: the model's
attention shape (layers x attention width, for the sequence-length FLOPs term), the compute precision
in the estimate's vocabulary, the GPU's efficiency generation, and the framework as the estimate takes it.

Readings fixed after the fresh-3 rows were read (2026-11-29), where the bench misread a row:
- "VPP 4" (the Megatron MoE Model Zoo's name for virtual pipeline stages) was read as no interleaving;
  "VP n" and "VPP n" are both virtual stages now.
- A micro-batch the row's table leaves out but its own configuration sets (CONFIG_MICRO_BATCH:
  flash-attention's GPT3 experiment configs, BLOOM's replica setup) was read as 1 sequence.
- A whole run's GPU-hours (the Llama 2 paper's: row_whole_run) were compared with the estimate's step
  rate; they are compared with its whole-run rate (goodput in) now.
- The Megatron-LM paper's ZeRO-3 rows, which leave their checkpointing out, were read as not recomputing,
  though the paper's FLOPs count it (RECOMPUTE_IN_PUBLISHED_FLOPS_FAMILIES).
- FSDP's NO_SHARD strategy ("DDP mode", Answer.AI's fsdp_qlora) was read as sharded FSDP with weight
  gathers; it keeps every weight on every GPU and all-reduces the gradients, as DDP does.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bench.calibration_data import TrainingRow
from tools.catalog.load import load_catalog
from tools.catalog.schema import GpuSpec
from tools.compute.efficiency import Generation, generation_of, moe_routing_intensity
from tools.compute.moe_loop import EAGER_MOE_FRAMEWORKS, moe_loop_seconds_per_token
from tools.compute.optimizer_update import step_seconds_per_token
from tools.compute.padding import WILDCHAT_TABLE_1_SOURCE, SampleLengths
from tools.errors import InputError
from tools.vocabulary import FRAMEWORKS, Framework, TrainingPrecision

# (name fragment, layers, attention width = heads x head dim; MLA: heads x q/k head dim). From each
# model's config.json / paper (num_hidden_layers, num_attention_heads x head_dim); first match wins,
# so the longer fragments come first.
ATTENTION_SHAPES: tuple[tuple[str, int, int], ...] = (
    ("DeepSeek LLM 67B", 95, 8192),  # deepseek-llm-67b-base config: 95 layers, 64 heads x 128
    ("DeepSeek-V2", 60, 128 * 192),  # DeepSeek-V2 config: 60 layers, 128 heads, qk 128 nope + 64 rope
    ("DeepSeek", 61, 128 * 192),  # DeepSeek-V3 config: 61 layers, 128 heads, qk 128 nope + 64 rope
    ("OLMo 2 13B", 40, 5120),  # OLMo-2-1124-13B config
    ("OLMo 2 7B", 32, 4096),  # OLMo-2-1124-7B config
    ("OLMo 2 1B", 16, 2048),  # OLMo-2-0425-1B config: 16 layers, 16 heads x 128
    ("LLaMA 65B", 80, 8192),  # LLaMA paper Table 2 (n layers, dimension)
    ("LLaMA 33B", 60, 6656),
    ("LLaMA 13B", 40, 5120),
    ("LLaMA 7B", 32, 4096),
    ("Llama 2 34B", 48, 8192),  # Code Llama 34B config (the Llama 2 34B shape): 48 layers, 8192
    ("Yi-34B", 60, 7168),  # Yi-34B config: 60 layers, 56 heads x 128
    ("InternLM 7B", 32, 4096),  # internlm-7b config
    ("TinyLlama 1.1B", 22, 2048),  # TinyLlama-1.1B config: 22 layers, 32 heads x 64
    ("GPT-3 175B", 96, 12288),  # GPT-3 paper Table 2.1
    ("GPT-OSS 120B", 36, 64 * 64),  # gpt-oss-120b config: 36 layers, 64 heads x 64
    ("GPT-OSS 20B", 24, 64 * 64),  # gpt-oss-20b config: 24 layers, 64 heads x 64
    # the fresh-2 held-out families' models (bench/data/training_throughput_fresh2.yaml), from each config
    ("LLaMA 13B", 40, 5120),  # LLaMA (1) 13B: 40 layers, 40 heads x 128
    ("LLaMA 7B", 32, 4096),  # LLaMA (1) 7B: 32 layers, 32 heads x 128
    ("BLOOMZ 7B1", 30, 4096),  # bloom-7b1 config: n_layer 30, hidden 4096
    ("ChatGLM", 28, 4096),  # chatglm-6b / chatglm3-6b configs: 28 layers, hidden 4096
    ("Aquila2 7B", 32, 4096),  # Aquila2-7B config: 32 layers, hidden 4096
    ("Baichuan 2 13B", 40, 5120),  # Baichuan2-13B config: 40 layers, hidden 5120
    ("Qwen1.5-MoE-A2.7B", 24, 16 * 128),  # Qwen1.5-MoE-A2.7B config: 24 layers, 16 heads x 128
    ("Llama 2 13B", 40, 5120),
    ("Llama 2 70B", 80, 8192),
    ("Llama 2 7B", 32, 4096),
    ("MPT 13b", 40, 5120),  # llm-foundry benchmarking yamls (d_model, n_layers)
    ("MPT 30b", 48, 7168),
    ("MPT 3b", 32, 2560),
    ("MPT 70b", 80, 8192),
    ("MPT 7b", 32, 4096),
    ("Qwen-14B", 40, 5120),
    ("Qwen-72B", 80, 8192),
    ("Qwen-7B", 32, 4096),
    ("Qwen2.5 7B", 28, 28 * 128),
    # the fresh-3 held-out families' models (bench/data/training_throughput_fresh3.yaml); rows whose name
    # prints "N layers, hidden H" (Megatron-LM paper GPTs, BLOOM) are read from the name (row_attention)
    ("GPT3-125M", 12, 768),  # GPT-3 paper Table 2.1: n_layers, d_model
    ("GPT3-355M", 24, 1024),
    ("GPT3-760M", 24, 1536),
    ("GPT3-1.3B", 24, 2048),
    ("GPT3-2.7B", 32, 2560),  # flash-attention's config: 20 heads x 128 = 2560
    ("Llama-2 70B", 80, 8192),
    ("Llama-2 7B", 32, 4096),
    ("Mistral 7B", 32, 4096),  # Mistral-7B-v0.2 config: 32 layers, 32 heads x 128
    ("Yi 34B", 60, 7168),
    # the fresh-4 held-out families' models (bench/data/training_throughput_fresh4.yaml), from their configs
    ("GPT 126M", 12, 768),  # GPT-3 Small shape (Paxml GPT126M: 12 layers, d_model 768)
    ("GPT 5B", 24, 4096),  # Paxml GPT5B: 24 layers, model dims 4096
    ("GPT 175B", 96, 12288),  # GPT-3 paper Table 2.1
    ("LLaMA-2 7B", 32, 4096),
    ("Llama3-8b", 32, 4096),
    ("Qwen2.5-14B", 48, 40 * 128),  # Qwen2.5-14B config: 48 layers, 40 heads x 128
    # Qwen3-Next-80B-A3B config: 48 layers, every 4th full attention (16 heads x 256); the rest are linear
    # (Gated DeltaNet) with no sequence-length-squared term
    ("Qwen3-Next-80B-A3B", 12, 16 * 256),
    # the B200 held-out families' models (bench/data/training_throughput_b200.yaml), from their configs
    ("GPT3-175B", 96, 12288),  # GPT-3 paper Table 2.1
    ("Nemotron-15B", 32, 6144),  # Nemotron-4 15B report: 32 layers, hidden 6144
    ("Nemotron-340B", 96, 18432),  # Nemotron-4 340B report: 96 layers, hidden 18432
    ("Mixtral-8x7B", 32, 4096),  # Mixtral-8x7B config: 32 layers, 32 heads x 128
    ("Mixtral-8x22B", 56, 6144),  # Mixtral-8x22B config: 56 layers, 48 heads x 128
    ("235B", 94, 64 * 128),  # Qwen3-235B-A22B config
    ("30B", 48, 32 * 128),  # Qwen3-30B-A3B config
    # the fresh-5 held-out families' models (bench/data/training_throughput_fresh5.yaml), from their configs;
    # before the bare size fragments below, which would match them first
    ("Mistral-7B", 32, 32 * 128),  # mistralai/Mistral-7B-v0.1 config: 32 layers, 32 heads x 128
    ("Llama-2-70b", 80, 8192),  # Llama 2 paper: 80 layers, d_model 8192
    ("Llama-2-7B", 32, 4096),  # Llama 2 paper: 32 layers, d_model 4096
    ("Granite 7B", 32, 4096),  # ibm-granite/granite-7b-base: Llama 2 7B architecture
    # Power scheduler paper (Shen et al. 2024), Table 4: PowerLM-3B 40 layers, 36 heads x 64; PowerMoE-3B 32
    # layers, 24 heads x 64
    ("PowerLM-3b", 40, 36 * 64),
    ("PowerMoE-3b", 32, 24 * 64),
    ("SmolLM3-3B", 36, 16 * 128),  # HuggingFaceTB/SmolLM3-3B config: 36 layers, 16 heads x 128
    ("1B ablation model", 16, 32 * 64),  # the row's note: Llama 3.2 1B shape, 16 layers, 32 heads x 64
    # the fresh-6 held-out families' models (bench/data/training_throughput_fresh6.yaml), from each config
    # (.json: num_hidden_layers, num_attention_heads x head_dim); longer fragments first
    ("phi-1.5", 24, 32 * 64),  # microsoft/phi-1_5: 24 layers, 32 heads x 64
    ("phi-2", 32, 32 * 80),  # microsoft/phi-2: 32 layers, 32 heads x 80
    ("Phi-3-mini", 32, 32 * 96),  # Phi-3-mini-4k/128k-instruct: 32 layers, 32 heads x 96
    ("Phi-3-medium", 40, 40 * 128),  # Phi-3-medium-4k-instruct: 40 layers, 40 heads x 128
    ("Phi-4-mini", 32, 24 * 128),  # Phi-4-mini-instruct: 32 layers, 24 heads x 128
    ("phi-4", 40, 40 * 128),  # microsoft/phi-4: 40 layers, 40 heads x 128
    # SlimMoE (Phi-mini/tiny-MoE) slims Phi-3.5-MoE's experts; its attention is taken as Phi-3.5-MoE's
    # (32 layers, 32 heads x 128), an assumption: the attention term is small at the cards' lengths
    ("MoE-instruct (SlimMoE)", 32, 32 * 128),
    ("TinyStarCoderPy", 20, 12 * 64),  # bigcode/tiny_starcoder_py: n_layer 20, n_head 12, n_embd 768
    ("StarCoderBase-1B", 24, 2048),  # bigcode/starcoderbase-1b: n_layer 24, n_embd 2048
    ("15.5B", 40, 6144),  # bigcode/starcoder: n_layer 40, n_embd 6144 (48 heads x 128, multi-query)
    ("Falcon-RW-1B", 24, 2048),  # tiiuae/falcon-rw-1b: 24 layers, hidden 2048
    ("Falcon-40B", 60, 8192),  # tiiuae/falcon-40b: 60 layers, 128 heads x 64
    ("alcon-7B", 32, 71 * 64),  # tiiuae/falcon-7b: 32 layers, 71 heads x 64 = 4544
    ("alcon-7b", 32, 71 * 64),
    ("StableLM-3B-4E1T", 32, 32 * 80),  # stabilityai/stablelm-3b-4e1t: 32 layers, 32 heads x 80
    ("stablelm-base-alpha-3b", 16, 32 * 128),  # stabilityai/stablelm-base-alpha-3b: 16 layers, hidden 4096
    ("gemma-2-9b", 42, 16 * 256),  # google/gemma-2-9b: 42 layers, 16 heads x 256
    ("gemma-7b", 28, 16 * 256),  # google/gemma-7b: 28 layers, 16 heads x 256
    ("gemma-2b", 18, 8 * 256),  # google/gemma-2b: 18 layers, 8 heads x 256
    ("tiny-llama", 22, 2048),  # TinyLlama-1.1B: 22 layers, 32 heads x 64
    ("llama-2-7b", 32, 4096),
    ("llama-3", 32, 4096),  # llama-3-8b / llama-3.1-8b: 32 layers, 32 heads x 128
    ("mistral-7b", 32, 4096),  # Mistral-7B v0.1 / v0.2: 32 layers, 32 heads x 128
    # the fresh-7 held-out families' models (bench/data/training_throughput_fresh7.yaml), from each config
    ("Llama-2-13B", 40, 5120),  # meta-llama/Llama-2-13b-hf: 40 layers, 40 heads x 128
    ("Llama-2-7B", 32, 4096),  # meta-llama/Llama-2-7b-hf: 32 layers, 32 heads x 128
    ("GPT-2 small 124M", 12, 768),  # openai-community/gpt2: n_layer 12, n_head 12 x 64
    ("OpenLLaMA 3B", 26, 3200),  # openlm-research/open_llama_3b: 26 layers, 32 heads x 100
    # jetmoe/jetmoe-8b: 24 layers; attention heads = num_key_value_heads 16 x num_experts_per_tok 2, x
    # kv_channels 128 (transformers JetMoeConfig: num_attention_heads = kv heads x experts per token)
    ("JetMoE-8B", 24, 32 * 128),
    # the fresh-8 held-out families' models (bench/data/training_throughput_fresh8.yaml), by name only, before
    # any fresh-8 score; NeMo GPT3-5B / 20B and Nemotron-22B from NeMo's launcher configs as recalled (not
    # re-read here; the attention term is small at their 2k-4k sequences), the others from their config.json
    ("NeMo GPT3-5B", 24, 4096),  # NeMo gpt3 5b: 24 layers, hidden 4096, 32 heads
    ("NeMo GPT3-20B", 44, 6144),  # NeMo gpt3 20b: 44 layers, hidden 6144, 48 heads
    ("Nemotron-22B", 40, 6144),  # NeMo nemotron4 22b: 40 layers, hidden 6144, 48 heads
    ("Nemotron-4 340B", 96, 18432),  # nvidia/Nemotron-4-340B model_config.yaml: 96 layers, 96 heads, 18432
    ("Qwen3-0.6B", 28, 16 * 128),  # Qwen/Qwen3-0.6B config: 28 layers, 16 heads x head_dim 128
    ("Qwen3-8B", 36, 32 * 128),  # Qwen/Qwen3-8B config: 36 layers, 32 heads x head_dim 128
    ("405B", 126, 16384),  # Llama 3.1 405B
    ("70B", 80, 8192),  # Llama 3 / 3.1 / 3.3 70B
    ("8B", 32, 4096),  # Llama 3 / 3.1 8B
)

# torchtitan's H100 table does not print the sequence length; its Llama 3.1 configs default to 8192
# (bench/data/README.md, the rows' seq_len_note).
DEFAULT_SEQ_LEN_BY_FAMILY = {"torchtitan-h100": 8192}


_SHAPE_IN_NAME = re.compile(r"(\d+) layers, hidden (\d+)")


def row_attention(row: TrainingRow) -> tuple[int, int]:
    """(layers, attention width) of the row's model."""
    if row.family.startswith(DEVICE_FAMILY):  # catalog names: the catalog's own shape, never a name fragment
        return _catalog_attention(row)
    if m := _SHAPE_IN_NAME.search(row.model.name):
        return int(m.group(1)), int(m.group(2))
    for fragment, layers, width in ATTENTION_SHAPES:
        if fragment in row.model.name:
            return layers, width
    return _catalog_attention(row)


# The rows measured here (bench/device_rows.py) name their models by catalog name. Read by a name fragment
# first, "Qwen3 8B" took Llama 3 8B's 32 layers (Qwen3-8B config: 36) and "Phi-3 mini (3.8B, 4k)" took its
# 4096 width through "8B" (Phi-3-mini config: 32 heads x 96 = 3072); tim13 (2026-11-28).
DEVICE_FAMILY = "gpu-advisor-device-measurements"


def _catalog_attention(row: TrainingRow) -> tuple[int, int]:
    """(layers, attention width) of a catalog model by name (tools/catalog/models.yaml, from config.json)."""
    try:
        arch = load_catalog().model(row.model.name)
    except (InputError, KeyError, LookupError):
        raise KeyError(f"no attention shape for {row.model.name!r}") from None
    return arch.n_layers, arch.n_heads * (arch.head_dim or arch.hidden_size // arch.n_heads)


# (name fragment, hidden size, experts per token, MoE layers) of the MoE rows' models, for the routing traffic
# (efficiency.moe_routing_intensity); from each config.json / paper, first match wins.
MOE_ROUTING_SHAPES: tuple[tuple[str, int, int, int, int], ...] = (
    # (name fragment, hidden, experts per token, MoE layers, routed experts), from each config
    ("8x22B", 6144, 2, 56, 8),  # Mixtral-8x22B config: hidden 6144, num_experts_per_tok 2 of 8, 56 layers
    ("Mixtral", 4096, 2, 32, 8),  # Mixtral-8x7B config: hidden 4096, top 2 of 8, 32 layers
    ("Qwen3-Next", 2048, 10, 48, 512),  # Qwen3-Next-80B-A3B config: hidden 2048, top 10 of 512, 48 layers
    ("235B", 4096, 8, 94, 128),  # Qwen3-235B-A22B config: hidden 4096, top 8 of 128, 94 layers (all MoE)
    ("30B", 2048, 8, 48, 128),  # Qwen3-30B-A3B config: hidden 2048, top 8 of 128, 48 layers (all MoE)
    ("DeepSeek-V2", 5120, 6, 59, 160),  # DeepSeek-V2: hidden 5120, top 6 of 160, 60 layers, first 1 dense
    ("DeepSeek", 7168, 8, 58, 256),  # DeepSeek-V3 config: hidden 7168, top 8 of 256, 61 layers, first 3 dense
    ("GPT-OSS 120B", 2880, 4, 36, 128),  # gpt-oss-120b config: hidden 2880, 4 of 128, 36 layers
    ("GPT-OSS 20B", 2880, 4, 24, 32),  # gpt-oss-20b config: hidden 2880, 4 of 32, 24 layers
    ("Qwen1.5-MoE", 2048, 4, 24, 60),  # Qwen1.5-MoE-A2.7B config: hidden 2048, top 4 of 60, 24 layers
    ("PowerMoE", 1536, 8, 32, 40),  # Power scheduler paper (Shen et al. 2024): 1536, 8 of 40, 32
    ("JetMoE-8B", 2048, 2, 24, 8),  # jetmoe/jetmoe-8b config: hidden 2048, 2 of 8 MLP experts, 24 layers
)


def row_moe_layout(row: TrainingRow) -> tuple[int, int, int] | None:
    """(routed experts, experts per token, MoE layers) of an MoE row's model (None: dense or not known),
    for the expert loop of transformers' MoE blocks (tools.compute.moe_loop)."""
    if not row.model.moe:
        return None
    for fragment, _, k, moe_layers, experts in MOE_ROUTING_SHAPES:
        if fragment in row.model.name:
            return experts, k, moe_layers
    try:
        arch = load_catalog().model(row.model.name)
    except (InputError, KeyError, LookupError):
        return None
    if not arch.is_moe or not arch.n_experts:
        return None
    return arch.n_experts, arch.n_active_experts or 1, arch.n_moe_layers


def row_moe_routing(row: TrainingRow) -> float | None:
    """The MoE row's routing intensity, k x hidden x MoE layers / active params (None: dense, or a model
    whose expert layout is known neither here nor in the catalog: the estimate then keeps MOE_FACTOR)."""
    if not row.model.moe:
        return None
    active = (row.model.active_params_b or row.model.params_b) * 1e9
    for fragment, hidden, k, moe_layers, _ in MOE_ROUTING_SHAPES:
        if fragment in row.model.name:
            return moe_routing_intensity(
                hidden_size=hidden, experts_per_token=k, moe_layers=moe_layers, active_params=active
            )
    try:
        arch = load_catalog().model(row.model.name)
    except (InputError, KeyError, LookupError):
        return None
    if not arch.is_moe or not arch.n_active_experts:
        return None
    return moe_routing_intensity(
        hidden_size=arch.hidden_size,
        experts_per_token=arch.n_active_experts,
        moe_layers=arch.n_layers - arch.first_dense_layers,
        active_params=active,
    )


def row_seq_len(row: TrainingRow) -> int | None:
    return row.seq_len or DEFAULT_SEQ_LEN_BY_FAMILY.get(row.family)


def row_precision(row: TrainingRow) -> str:
    """The estimate's compute precision: mxfp8 is FP8 (same peak); QLoRA computes in BF16."""
    return "fp8" if row.precision in ("fp8", "mxfp8") else "bf16"


def row_generation(gpu: GpuSpec) -> Generation:
    return generation_of(gpu)


# Families whose every published figure counts a full recompute, so a row that leaves its checkpointing
# out recomputed too: the Megatron-LM paper (Narayanan et al. 2021) gives TFLOP/s by its Eq. 3, which
# counts the recompute forward pass, for its ZeRO-3 runs as well; and GPT-3 175B at 4 x 2,048 tokens per
# GPU without recompute would hold 34 s b h L = 330 GB of activations on an 80 GB A100 (Korthikanti et
# al. 2022, Eq. 1, attention scores left out).
RECOMPUTE_IN_PUBLISHED_FLOPS_FAMILIES = frozenset({"megatron-lm-sc21-paper"})
# Families whose table leaves checkpointing out but whose released scripts, the ones the table was run
# with, turn it on for every set-up: Qwen (1)'s README profiles its finetune.py, and
# finetune/finetune_lora_single_gpu.sh, finetune_qlora_single_gpu.sh and finetune_lora_ds.sh all pass
# --gradient_checkpointing (github.com/QwenLM/Qwen, commits e8e1596 and 23a01b0, read 2026-11-28; the rows'
# checkpointing_note says so). Read as no recompute
# before tim14, their MFU sat 1 / FULL_RECOMPUTE_FACTOR low in the hf cell, and a full + checkpointing
# estimate on that cell then paid the recompute a second time.
RECOMPUTE_IN_RELEASED_SCRIPT_FAMILIES = frozenset({"qwen1-readme"})


def row_full_recompute(row: TrainingRow) -> bool:
    """True when the row recomputes every layer (checkpointing on and not 'selective'); unstated = no,
    except in a family whose published FLOPs count the recompute (RECOMPUTE_IN_PUBLISHED_FLOPS_FAMILIES) or
    whose released scripts turn it on (RECOMPUTE_IN_RELEASED_SCRIPT_FAMILIES)."""
    if row.gradient_checkpointing is None and row.family in (
        RECOMPUTE_IN_PUBLISHED_FLOPS_FAMILIES | RECOMPUTE_IN_RELEASED_SCRIPT_FAMILIES
    ):
        return True
    return bool(row.gradient_checkpointing) and "selective" not in (row.checkpointing_note or "").lower()


# Rows whose figure is a whole run's tokens over its GPU-hours (restarts, evaluation, checkpoint writes and
# stalls in), not a step rate: they are compared with the estimate's whole-run rate (tokens / GPU-hours,
# its pretraining goodput in) and the fit takes the goodput's middle out of them. The Llama 2 paper's
# Table 2 gives only GPU-hours, and they are wall-clock multiples of 2,048 GPUs (90, 180, 507 and 840 h).
# Not whole-run rates, although their notes call them so: the LLaMA (1) paper's GPU-hours, whose 65B entry
# (1,022,362) is its section 2.4 steady-state 380 tokens/s/GPU x 1.4T tokens, and fms-fsdp's 2.2T-token
# run, which states its rate (3,700 tokens/s/GPU) and GPU-hours (162,000) that follow from it within 2%.
# The fresh-6 model-card families (bench/data/training_throughput_fresh6.yaml): every row is the card's
# training tokens over GPUs x its stated training time ('7 days', '24 days', 'about two weeks'; each row's
# derivation), a whole run's rate with its restarts and evaluation in, never a step rate (huggingface.co
# model cards microsoft/phi-*, bigcode/starcoder*, tiiuae/falcon-*, stabilityai/stablelm-3b-4e1t; read
# 2026-11-27).
WHOLE_RUN_FAMILIES = frozenset(
    {
        "llama2-paper",
        "microsoft-phi-model-cards",
        "bigcode-starcoder-model-cards",
        "tii-falcon-model-cards",
        "stability-stablelm-model-cards",
    }
)
# Single whole-run rows in a family whose other rows are step rates: SmolLM3's 11.2T tokens over 384 H100s x
# 24 days (huggingface/blog smollm3.md; the row's derivation), the whole pretraining run with its restarts and
# throughput incidents (the Smol Training Playbook's infrastructure section, the row's 'ambiguous').
WHOLE_RUN_ROWS = frozenset({"smollm3-3b-pretrain-384xh100-run"})


def row_whole_run(row: TrainingRow) -> bool:
    """True when the row's tokens/s per GPU is a whole run's (goodput in), not a step rate."""
    return row.family in WHOLE_RUN_FAMILIES or row.id in WHOLE_RUN_ROWS


def row_framework(row: TrainingRow) -> Framework | None:
    """The framework as the estimate takes it; 'other' (llm-foundry, Meta's stack) has no band: None."""
    return row.framework if row.framework in FRAMEWORKS else None  # type: ignore[return-value]


# An interleaved pipeline schedule runs at least 2 model chunks per stage; rows that name the schedule
# without its virtual-stage count get that minimum (Narayanan et al. 2021, interleaved 1F1B).
INTERLEAVED_MIN_VIRTUAL_STAGES = 2
# torchtitan splits the local batch into as many micro-batches as pipeline stages unless told
# otherwise (torchtitan pipeline code, 2024: `n_microbatches = pipeline_parallel_degree` when unset).
FRAMEWORKS_MICRO_BATCHES_EQUAL_STAGES = frozenset({"torchtitan"})


# Micro-batches (sequences per GPU) that a row's own training configuration sets where its table does not
# print them, keyed by (family, model-name fragment):
# - flash-attention's GPT3 experiments pick the per-GPU batch from the GPU's memory (nvidia-smi
#   memory.total / 1000 = 82 on an A100 80GB): 32 for GPT3-125M, 16 for 355M and 760M, 8 for 1.3B, 4
#   for 2.7B (Dao-AILab/flash-attention training/configs/experiment/pile/gpt3s-flash.yaml @0b037c2d,
#   gpt3m-flash.yaml @4a6eaa9f, gpt3l-flash.yaml and gpt3-2.7B-flash.yaml @edc7698f, gpt3xl-flash.yaml
#   @0b037c2d: `datamodule.batch_size`). Read as 1 sequence, these rows took the small-batch factor.
# - BLOOM's tr11 README, 'Replica setup': MBS=2 ("switched to MBS=2 at around GBS=784"), so the full-batch
#   (GBS 2048) log line ran 2-sequence micro-batches, 128 per pipeline per step.
CONFIG_MICRO_BATCH: tuple[tuple[str, str, int], ...] = (
    ("flash-attention-training-readme", "GPT3-125M", 32),
    ("flash-attention-training-readme", "GPT3-355M", 16),
    ("flash-attention-training-readme", "GPT3-760M", 16),
    ("flash-attention-training-readme", "GPT3-1.3B", 8),
    ("flash-attention-training-readme", "GPT3-2.7B", 4),
    ("bloom-tr11-readme", "BLOOM 176B", 2),
)


def row_micro_batch(row: TrainingRow) -> int | None:
    """Sequences per micro-batch per GPU: the row's own, else its configuration's (CONFIG_MICRO_BATCH)."""
    if row.micro_batch_size is not None:
        return row.micro_batch_size
    for family, fragment, sequences in CONFIG_MICRO_BATCH:
        if row.family == family and fragment in row.model.name:
            return sequences
    return None


# Families whose source states only the global batch, run as one micro-batch per GPU per optimizer step:
# PaddleNLP's torch/benchmark.py runs its 4-GPU "Batch Size 8" tables with --per_device_train_batch_size
# 2 and no gradient accumulation (the script's usage docstring at commit 025a7c5f).
GLOBAL_BATCH_IN_ONE_STEP_FAMILIES = frozenset({"paddlenlp-peft-benchmark"})


@dataclass(frozen=True)
class RowParallel:
    """The row's published layout as the estimate takes it."""

    sharding: str | None
    tensor_parallel: int
    pipeline_stages: int
    virtual_stages: int
    pipeline_micro_batches: int | None
    tokens_per_micro_batch_sequences: int | None
    """sequences per pipeline micro-batch (the local batch split over the micro-batches)"""
    gradient_accumulation_steps: int = 1
    """micro-batches per optimizer step (global batch / (micro-batch x data-parallel ranks))"""


def _degree(text: str, name: str) -> int:
    m = re.search(rf"\b{name}\s*(\d+)", text)
    return int(m.group(1)) if m else 1


def row_parallel(row: TrainingRow) -> RowParallel:
    """Sharding, TP, PP, virtual stages and micro-batches per step, read from `parallelism`."""
    text = row.parallelism or ""
    sharding: str | None = None
    if re.search(r"NO_SHARD", text):  # FSDP's DDP mode: full weights on every GPU, gradients all-reduced
        sharding = "ddp"
    elif re.search(r"FSDP|FULL_SHARD", text) and not re.search(r"\bFSDP\s*1\b", text):
        sharding = "fsdp"  # (Pax's "DP 64 x FSDP 1": a sharding degree of 1 shards nothing)
    elif m_zero := re.search(r"ZeRO[ -]?([123])(?! like)", text):  # InternEvo's own: "zero1=", "ZeRO-1 like"
        sharding = f"zero{m_zero.group(1)}"
    tp, pp, cp = _degree(text, "TP"), _degree(text, "PP"), _degree(text, "CP")
    vp = _degree(text, "VPP?")  # Megatron's flag is --virtual-pipeline-model-parallel-size: "VP 5", "VPP 4"
    if vp == 1 and "nterleaved" in text:
        vp = INTERLEAVED_MIN_VIRTUAL_STAGES
    m: int | None = None
    seqs = row_micro_batch(row)
    if pp > 1 and row.framework in FRAMEWORKS_MICRO_BATCHES_EQUAL_STAGES:
        m = pp
        seqs = max(1, (seqs or pp) // pp)
    elif pp > 1 and row.global_batch_size and seqs and row.batch_unit == "sequences":
        dp = max(1, row.gpus // (tp * pp * cp))
        m = max(1, row.global_batch_size // (seqs * dp))
    gas = 1
    if pp == 1 and row.global_batch_size and row.batch_unit == "sequences":
        dp = max(1, row.gpus // (tp * cp))
        if seqs is None and row.family in GLOBAL_BATCH_IN_ONE_STEP_FAMILIES:
            seqs = max(1, row.global_batch_size // dp)
        if seqs:
            gas = max(1, row.global_batch_size // (seqs * dp))
    return RowParallel(sharding, tp, pp, vp, m, seqs, gas)


# --- unpacked data: the rows whose samples are padded per micro-batch, and their data sets' lengths -----
# PaddleNLP PEFT benchmark (torch/benchmark.py @025a7c5f): DataCollatorForSeq2Seq pads each batch to its
# longest sample, no packing; source truncated at 256 tokens and target at 384, + 1 EOS.
UNPACKED_MAX_TOKENS_BY_FAMILY = {"paddlenlp-peft-benchmark": 256 + 384 + 1}
# Tokens per sample of the data sets named in the rows' notes ("Data: first 10k examples of <name>"):
# Alpaca from WildChat Table 1 (Llama-2 tokenizer = LLaMA's; instruction+input 19.67 +- 15.19, output
# 64.51 +- 64.85) + 3 special tokens (the PaddleNLP script tokenizes input and target apart: BOS on each,
# EOS at the end). A data set missing here (guanaco_belle_merge: no published length statistics) is
# estimated at either end of the published instruction sets (tools.compute.padding.UNSTATED_LENGTHS).
DATASET_LENGTHS = {
    "tatsu-lab/alpaca": SampleLengths(
        mean_tokens=19.67 + 64.51 + 3,
        sd_tokens=(15.19**2 + 64.85**2) ** 0.5,
        source=f"Alpaca, {WILDCHAT_TABLE_1_SOURCE}; + BOS, BOS, EOS",
    )
}


@dataclass(frozen=True)
class RowData:
    """How the row's samples reach the GPU."""

    packed: bool
    max_tokens: int | None
    """truncation length of an unpacked sample"""
    lengths: SampleLengths | None
    """the data set's sample lengths (None: not published)"""
    dataset: str | None


def row_data(row: TrainingRow) -> RowData:
    """Packed (every family but the unpacked ones), else the truncation and the named data set's lengths."""
    if row.family not in UNPACKED_MAX_TOKENS_BY_FAMILY:
        return RowData(True, None, None, None)
    m = re.search(r"examples of ([\w./-]+?)\.?(?:\s|'|$)", row.notes or "")
    dataset = m.group(1) if m else None
    lengths = DATASET_LENGTHS.get(dataset or "")
    return RowData(False, UNPACKED_MAX_TOKENS_BY_FAMILY[row.family], lengths, dataset)


# Rows measured with standard (eager) attention, no memory-efficient kernel: (family, model name fragment,
# attention heads; 0 = read "N heads" from the model's name). Pax's GPT 126M rows (JAX-Toolbox Pax README:
# "126M rows were measured without flash attention"; GPT-3 Small shape, 12 heads, GPT-3 paper Table 2.1).
# The Megatron-LM paper (Narayanan et al., SC21, April 2021) and BLOOM's Megatron-DeepSpeed run (2022) predate
# FlashAttention (Dao et al., May 2022) in their stacks: Megatron's fused scale-mask-softmax kernel still
# writes the scores to memory and reads them back for the dropout and the PV product (BLOOM 176B config:
# n_head 112). FlagPerf's Baichuan 2 13B rows ("no flash attention": the model has no FlashAttention-2 path)
# are not here: which kernel its ALiBi attention ran on is not stated (torch's fused SDPA takes a bias), and
# their residuals (-15%, +1%) show no eager cost.
EAGER_ATTENTION_ROWS: tuple[tuple[str, str, int], ...] = (
    ("jax-toolbox-pax-readme", "GPT 126M", 12),
    ("megatron-lm-sc21-paper", "", 0),
    ("bloom-tr11-readme", "BLOOM 176B", 112),
)
_HEADS_IN_NAME = re.compile(r"(\d+) heads")


def row_eager_attention_heads(row: TrainingRow) -> int | None:
    """The attention heads of a row measured with eager attention (EAGER_ATTENTION_ROWS, or a row measured
    here whose run reported transformers' eager kernel: Gemma 2, bench/device_training_measure.build_model),
    else None."""
    if row.family.startswith(DEVICE_FAMILY) and "(eager)" in (row.framework_detail or ""):
        return load_catalog().model(row.model.name).n_heads
    for family, fragment, heads in EAGER_ATTENTION_ROWS:
        if row.family == family and fragment in row.model.name:
            if heads:
                return heads
            m = _HEADS_IN_NAME.search(row.model.name)
            if m is None:
                raise KeyError(f"no attention heads in {row.model.name!r}")
            return int(m.group(1))
    return None


def row_training_precision(row: TrainingRow) -> TrainingPrecision | None:
    """The row's precision regime (tools.vocabulary.TrainingPrecision): its `training_precision`, else what
    its framework_detail says ('pure-bf16' or 'no fp32 master': pure-bf16; 'mixed' or 'fp32 master': mixed, as
    this repository's device runs and the HF blog's FSDP 'aligned mode' write it), else None (unstated)."""
    if row.training_precision is not None:
        return row.training_precision
    detail = (row.framework_detail or "").lower()
    if "pure-bf16" in detail or "no fp32 master" in detail:
        return "pure-bf16"
    if "mixed" in detail or "fp32 master" in detail:
        return "mixed"
    return None


def row_moe_loop_seconds_per_token(row: TrainingRow, tokens_per_micro_batch: float) -> float:
    """tools.compute.moe_loop's host seconds per token for an MoE row on transformers' modules (else 0)."""
    layout = row_moe_layout(row)
    if layout is None or row.framework not in EAGER_MOE_FRAMEWORKS:
        return 0.0
    return moe_loop_seconds_per_token(
        n_experts=layout[0],
        experts_per_token=layout[1],
        moe_layers=layout[2],
        tokens_per_micro_batch=tokens_per_micro_batch,
        recompute=row_full_recompute(row),
    )


def row_optimizer_seconds_per_token(row: TrainingRow, gpu: GpuSpec, tokens_per_micro_batch: float) -> float:
    """tools.compute.optimizer_update's seconds per token for the row's published layout."""
    par = row_parallel(row)
    return step_seconds_per_token(
        total_params=row.model.params_b * 1e9,
        n_gpus=row.gpus,
        sharding=par.sharding,
        tensor_parallel=par.tensor_parallel,
        pipeline_stages=par.pipeline_stages,
        pipeline_micro_batches=par.pipeline_micro_batches,
        tokens_per_micro_batch=tokens_per_micro_batch,
        gradient_accumulation_steps=par.gradient_accumulation_steps,
        training_precision=row_training_precision(row),
        gpu=gpu,
    )[0]
