"""One sizing request: the flags of `gpu-advisor size`, declared once.

`SizingRequest` names every input of a memory sizing (which model, the configuration, the GPU to fit
against), with its default (tools.vocabulary) and its help text. The command line, the Python API,
the MCP and LangChain tools and the simulator derive their flags and schemas from it.

The request carries values as given: tools.memory.estimate_memory checks each one and raises the
one-line InputError the command line prints, so `from_flags` builds the request without pydantic
validation (whose messages would differ). Option names are str here for the same reason; their
allowed values are tools.vocabulary's.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from tools.memory_frameworks import MEMORY_BASIS_DEFAULT
from tools.memory_options import USER_FLAGS
from tools.preference import TRAINING_OBJECTIVE_DEFAULT
from tools.vocabulary import (
    BATCH_SIZE_DEFAULT,
    FRAMEWORK_DEFAULT,
    LORA_RANK_DEFAULT,
    LORA_TARGETS_DEFAULT,
    OPTIMIZER_DEFAULT,
    SEQ_LEN_DEFAULT,
    TRAINING_PRECISION_DEFAULT,
)

MODEL_FIELDS = ("model", "config", "params_b")
"""Exactly one of these names the architecture."""
SHAPE_FIELDS = ("kv_heads", "layers", "hidden")
"""Optional shape of a --params-b model (tools.catalog.synthetic.synthetic_arch)."""
CLI_FLAGS: dict[str, str] = {"loss_chunking": "--chunked-loss", **USER_FLAGS}
"""Command-line flags whose name is not the field's (otherwise --field-name)."""


