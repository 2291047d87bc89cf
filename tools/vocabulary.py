"""The calculators' vocabulary and shared defaults, each declared once.

Methods: `Method` is every way to use a model the calculators know. Narrower sets are subsets of it,
named for the fields that accept fewer (tests/memory/test_vocabulary.py checks they stay subsets):

    SimulatedMethod  (full, lora)                         the fake-tensor simulator
    ProfileMethod    (full, lora, qlora)                  WorkloadProfile.method (the workload names
                                                          pre-training and inference)
    TrainingMethod   (ProfileMethod + pretraining)        training FLOPs and time
    Method           (TrainingMethod + inference)         memory sizing, topology plans, tool schemas

Precisions: `Precision` is a weight storage format; `KvPrecision` the formats a KV cache is kept in;
`TrainingPrecision` how training keeps its master weights and optimizer states. The tuples are the
same sets as values, in the order error messages list them.
"""

from __future__ import annotations

from typing import Final, Literal, get_args

SimulatedMethod = Literal["full", "lora"]
ProfileMethod = Literal[SimulatedMethod, "qlora"]
TrainingMethod = Literal[ProfileMethod, "pretraining"]
Method = Literal[TrainingMethod, "inference"]

Precision = Literal["fp32", "bf16", "fp16", "fp8", "int8", "int4", "nf4"]
KvPrecision = Literal["bf16", "fp16", "fp8", "fp32"]
TrainingPrecision = Literal["mixed", "pure-bf16", "pure-fp16"]
"""mixed: fp32 master weights and optimizer states under 16-bit autocast; pure-bf16 / pure-fp16: the model
loaded in that 16-bit dtype and trained without autocast, so weights, gradients and optimizer states are all
16-bit (the same bytes for both: 2 B each; fp16 differs only in range, which loss scaling cannot fix for
fp16 parameters; tools.memory_states)."""
SimulatedOptimizer = Literal["adamw", "sgd"]
Optimizer = Literal["adamw", "adamw-8bit", "paged-adamw-8bit", "sgd", "adafactor"]
Sharding = Literal["none", "ddp", "zero1", "zero2", "zero3", "fsdp"]
Offload = Literal["none", "optimizer", "params"]
Framework = Literal[
    "hf", "deepspeed", "axolotl", "llama-factory", "unsloth", "torchtune", "torchtitan", "megatron", "nemo"
]
"""The training stack a run uses: it sets efficiency bands (time) and memory defaults (optimizer
implementation, loss, offloading). `hf` is Transformers Trainer / TRL / PEFT, the default."""
ServingFramework = Literal["vllm", "sglang", "tensorrt-llm", "tgi", "transformers"]
"""The inference server a deployment uses (serving time). `transformers` is Hugging Face transformers'
generate() behind a plain Python server (no continuous batching, no paged KV cache, eager PyTorch)."""
OptionPricing = Literal["on_demand", "spot", "reserved", "owned"]
"""How an option is paid for: rented on demand, spot (preemptible), reserved (a commitment), or owned
hardware; also what a user may rule out (WorkloadProfile.pricing_excluded)."""

METHODS: tuple[str, ...] = get_args(Method)
TRAINING_METHODS: tuple[str, ...] = get_args(TrainingMethod)
PRECISIONS: tuple[str, ...] = get_args(Precision)
TRAINING_PRECISIONS: tuple[str, ...] = get_args(TrainingPrecision)
OPTIMIZERS: tuple[str, ...] = get_args(Optimizer)
SHARDINGS: tuple[str, ...] = get_args(Sharding)
OFFLOADS: tuple[str, ...] = get_args(Offload)
FRAMEWORKS: tuple[str, ...] = get_args(Framework)
SERVING_FRAMEWORKS: tuple[str, ...] = get_args(ServingFramework)
QUANTIZED: tuple[str, ...] = ("fp8", "int8", "int4", "nf4")
"""Precisions that store weights below 16 bits (a subset of PRECISIONS)."""

# --- sizing defaults (one configuration when the caller says nothing) ------------------------------
SEQ_LEN_DEFAULT: Final = 2048
"""Training sequence length, tokens (seed 001's scenario)."""
BATCH_SIZE_DEFAULT: Final = 1
"""Micro-batch per GPU, sequences, with gradient accumulation for the global batch."""
LORA_RANK_DEFAULT: Final = 16
"""LoRA rank 16 (PEFT examples; seed 000: ranks 16-64)."""
LORA_TARGETS_DEFAULT: Final = "all-linear"
"""LoRA on every linear layer of the blocks (PEFT's "all-linear"; QLoRA paper: all layers needed)."""
TRAINING_PRECISION_DEFAULT: Final = "mixed"
"""16-bit weights with an fp32 master copy and fp32 optimizer states (AMP, DeepSpeed, FSDP default)."""
FRAMEWORK_DEFAULT: Final = "hf"
"""Transformers Trainer / TRL / PEFT: what most fine-tuning teams run (seed 000)."""
PRETRAINING_FRAMEWORK_DEFAULT: Final[Framework | None] = None
"""Pre-training (and continual pre-training): no framework in particular, i.e. the generic efficiency
band, pooled over the stacks pre-training teams run and publish throughputs for (Megatron-LM, NeMo,
torchtitan, llm-foundry; tools.compute.efficiency.GENERIC_ANCHORS). Not hf: a Transformers Trainer band
fitted on single-GPU LoRA says little about a multi-node pre-training run; not megatron: its BF16 band
on Blackwell is moved from FP8 by the documented FP8 speedup (~0.68 MFU), above any BF16 measurement."""
PRETRAINING_STACK_TEXT: Final = (
    "a pre-training stack (Megatron-LM, NeMo, torchtitan, llm-foundry: the band pooled over their "
    "published runs)"
)
"""How the time basis names PRETRAINING_FRAMEWORK_DEFAULT."""
OPTIMIZER_DEFAULT: Final = "adamw"
"""AdamW: the fine-tuning stacks' default optimizer (HF Trainer, torchtune, LLaMA-Factory)."""
