"""Architectures of fresh-set models that are neither catalog models nor tools.memory_calibration rows.

bench/accuracy_fresh_memory.py used to build these as Llama-like shapes from the parameter count alone
(tools.catalog.synthetic: 128,256-token vocabulary, 8 KV heads), which is wrong for each of them: Mistral
7B v0.1/v0.2 and TinyLlama have a 32,000-token vocabulary (4x fewer logits), Yi-34B 60 layers of width
7168. Each is transcribed from the model's Hugging Face config.json (source on the record); the parameter
count each implies is checked against the published one in tests/bench_data/test_memory_fresh_archs.py.
Looked up by Hugging Face id or by name (`fresh_arch`).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from tools.catalog.schema import ModelArch

_AS_OF = dt.date(2026, 11, 27)


def _arch(id: str, name: str, aliases: tuple[str, ...], source: str, **fields: Any) -> ModelArch:
    return ModelArch(
        id=id, name=name, family=fields.pop("family", "llama"), aliases=aliases, source=source,
        as_of=_AS_OF, **fields,
    )  # fmt: skip


MISTRAL_7B_V01 = _arch(
    "mistral-7b-v0.1", "Mistral 7B v0.1", ("mistralai/Mistral-7B-v0.1", "Mistral 7B v0.1"),
    "huggingface.co/mistralai/Mistral-7B-v0.1 config.json (MistralForCausalLM: hidden 4096, 32 layers, "
    "32 heads, 8 KV heads, intermediate 14336, vocab 32000, sliding_window 4096); 7.24B",
    family="mistral", hf_architecture="MistralForCausalLM", n_layers=32, hidden_size=4096, n_heads=32,
    n_kv_heads=8, head_dim=128, intermediate_size=14336, vocab_size=32000, max_context=32768,
    published_params_b=7.24,
)  # fmt: skip
MISTRAL_7B_V02 = _arch(
    "mistral-7b-v0.2", "Mistral 7B v0.2",
    ("mistral-community/Mistral-7B-v0.2", "unsloth/Mistral-7B-v0.2", "Mistral 7B v0.2",
     "Mistral 7B v0.2 Base"),
    "huggingface.co/mistral-community/Mistral-7B-v0.2 config.json (the v0.2 base weights; the same shapes as "
    "v0.1 with rope_theta 1e6 and no sliding window: 32k context); 7.24B",
    family="mistral", hf_architecture="MistralForCausalLM", n_layers=32, hidden_size=4096, n_heads=32,
    n_kv_heads=8, head_dim=128, intermediate_size=14336, vocab_size=32000, max_context=32768,
    published_params_b=7.24,
)  # fmt: skip
OPENBUDDY_ZEPHYR_7B = _arch(
    "openbuddy-zephyr-7b", "OpenBuddy Zephyr 7B",
    ("OpenBuddy/openbuddy-zephyr-7b-v14.1", "OpenBuddy Zephyr 7B", "openbuddy-zephyr-7b-chat"),
    "ms-swift model registry (swift/llm/model/model/mistral.py: OpenBuddy/openbuddy-zephyr-7b-v14.1 under "
    "architectures ['MistralForCausalLM']): the Mistral 7B v0.1 shapes above. Its tokenizer's vocabulary "
    "size was not checked (OpenBuddy may extend Mistral's 32,000 tokens; a few thousand more rows of logits "
    "at most): 7.24B as recorded",
    family="mistral", hf_architecture="MistralForCausalLM", n_layers=32, hidden_size=4096, n_heads=32,
    n_kv_heads=8, head_dim=128, intermediate_size=14336, vocab_size=32000, max_context=32768,
    published_params_b=7.24,
)  # fmt: skip
YI_34B = _arch(
    "yi-34b", "Yi 34B", ("01-ai/Yi-34B", "Yi 34B", "Yi-34B", "01-ai/Yi-34B-Chat", "Yi-34B-Chat"),
    "huggingface.co/01-ai/Yi-34B config.json (LlamaForCausalLM: hidden 7168, 60 layers, 56 heads, 8 KV "
    "heads, intermediate 20480, vocab 64000, max_position_embeddings 4096); 34.39B; Yi-34B-Chat is the same "
    "shape (its config.json)",
    family="yi", hf_architecture="LlamaForCausalLM", n_layers=60, hidden_size=7168, n_heads=56,
    n_kv_heads=8, head_dim=128, intermediate_size=20480, vocab_size=64000, max_context=4096,
    published_params_b=34.39,
)  # fmt: skip
TINYLLAMA_1B = _arch(
    "tinyllama-1.1b", "TinyLlama 1.1B",
    ("TinyLlama/TinyLlama-1.1B-intermediate-step-1431k-3T", "TinyLlama/TinyLlama-1.1B-Chat-v1.0",
     "TinyLlama 1.1B"),
    "huggingface.co/TinyLlama/TinyLlama-1.1B-intermediate-step-1431k-3T config.json (LlamaForCausalLM: "
    "hidden 2048, 22 layers, 32 heads, 4 KV heads, intermediate 5632, vocab 32000); 1.10B",
    hf_architecture="LlamaForCausalLM", n_layers=22, hidden_size=2048, n_heads=32, n_kv_heads=4,
    head_dim=64, intermediate_size=5632, vocab_size=32000, max_context=2048, published_params_b=1.10,
)  # fmt: skip

QWEN1_1_8B = _arch(
    "qwen-1.8b", "Qwen 1.8B", ("Qwen/Qwen-1_8B-Chat", "Qwen/Qwen-1_8B", "Qwen-1.8B-Chat", "Qwen-1.8B"),
    "huggingface.co/Qwen/Qwen-1_8B-Chat config.json (QWenLMHeadModel, remote code: hidden 2048, 24 layers, "
    "16 heads, no GQA, intermediate_size 11008 = 2 x the 5504-wide w1/w2, vocab 151936, c_attn bias, "
    "seq_length 8192; c_attn one fused q/k/v linear, modeling_qwen.py QWenAttention); 1.84B",
    family="qwen", hf_architecture="QWenLMHeadModel", n_layers=24, hidden_size=2048, n_heads=16,
    n_kv_heads=16, head_dim=128, intermediate_size=5504, vocab_size=151936, qkv_bias=True,
    fused_qkv_proj=True, max_context=8192, published_params_b=1.84,
)  # fmt: skip
QWEN1_14B = _arch(
    "qwen-14b", "Qwen 14B", ("Qwen/Qwen-14B-Chat", "Qwen/Qwen-14B", "Qwen-14B-Chat", "Qwen-14B"),
    "huggingface.co/Qwen/Qwen-14B-Chat config.json (QWenLMHeadModel, remote code: hidden 5120, 40 layers, "
    "40 heads, no GQA, intermediate_size 27392 = 2 x the 13696-wide w1/w2, vocab 152064, c_attn bias, "
    "seq_length 2048; c_attn one fused q/k/v linear, modeling_qwen.py QWenAttention); 14.17B",
    family="qwen", hf_architecture="QWenLMHeadModel", n_layers=40, hidden_size=5120, n_heads=40,
    n_kv_heads=40, head_dim=128, intermediate_size=13696, vocab_size=152064, qkv_bias=True,
    fused_qkv_proj=True, max_context=8192, published_params_b=14.17,
)  # fmt: skip
YI_6B = _arch(
    "yi-6b", "Yi 6B", ("01-ai/Yi-6B", "01-ai/Yi-6B-Chat", "Yi-6B", "Yi-6B-Chat", "Yi 6B"),
    "huggingface.co/01-ai/Yi-6B-Chat config.json (LlamaForCausalLM: hidden 4096, 32 layers, 32 heads, 4 KV "
    "heads, intermediate 11008, vocab 64000, max_position_embeddings 4096); 6.06B",
    family="yi", hf_architecture="LlamaForCausalLM", n_layers=32, hidden_size=4096, n_heads=32,
    n_kv_heads=4, head_dim=128, intermediate_size=11008, vocab_size=64000, max_context=4096,
    published_params_b=6.06,
)  # fmt: skip
LLAMA_1_7B = _arch(
    "llama-7b", "LLaMA 7B", ("LLaMA-7B", "huggyllama/llama-7b", "decapoda-research/llama-7b-hf"),
    "huggingface.co/huggyllama/llama-7b config.json (LlamaForCausalLM: hidden 4096, 32 layers, 32 heads, "
    "no GQA, intermediate 11008, vocab 32000, max_position_embeddings 2048); 6.74B",
    hf_architecture="LlamaForCausalLM", n_layers=32, hidden_size=4096, n_heads=32, n_kv_heads=32,
    head_dim=128, intermediate_size=11008, vocab_size=32000, max_context=2048, published_params_b=6.74,
)  # fmt: skip
OPENLLAMA_3B_V2 = _arch(
    "open-llama-3b-v2", "OpenLLaMA 3B v2", ("openlm-research/open_llama_3b_v2", "OpenLLaMA 3B v2"),
    "young-geng/EasyLM EasyLM/models/llama/llama_model.py LLAMA_STANDARD_CONFIGS['3b'] (OpenLLaMA's own "
    "training code, read 2026-11-28 through the stored-code search; the same shape appears as a 32000-vocab "
    "Llama config in other stored trainers): hidden 3200, 26 layers, 32 heads, no GQA, intermediate 8640, "
    "vocab 32000, max_sequence_length 2048, untied lm_head; 3.43B",
    hf_architecture="LlamaForCausalLM", n_layers=26, hidden_size=3200, n_heads=32, n_kv_heads=32,
    head_dim=100, intermediate_size=8640, vocab_size=32000, max_context=2048, published_params_b=3.43,
)  # fmt: skip
GPT2_XL = _arch(
    "gpt2-xl", "GPT-2 XL", ("openai-community/gpt2-xl", "gpt2-xl", "GPT-2 XL shape"),
    "huggingface.co/openai-community/gpt2-xl config.json (GPT2LMHeadModel: n_embd 1600, n_layer 48, n_head "
    "25, n_inner null = 4 x 1600 = 6400 GELU MLP (not gated), vocab 50257, n_positions 1024, tied lm_head, "
    "biases on every linear); 1.56B",
    family="gpt2", hf_architecture="GPT2LMHeadModel", n_layers=48, hidden_size=1600, n_heads=25,
    n_kv_heads=25, head_dim=64, intermediate_size=6400, vocab_size=50257, tied_embeddings=True,
    mlp_gated=False, qkv_bias=True, max_context=1024, published_params_b=1.56,
)  # fmt: skip

LLMS_FROM_SCRATCH_GPT_124M = _arch(
    "llms-from-scratch-gpt-124m",
    "GPT-2 124M-config GPTModel, untied output head (LLMs-from-scratch ch05), vocab 50257",
    ("GPT-2 124M-config GPTModel, untied output head (LLMs-from-scratch ch05)",),
    "rasbt/LLMs-from-scratch ch05/10_llm-training-speed/00_orig.py (stored 9a899489) and "
    "01_opt_single_gpu.py (stored 7bd26314), read 2026-11-27: GPT_CONFIG_124M (vocab_size 50257, "
    "context_length 1024, emb_dim 768, n_heads 12, n_layers 12, drop_rate 0.1, qkv_bias False); GPTModel: "
    "FeedForward Linear(768, 4 x 768) -> GELU -> Linear (not gated), two LayerNorms per block, out_head "
    "Linear(768, vocab, bias=False) separate from tok_emb (untied); ~163M with the 1024 x 768 position "
    "embedding",
    family="gpt2", hf_architecture="GPTModel", n_layers=12, hidden_size=768, n_heads=12, n_kv_heads=12,
    head_dim=64, intermediate_size=3072, vocab_size=50257, mlp_gated=False, max_context=1024,
    published_params_b=0.163,
)  # fmt: skip
LLMS_FROM_SCRATCH_GPT_124M_V50304 = LLMS_FROM_SCRATCH_GPT_124M.model_copy(
    update=dict(
        id="llms-from-scratch-gpt-124m-v50304",
        name="GPT-2 124M-config GPTModel, untied output head (LLMs-from-scratch ch05), vocab 50304",
        aliases=(),
        vocab_size=50304,
        source="as llms-from-scratch-gpt-124m, with README step 9's vocabulary padded to 50304 "
        "(01_opt_single_gpu.py GPT_CONFIG_124M vocab_size 50304)",
    )
)

MEGATRON_GPT3_6_7B = _arch(
    "megatron-gpt3-6.7b", "GPT-3-style 7B (Megatron-DeepSpeed GPT, printed as '7b')",
    ("GPT-3-style 7B (Megatron-DeepSpeed GPT, printed as '7b')",),
    "tothemoon96/Megatron-DeepSpeed examples_deepspeed/sequence_parallel/"
    "ds_pretrain_gpt_1.3B_seq_parallel_32k.sh (stored 4569c602, read 2026-11-28), its '## GPT-3 6.7B' block: "
    "num_layers 32, hidden_size 4096, num_attn_heads 32; --vocab-file gpt2-vocab.json (GPT-2 BPE, 50257) "
    "padded by Megatron to a multiple of make-vocab-size-divisible-by (128) x tensor parallel (4): 50688; "
    "Megatron's GPT defaults: ffn_hidden_size "
    "4 x hidden (16384, GELU, not gated), LayerNorm, biases on every linear, output layer tied to the word "
    "embedding; --max-position-embeddings 32768 (learned positions, 134M parameters not counted here); 6.65B "
    "without them",
    family="gpt2", hf_architecture="GPTModel", n_layers=32, hidden_size=4096, n_heads=32, n_kv_heads=32,
    head_dim=128, intermediate_size=16384, vocab_size=50688, tied_embeddings=True, mlp_gated=False,
    qkv_bias=True, max_context=32768, published_params_b=6.7,
)  # fmt: skip

APERTUS_8B = _arch(
    "apertus-8b", "Apertus 8B",
    ("swiss-ai/Apertus-8B-Instruct-2509", "Apertus-8B-Instruct-2509", "swiss-ai/Apertus-8B-2509",
     "Apertus 8B"),
    "swiss-ai/Apertus-8B config.json as transcribed in ollama/ollama's Apertus loader test "
    "(TestParseConfigApertus8B, read 2026-11-28 through the stored-code search): ApertusForCausalLM, hidden "
    "4096, intermediate 21504, 32 layers, 32 heads, 8 KV heads, vocab 131072, tie_word_embeddings false, "
    "qk_norm; hidden_act xielu in an up/down MLP with no gate_proj (transformers ApertusMLP; the same test "
    "suite's converter asserts gated_mlp False); 8.05B",
    family="apertus", hf_architecture="ApertusForCausalLM", n_layers=32, hidden_size=4096, n_heads=32,
    n_kv_heads=8, head_dim=128, intermediate_size=21504, vocab_size=131072, mlp_gated=False,
    max_context=65536, published_params_b=8.05,
)  # fmt: skip
MINISTRAL_8B_2410 = _arch(
    "ministral-8b-2410", "Ministral 8B 2410",
    ("mistralai/Ministral-8B-Instruct-2410", "Ministral-8B-Instruct-2410", "Ministral 8B"),
    "mistralai/Ministral-8B-Instruct-2410 model card, 'Ministral 8B Architecture' table (as mirrored at "
    "huggingface.co/QuantFactory/Ministral-8B-Instruct-2410-GGUF, read 2026-11-28): 36 layers, 32 heads, dim "
    "4096, 8 KV heads, hidden dim 12288, head dim 128, vocab 131,072, 8,019,808,256 parameters (which an "
    "untied head implies); interleaved sliding-window attention (128k,32k,32k,32k) not modelled",
    family="mistral", hf_architecture="MistralForCausalLM", n_layers=36, hidden_size=4096, n_heads=32,
    n_kv_heads=8, head_dim=128, intermediate_size=12288, vocab_size=131072, max_context=131072,
    published_params_b=8.02,
)  # fmt: skip
MAGISTRAL_SMALL_2506 = _arch(
    "magistral-small-2506", "Magistral Small 2506",
    ("mistralai/Magistral-Small-2506", "Magistral-Small-2506", "Magistral Small 2506"),
    "mistralai/Magistral-Small-2506 model card (huggingface.co README, read 2026-11-28 through the stored "
    "pages): 'Building upon Mistral Small 3.1 (2503)', base_model "
    "mistralai/Mistral-Small-3.1-24B-Instruct-2503; its text decoder is the Mistral Small 3 24B shape of the "
    "catalog (tools/catalog/models.yaml mistral-small-24b, from Mistral-Small-24B-Base-2501 config.json): 40 "
    "layers, hidden 5120, 32 heads, 8 KV heads, head_dim 128, intermediate 32768, vocab 131072, "
    "untied; 23.57B",
    family="mistral", hf_architecture="MistralForCausalLM", n_layers=40, hidden_size=5120, n_heads=32,
    n_kv_heads=8, head_dim=128, intermediate_size=32768, vocab_size=131072, max_context=131072,
    published_params_b=23.57,
)  # fmt: skip
PLANO_ORCHESTRATOR_4B = _arch(
    "plano-orchestrator-4b", "Plano-Orchestrator 4B",
    ("katanemo/Plano-Orchestrator-4B", "Plano-Orchestrator-4B"),
    "katanemo/Plano-Orchestrator-4B README (mirrored at dev.modelhub.org.cn, read 2026-11-28): base_model "
    "Qwen/Qwen3-4B-Instruct-2507, i.e. the Qwen3 4B shape, as zyzshishui/slime scripts/models/qwen3-4B.sh "
    "gives it (stored-code search, 2026-11-28): 36 layers, hidden 2560, ffn 9728 (SwiGLU), 32 heads, 8 query "
    "groups, kv-channels 128, vocab 151936, qk-layernorm, embeddings tied (no "
    "--untie-embeddings-and-output-weights, which the same repository's Llama script passes); 4.02B",
    family="qwen", hf_architecture="Qwen3ForCausalLM", n_layers=36, hidden_size=2560, n_heads=32,
    n_kv_heads=8, head_dim=128, intermediate_size=9728, vocab_size=151936, tied_embeddings=True,
    max_context=40960, published_params_b=4.02,
)  # fmt: skip

FRESH_ARCHS: tuple[ModelArch, ...] = (
    MISTRAL_7B_V01, MISTRAL_7B_V02, OPENBUDDY_ZEPHYR_7B, YI_34B, TINYLLAMA_1B, QWEN1_1_8B, QWEN1_14B, YI_6B,
    LLAMA_1_7B, OPENLLAMA_3B_V2, GPT2_XL, LLMS_FROM_SCRATCH_GPT_124M, LLMS_FROM_SCRATCH_GPT_124M_V50304,
    MEGATRON_GPT3_6_7B, APERTUS_8B, MINISTRAL_8B_2410, MAGISTRAL_SMALL_2506, PLANO_ORCHESTRATOR_4B,
)  # fmt: skip


def fresh_arch(*keys: str | None) -> ModelArch | None:
    """The architecture whose id, name or an alias equals one of `keys` (case-insensitive; a name may
    carry a parenthesised suffix such as 'TinyLlama 1.1B (intermediate-step-1431k-3T)'), else None."""
    for key in keys:
        if not key:
            continue
        want = {key.strip().lower(), key.split("(")[0].strip().lower()}
        for arch in FRESH_ARCHS:
            names = {arch.id.lower(), arch.name.lower(), *(a.lower() for a in arch.aliases)}
            if want & names:
                return arch
    return None


def present_targets(arch: ModelArch, inputs: dict[str, Any], notes: list[str]) -> ModelArch:
    """Drop from `inputs['lora_targets']` the module names `arch` has no linear for (peft matches
    target_modules against the model's module names and skips a name no module carries, erroring only when
    none matches: peft tuners_utils inject_adapter), so an axolotl config listing gate_proj adapts an
    ungated MLP's up/down projections only. Returns `arch` (the scorer calls it where it resolves the
    arch)."""
    targets = inputs.get("lora_targets")
    if not isinstance(targets, list):
        return arch
    have = {*arch.attention_linears(), *arch.mlp_linears(arch.intermediate_size)}
    absent = [t for t in targets if t not in have]
    if absent and len(absent) < len(targets):
        inputs["lora_targets"] = [t for t in targets if t in have]
        notes.append(f"LoRA targets {', '.join(absent)} dropped: {arch.id} has no such module")
    return arch
