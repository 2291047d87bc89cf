"""Compute: training FLOPs and time, inference throughput, and a physics check for claims.

Modules: tools.compute.flops (FLOPs per token, MFU bands, peak TFLOPS, the QLoRA slowdown),
tools.compute.training (training time, multi-GPU scaling, goodput), tools.compute.inference (prefill
and decode throughput), tools.compute.claims (the most tokens a GPU budget can train on, and whether
a claimed run is physically possible).
Training time model (each factor a named, sourced constant below):

    flops          = k x N_active x D  (+ attention term when the architecture is given)
                     k = 6 full / pretraining, 4 LoRA / QLoRA, +2 with full activation recompute
    gpu_hours      = flops / (peak_flops x MFU x scaling_efficiency x goodput) x qlora_slowdown / 3600
    wall_hours     = gpu_hours / n_gpus
    gpu_hours_at_peak = flops / peak_flops / 3600   (seed 001's figure: MFU = 100%, a lower bound)

Inference model (roofline): prefill is compute-bound (2 x N_active FLOPs per token at a prefill
MFU); decode is bandwidth-bound: each step reads the weights once plus every sequence's KV cache,
so step time = bytes / (memory bandwidth x efficiency), unless the step's FLOPs take longer.

MFU means model FLOPs utilisation: useful model FLOPs (6ND-style, recompute not counted as useful
unless it is in `flops`) over the GPU's dense peak. Ranges are low-high; the low end of a time is
the high end of an efficiency.
"""