class SizingRequest(BaseModel):
    """One model and configuration to size; memory results in GiB. Descriptions are the CLI's help."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    model: str | None = Field(None, description="catalog model id or alias, e.g. llama-3-70b")
    config: Path | None = Field(None, description="a Hugging Face config.json")
    params_b: float | None = Field(None, description="parameters in billions (Llama-like shape)")
    kv_heads: int | None = Field(None, description="with --params-b: KV heads (default: 8, GQA)")
    layers: int | None = Field(None, description="with --params-b: decoder layers")
    hidden: int | None = Field(None, description="with --params-b: hidden size")
    method: str = Field("full", description="full | lora | qlora | pretraining | inference")
    precision: str | None = Field(
        None, description="weights: bf16 | fp16 | fp32 | fp8 | int8 | int4 | nf4 (default nf4 for qlora)"
    )
    training_precision: str = Field(TRAINING_PRECISION_DEFAULT, description="mixed | pure-bf16 | pure-fp16")
    optimizer: str = Field(
        OPTIMIZER_DEFAULT, description="adamw | adamw-8bit | paged-adamw-8bit | sgd | adafactor"
    )
    lora_rank: int = Field(LORA_RANK_DEFAULT, description="LoRA rank r")
    lora_targets: str = Field(
        LORA_TARGETS_DEFAULT, description="attention | all-linear | mlp | q_proj,v_proj,..."
    )
    seq_len: int = Field(SEQ_LEN_DEFAULT, description="training sequence length, tokens")
    batch_size: int = Field(BATCH_SIZE_DEFAULT, description="micro-batch per GPU, sequences")
    grad_checkpointing: bool = Field(True, description="activation recomputation")
    flash_attention: bool = Field(True, description="memory-efficient attention kernel")
    gpus: int = Field(1, description="number of GPUs")
    sharding: str = Field("none", description="none | ddp | zero1 | zero2 | zero3 | fsdp")
    tp: int = Field(1, description="tensor-parallel degree")
    pp: int = Field(1, description="pipeline-parallel degree")
    offload: str = Field("none", description="none | optimizer | params (to CPU)")
    concurrency: int = Field(1, description="inference: sequences in flight")
    context_len: int | None = Field(None, description="inference: tokens per sequence")
    framework: str = Field(
        FRAMEWORK_DEFAULT,
        description="training stack whose memory defaults apply: hf | deepspeed | axolotl | llama-factory | "
        "unsloth | torchtune | torchtitan | megatron | nemo",
    )
    optimizer_impl: str | None = Field(
        None,
        description="foreach | fused | for-loop (default: the framework's; foreach adds a step temporary)",
    )
    loss_chunking: bool | None = Field(
        None, description="chunked cross-entropy (default: the framework's; torchtune chunks)"
    )
    lora_dropout: float | None = Field(
        None, description="LoRA dropout probability (default: the framework's, 0 = no copies kept)"
    )
    activation_offloading: bool | None = Field(
        None, description="offload kept activations to CPU (default: the framework's)"
    )
    optimizer_in_backward: bool | None = Field(
        None, description="optimizer step fused into backward, frees each gradient at once"
    )
    loss_impl: str | None = Field(
        None,
        description="unchunked loss: shift-labels | shift-logits | shift-logits-downcast | vocab-parallel "
        "| fused-linear (default: the framework's; shift-logits keeps an fp32 shifted copy of the logits; "
        "fused-linear: Cut Cross-Entropy or Liger's fused linear cross-entropy, no logits tensor)",
    )
    loss_upcast: bool | None = Field(
        None, description="the loss upcasts the logits to fp32 (default: the framework's, on)"
    )
    model_code: str | None = Field(
        None,
        description="hf | plain: transformers' layers (fp32 norm copies etc.) or a plain-torch model "
        "(default: the framework's; megatron/nemo plain)",
    )
    lora_fp32_adapters: bool | None = Field(
        None,
        description="peft keeps LoRA adapters fp32 on a bf16 base (get_peft_model autocast_adapter_dtype); "
        "adds fp32 input copies in pure-bf16 training, none under mixed precision (default: the framework's)",
    )
    fp32_unquantized: bool | None = Field(
        None,
        description="qlora: the base's unquantised parts are fp32 (torch_dtype float32, or peft's "
        "prepare_model_for_kbit_training), so the forward runs in fp32 (default: the framework's, off)",
    )
    quant_saves_input: bool | None = Field(
        None,
        description="qlora: bitsandbytes' 4-bit matmul keeps each linear's 16-bit input for the backward "
        "(default: the framework's, off)",
    )
    returns_kv_cache: bool | None = Field(
        None,
        description="the training forward runs with use_cache=True and returns every layer's K/V (stacks "
        "that do not pass use_cache=False; default: the framework's, off)",
    )
    fsdp_limit_all_gathers: bool | None = Field(
        None,
        description="FSDP1's all-gather rate limiter; off, every layer's weights may be gathered at once "
        "(default: the framework's, on as torch's)",
    )
    fp8_linears: bool | None = Field(
        None,
        description="full training with FP8 linears (Transformer Engine, Megatron --fp8): each linear "
        "keeps its input in FP8 (default: off)",
    )
    fp8_params: bool | None = Field(
        None,
        description="with fp8-linears: the layers' weights stored in FP8 (Megatron --fp8-param-gather, "
        "set by Megatron-Bridge's FP8 recipes; default: off)",
    )
    grad_reduce_in_fp32: bool | None = Field(
        None,
        description="megatron/nemo: the persistent gradient buffer is fp32 (default: the framework's, "
        "on); off, bf16 gradients and an fp32 copy for the optimizer step",
    )
    variable_length: bool = Field(
        False,
        description="batches padded to their longest sample on data of varying length (unpacked SFT): the "
        "caching allocator keeps earlier batches' logits blocks (reserved basis only)",
    )
    training_objective: str = Field(
        TRAINING_OBJECTIVE_DEFAULT,
        description="sft | dpo | orpo | simpo | kto: a preference pair is 2 sequences per micro-batch item; "
        "full dpo/kto also holds a frozen bf16 reference copy (LoRA: the base, adapter off)",
    )
    precompute_ref_log_probs: bool = Field(
        False, description="dpo/kto: reference log-probs computed before training (no reference model held)"
    )
    memory_basis: str = Field(
        MEMORY_BASIS_DEFAULT,
        description="reserved (nvidia-smi: + CUDA context + allocator reserve) | allocated (tensors only)",
    )
    gpu: str | None = Field(None, description="catalog GPU id: show fit against its usable memory")

    @classmethod
    def from_flags(cls, **flags: Any) -> SizingRequest:
        """The request as given (unset flags take their defaults), unvalidated: the calculator checks
        each value. An unknown name raises TypeError, as a keyword call would."""
        unknown = [name for name in flags if name not in cls.model_fields]
        if unknown:
            raise TypeError(f"size() got an unexpected keyword argument {unknown[0]!r}")
        return cls.model_construct(**flags)

    def calculator_kwargs(self) -> dict[str, Any]:
        """Keyword arguments of tools.memory.estimate_memory (all but the model and the GPU)."""
        skip = (*MODEL_FIELDS, *SHAPE_FIELDS, "gpu")
        return {name: getattr(self, name) for name in type(self).model_fields if name not in skip}


def cli_flag(name: str) -> str:
    """The command-line flag of a field: --seq-len for seq_len; booleans also get --no-..."""
    flag = CLI_FLAGS.get(name, "--" + name.replace("_", "-"))
    if SizingRequest.model_fields[name].annotation in (bool, "bool", bool | None, "bool | None"):
        return f"{flag}/--no-{flag[2:]}"
    return flag
