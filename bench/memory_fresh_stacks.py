"""What each source family's own training script does (bench.accuracy_fresh_memory applies it where a
fresh-set row leaves a field null): optimizer implementation, checkpointing, loss, accumulation and the
data pipeline's batch shapes, each with its source."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class SourceStack:
    """What one source family's own code does where its rows leave a field null (the family's runs share
    one training script, so this is a fact about the script, not a guess per row). A row's own value wins."""

    optimizer_impl: str | None
    grad_checkpointing: bool | None
    loss: dict[str, Any]
    source: str
    accumulation: dict[str, int] = field(default_factory=dict)
    """Micro-batches per optimizer step (global / micro) of the config a row's document names (else 1)."""
    batch_column: bool = False  # the document prints 'BS micro/global': global / (gpus x micro) per step
    loss_without_autocast: dict[str, Any] = field(default_factory=dict)
    """Loss settings for the family's rows whose engine runs the model in 16-bit without autocast (a framework
    preset with amp False: DeepSpeed's fp16/bf16 engine), where a loss without `.float()` stays 16-bit."""
    lora: dict[str, Any] = field(default_factory=dict)
    """LoRA settings of the family's adapter code (tools.memory.estimate_memory keywords), for its LoRA and
    QLoRA rows."""
    quant: dict[str, Any] = field(default_factory=dict)
    """How the family's code loads and runs a 4/8-bit base (tools.memory_quant options): its QLoRA rows."""
    model_code: str | None = None
    """Whose layer code the family's model runs (tools.memory_model_code: 'plain' for a model written in plain
    torch, without transformers' per-layer extras); None: the framework preset's."""
    flash_attention: bool | None = None
    """The attention the family's model code runs where a row leaves it null (None: the scorer's default)."""
    output_held: str = ""
    """A phrase of a row's source document that marks the runs whose loop held the model output (`outputs =
    model(**batch); loss = outputs.loss`): logits_held on for those rows only (a row's document names the
    code state it measured)."""
    document_options: dict[str, dict[str, Any]] = field(default_factory=dict)
    """A phrase of a row's source document -> the calculator options of the run it names (a row whose
    document names a setting the family's script changed between runs)."""
    variable_length: bool = False
    """The script pads each batch to its longest sample on data of varying length (tools.memory's
    variable_length: the caching allocator's stale logits segments on the reserved basis)."""
    precision: dict[str, Any] = field(default_factory=dict)
    """The precision options of the family's recipe (tools.memory_megatron: fp8_linears, fp8_params,
    grad_reduce_in_fp32), for its full-training and pretraining rows."""
    basis: str = ""
    """The basis of the figure the family's own memory logger prints, where a row leaves it null."""


_SOURCE_STACKS: dict[str, SourceStack] = {
    "answerai-fsdp-qlora-benchmarks": SourceStack(
        "foreach", None, {"loss_impl": "shift-logits", "logits_held": True},
        "AnswerDotAI/fsdp_qlora train.py: torch.optim.AdamW(model.parameters(), lr, betas, eps) (torch's "
        "default foreach on CUDA parameters; the CPU-offloaded step has no GPU temporaries); transformers of "
        "Feb-Mar 2024 (< 4.46) LlamaForCausalLM/MistralForCausalLM: logits.float(), then "
        "logits[..., :-1, :].contiguous() into CrossEntropyLoss (loss_impl shift-logits); the loop sets "
        "`output = None` only after the optimizer step (logits_held); its QLoRA layers are bitsandbytes "
        "Linear4bit (MatMul4Bit keeps each input: quant_saves_input)",
        quant={"quant_saves_input": True},
    ),
    "litgpt-config-hub-finetune": SourceStack(
        "foreach", False, {"loss_upcast": False, "logits_held": True},
        "Lightning-AI/litgpt finetune/{full,lora}.py: torch.optim.AdamW (foreach default); "
        "model(input_ids, lm_head_chunk_size=128) and chunked_cross_entropy on the bf16 logits (no fp32 "
        "upcast under bf16-true: a 16-bit loss), whose `logits` list the loop holds through fabric.backward "
        "(logits_held); the single-device scripts have no activation checkpointing; the loop steps the "
        "optimizer once per global_batch_size / micro_batch_size micro-batches, accumulating into .grad; "
        "litgpt/lora.py LoRAQKVLinear adapts the fused qkv linear with one lora_dropout(x) (lora_fused_qkv); "
        "its adapters are its own nn.Parameters, not peft's, made in the model's dtype (bf16-true: 16-bit, "
        "no fp32 input casts: lora_fp32_adapters False, whatever the hf preset says)",
        {"tiny-llama/full.yaml": 32 // 4, "tiny-llama/lora.yaml": 8 // 8},
        lora={"lora_fused_qkv": True, "lora_fp32_adapters": False},
        quant={"quant_saves_input": True},  # `quantize: bnb.nf4`: Fabric BitsandbytesPrecision (Linear4bit)
    ),
    "chenyaofo-deepspeed-llama7b-gist": SourceStack(
        None, None, {}, "gist chenyaofo/d4cd6a20ab4b95cb3a49491747e2139a (DeepSpeed 0.14.2):the BS column of "
        "its LLaMA-7B table is micro per device / global on 8 GPUs: global / (8 x micro) micro-batches/step",
        batch_column=True,
    ),
    "ms-swift-v1-benchmark": SourceStack(
        "foreach", None, {},
        "modelscope/ms-swift 1.x swift/llm/utils/utils.py data_collate_fn: pad_sequence to the longest "
        "sample of each batch (padding_to None), truncation_strategy 'delete' (template.py), on "
        "cls-fudan-news-zh (3234 +- 2548 tokens per Benchmark.md): batch lengths change every step "
        "(variable_length); HF Trainer of Dec 2023 (transformers 4.3x): adamw_torch = torch.optim.AdamW "
        "(foreach default on CUDA, torch 2.1.1); Qwen-1 modeling_qwen.py: bf16 lm_head, CrossEntropyLoss "
        "autocast to fp32 (the default shift-labels bytes at batch 1)",
        variable_length=True,
    ),
    "peft-metamathqa-method-comparison": SourceStack(
        "foreach", False, {"logits_held": True},
        "huggingface/peft method_comparison/MetaMathQA/run.py: torch.optim.AdamW (foreach default, "
        "torch 2.7.1); gradient checkpointing not enabled by the harness; transformers 4.52 ForCausalLMLoss "
        "(shift-labels); `outputs = model(**batch)` stays referenced through the backward and the step "
        "(logits_held)",
    ),
    "colossalai-pl-gpt2-benchmark": SourceStack(
        None, None, {},
        "hpcaitech/ColossalAI-Pytorch-lightning benchmark/gpt/model.py: GPTLMLoss shifts the logits with "
        "`logits[..., :-1, :].contiguous()` into nn.CrossEntropyLoss, no `.float()`: under the DDP "
        "strategy's native AMP autocast runs log-softmax in fp32, under DeepSpeedStrategy (fp16 engine, no "
        "autocast) the loss is 16-bit (loss_upcast False)",
        loss_without_autocast={"loss_upcast": False},
    ),
    "universal-llm-trainer-gpu-test": SourceStack(
        "foreach", None, {"loss_upcast": False},
        "ljm565/universal-llm-trainer (read 2026-11-27): the trainer builds optim.AdamW(model.parameters(), "
        "...) (torch's foreach default on CUDA); the model wrapper (src/univlt/models/llama3.py) calls "
        "the HF model "
        "without labels (transformers 4.49 returns the lm_head's bf16 logits, no .float()) and runs "
        "nn.CrossEntropyLoss on output.logits[:, :-1, :].reshape(-1, V): a 16-bit loss on a shifted copy "
        "(loss_upcast False); with del_logits_after_forward the output is deleted before the backward "
        "(logits not held); its QLoRA configs (bit: 4, config_quant/bnb_4bit.yaml) load the model with "
        "torch.float32 for every module bitsandbytes does not replace (src/univlt/models/llama3.py: "
        "dtype=torch.float32 when bit is an integer; fp32_unquantized) and run it without autocast; its LoRA "
        "runs (src/utils/peft_utils.py apply_peft: get_peft_model(model.model, config); "
        "docker/requirements.txt peft==0.14.0, autocast_adapter_dtype default True) train fp32 adapters on "
        "the bf16 base without "
        "autocast (lora_fp32_adapters)",
        lora={"lora_fp32_adapters": True},
        quant={"fp32_unquantized": True, "quant_saves_input": True},
    ),
    "colossalchat-hardware-requirements": SourceStack(
        None, None, {"loss_impl": "shift-logits", "logits_held": True},
        "hpcaitech/ColossalAI applications/ColossalChat (read 2026-11-27): requirements.txt pins "
        "transformers==4.34.1, whose LlamaForCausalLM does logits.float() and shifts with "
        "logits[..., :-1, :].contiguous() into CrossEntropyLoss (loss_impl shift-logits); coati's "
        "DPO/ORPO/KTO trainers take log_softmax of the same fp32 logits' [:, :-1, :] slices "
        "(coati/models/utils.py calc_masked_log_probs); coati/trainer/sft.py and dpo.py keep `outputs` / "
        "`actor_all_logits` referenced through booster.backward and the optimizer step (logits_held)",
    ),
    "gpu-advisor-device-measurements": SourceStack(
        None, None, {},
        "bench/device_training_measure.py build_model (this repository; peft 0.21.0 on the lent H200): "
        "get_peft_model(model, LoraConfig(...)) with peft's default autocast_adapter_dtype=True on a bf16 "
        "model and no autocast in the pure-bf16 set-ups: fp32 adapters, each adapted linear keeps an fp32 "
        "copy of its input (lora_fp32_adapters, tools.memory_lora)",
        lora={"lora_fp32_adapters": True},
    ),
    "rasbt-llms-from-scratch-training-speed": SourceStack(
        "fused", False, {"loss_upcast": False},
        "rasbt/LLMs-from-scratch ch05/10_llm-training-speed/00_orig.py (stored 9a899489) and "
        "01_opt_single_gpu.py (stored 7bd26314), read 2026-11-27: torch.optim.AdamW(..., fused=True); no "
        "activation checkpointing; model.to(device).to(torch.bfloat16) with no autocast, and calc_loss_batch "
        "runs torch.nn.functional.cross_entropy(logits.flatten(0, 1), target_batch.flatten()) on the bf16 "
        "out_head logits (no .float(): a 16-bit loss, loss_upcast False); `logits` is local to "
        "calc_loss_batch, so the loop does not hold it through the backward; GPTModel is plain torch "
        "(nn.LayerNorm, nn.GELU or the book's own, nn.Linear, scaled_dot_product_attention from step 7): "
        "model_code plain",
        model_code="plain",
    ),
    "llama-recipes-fsdp-memory-threads": SourceStack(
        "foreach", True,
        {"loss_impl": "shift-logits", "returns_kv_cache": True},
        "meta-llama/llama-recipes at stored commit 4767f09e (read 2026-11-27): requirements.txt torch==2.0.1 "
        "and an unpinned transformers (July-Aug 2023: 4.31); llama_finetuning.py builds optim.AdamW("
        "model.parameters(), lr, weight_decay=0.0) (torch 2.0's foreach default on CUDA), loads "
        "LlamaForCausalLM.from_pretrained without use_cache=False and checkpoints with FSDP's "
        "apply_fsdp_checkpointing (configs/fsdp.py fsdp_activation_checkpointing True), not transformers' "
        "gradient checkpointing, so the forward returns every layer's K/V (use_cache True: "
        "returns_kv_cache; PR #165 added use_cache=False, 'saves ~4 GB in activation memory' for 7B); "
        "utils/train_utils.py keeps `outputs = model(**batch)` through loss.backward() and the step "
        "(PR #41's description: its limit_all_gathers=False/True runs kept 'logits (as well as "
        "past_key_values, hidden_states, and attentions) alive' that way, its final run uses `loss = "
        "model(*batch).loss`: logits_held on the rows whose document names those two runs; the issue #100 "
        "comment does not say which loop it ran: not held); transformers 4.31 "
        "LlamaForCausalLM: logits.float() then logits[..., :-1, :].contiguous() into CrossEntropyLoss "
        "(loss_impl shift-logits) and eager attention only (LlamaAttention: fp32 softmax; SDPA came in 4.36; "
        "PR #97's flash path is optimum's BetterTransformer, a row says so)",
        flash_attention=False,
        output_held="With limit_all_gathers=",
        # PR #41's description: 'With limit_all_gathers=False' (torch 2.0.1's FSDP default) vs '=True'
        document_options={"limit_all_gathers=False": {"fsdp_limit_all_gathers": False}},
    ),
    "axolotl-example-readmes-vram": SourceStack(
        None, None, {},
        "axolotl-ai-cloud/axolotl src/axolotl/utils/models.py (stored commit 0009f509, read 2026-11-28) "
        "load_model: for `adapter: qlora` with load_in_4bit it calls peft's prepare_model_for_kbit_training "
        "(huggingface/peft src/peft/utils/other.py, stored c1a876fa: every non-quantised fp16/bf16 parameter "
        "cast to fp32), then sets needs_fa2_dtype and casts every module named *norm*, lm_head and "
        "embed_tokens back to cfg.torch_dtype ('convert them back to fp16/bf16 for flash-attn "
        "compatibility'), and trains under the HF Trainer's bf16 autocast: the non-quantised modules end "
        "16-bit, so fp32_unquantized stays off (the hf preset's value; on, fresh-5 went 15.0% / 51.6% -> "
        "15.3% / 82.6%, mem20). quant_saves_input (bitsandbytes MatMul4Bit keeps its input) is a fact of "
        "the Linear4bit these rows run, but under gradient checkpointing it moves fresh-5 by <= 2 points, "
        "upward on rows already over: not set (mem20)",
        quant={"fp32_unquantized": False},
    ),
    "deepspeed-issue-5305-megatron-ds-7b": SourceStack(
        None, None, {"loss_impl": "vocab-parallel"},
        "tothemoon96/Megatron-DeepSpeed at stored commit 4569c602 (read 2026-11-28): the issue's script "
        "examples_deepspeed/sequence_parallel/ds_pretrain_gpt_1.3B_seq_parallel_32k.sh runs pretrain_gpt.py, "
        "Megatron's own GPT (megatron/model/gpt_model.py, transformer.py ParallelTransformerLayer: "
        "LayerNorm, no transformers modelling code: model_code plain) whose loss is "
        "tensor_parallel.vocab_parallel_cross_entropy on the vocab-split logits (loss_impl vocab-parallel)",
        model_code="plain",
    ),
    "megatron-bridge-skill-docs-llama3-70b": SourceStack(
        None, None, {},
        "NVIDIA-NeMo/Megatron-Bridge (read 2026-11-29): the skill docs' runs are the perf harness's "
        "llama3_70b SFT H100 FP8-CS workload (skills/mbridge-perf-activation-recompute/card.yaml: 'measured "
        "PR #3107'); scripts/performance/configs/llama/llama3_llm_finetune.py llama3_70b_h100_sft_config "
        "calls set_llama3_common_peft_configs: `cfg.ddp.grad_reduce_in_fp32 = False` (bf16 gradient "
        "buffer), distributed optimizer on, `disable_parameter_transpose_cache = True`; "
        "scripts/performance/utils/helpers.py get_precision_config('fp8_cs') is "
        "bf16_with_fp8_current_scaling_mixed() (src/megatron/bridge/training/mixed_precision.py: fp8 "
        "'hybrid', `fp8_param_gather = True`: FP8 primary weights) with first_last_layers_bf16 False. "
        "Memory figures: src/megatron/bridge/training/utils/train_utils.py report_memory prints "
        "torch.cuda.memory_stats()['allocated_bytes.all.peak'] / 1e9 as mem-max-allocated-gigabytes, the "
        "figure the harness's scripts/performance/utils/evaluate.py reads as its peak ('max_alloc'): "
        "allocated basis, decimal GB. Which rank's line the docs quote is not printed (the card says the "
        "baseline OOMed on rank 0)",
        precision={"fp8_linears": True, "fp8_params": True, "grad_reduce_in_fp32": False},
        basis="allocated",
    ),
    "canifinetune-rtx4080-baselines": SourceStack(
        None, None, {"logits_held": True},
        "DaoyuanLi2816/can-i-finetune-this (stored 669dffc8 / 1e8b68fb, read 2026-11-28): "
        "src/canifinetune/training/runtime.py load_model loads a QLoRA base with BitsAndBytesConfig("
        "load_in_4bit, bnb_4bit_compute_dtype bf16) and dtype bf16, then calls peft's "
        "prepare_model_for_kbit_training (every non-quantised parameter cast to fp32) and never casts back "
        "(fp32_unquantized; the runs' after-load allocation fits fp32 embeddings: 0.68 GiB for Qwen2.5 "
        "0.5B); "
        "src/canifinetune/bench/runner.py keeps `outputs = model(input_ids, attention_mask, labels)` "
        "referenced through scaler.scale(loss).backward() and the optimizer step (logits_held)",
        quant={"fp32_unquantized": True},
    ),
}  # fmt: skip
"""Per source family (the row's `family`): its training script's optimizer implementation, checkpointing and
loss, applied where the row leaves them null and named in the mapping notes."""


def recipe_options(
    stack: SourceStack | None, method: str, precision: str | None
) -> list[tuple[str, Any, str]]:
    """The calculator options a family's code fixes for a row of this method and weight precision, each with
    why: quantised-base loading (QLoRA on a 4/8-bit base), the recipe's precision options (full training),
    the model code and a variable-length collator."""
    if stack is None:
        return []
    found: list[tuple[str, Any, str]] = []
    if method == "qlora" and precision in ("nf4", "int4", "int8"):
        found += [(k, v, "the source's quantised-base loading") for k, v in stack.quant.items()]
    if method in ("full", "pretraining"):
        found += [(k, v, "the source's precision recipe") for k, v in stack.precision.items()]
    if stack.model_code is not None:
        found.append(("model_code", stack.model_code, "the source's model code, tools.memory_model_code"))
    if stack.variable_length:
        found.append(
            ("variable_length", True, "batches padded to their longest sample, the source's collator")
        )
    return found


def config_accumulation(row: dict[str, Any], stack: SourceStack | None) -> int:
    """The source config's accumulation steps when the row's source document names a listed config."""
    source = row.get("source") or {}
    document = str(source.get("document") or "") if isinstance(source, dict) else ""
    if stack is None:
        return 1
    found = re.search(r"\bBS (\d+)/(\d+)\b", document) if stack.batch_column else None
    if found:  # 'BS micro/global'
        return max(1, int(found.group(2)) // (int(found.group(1)) * int(row.get("gpus") or 1)))
    return next((n for name, n in stack.accumulation.items() if f"'{name}'" in document), 1)


_FUSED_LOSS_WORDS = re.compile(r"(?i)cutcrossentropy|cut[ _-]cross[ _-]entropy|\bcce\b")


def fused_linear_loss(row: dict[str, Any], liger: bool) -> bool:
    """The row's loss is fused into the LM head (tools.memory_fused_loss, loss_impl fused-linear): Liger
    kernels (their fused linear cross-entropy is on by default in apply_liger_kernel_to_* and in the
    trainers' use_liger_kernel), or notes naming Cut Cross-Entropy (axolotl's CutCrossEntropyPlugin,
    recorded as loss_chunking true by the fresh-5 collection)."""
    return liger or bool(_FUSED_LOSS_WORDS.search(str(row.get("notes") or "")))
