"""The calculators one recommender run calls (tools.memory, tools.compute, tools.topology), each
through the caches with keys carrying the inputs it reads. Thin wrappers: every formula lives in its
tools/ module."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from tools import memory as memory_mod
from tools import topology as topology_mod
from tools.catalog.schema import GpuSpec
from tools.compute import serving as compute_serving
from tools.compute import training as compute_training
from tools.compute.serving_constants import OUTPUT_TOKENS_DEFAULT, PROMPT_TOKENS_DEFAULT
from tools.compute.serving_copies import engine_copies
from tools.recommend import memory_rule
from tools.recommend.caches import MemoryCache
from tools.recommend.candidates import Layout, layouts_for, memory_fit, topology_summary
from tools.recommend.models import MemoryFit, TopologySummary
from tools.recommend.state import Part, RunState
from tools.vocabulary import BATCH_SIZE_DEFAULT, SEQ_LEN_DEFAULT


class Calculators(Part):
    """Memory, training time, serving throughput, topology and memory fit for one run."""

    def __init__(self, state: RunState) -> None:
        super().__init__(state)
        w, p, s = self.w, self.p, self.s
        self.mem_signature: tuple[Any, ...] = (
            w.arch,  # the architecture itself, not its id: keys stay exact across requests
            self.method,
            p.precision,
            p.seq_len,
            p.batch_size,
            p.lora_rank,
            p.concurrency,
            p.context_len,
            p.framework,  # the training stack's memory defaults (optimizer implementation, loss, ...)
            p.training_objective,  # preference tuning: 2 sequences per pair, a reference copy (full DPO)
            p.ref_log_probs_precomputed,
            s.optimizer,  # a run sized with another optimizer (tools/recommend/held_first.py)
            p.kv_cache_precision,  # "an fp8 KV cache" (expert review 19, P03)
        )
        self.time_signature: tuple[Any, ...] = (
            w.arch,
            self.method,
            p.precision,
            p.seq_len,
            w.training_tokens,
            s.active_params or w.params_for_flops,
            s.mfu,
            s.flops_factor,
            s.qlora_slowdown,
            s.attention_flops,
            p.concurrency,
            p.context_len,
            p.target_tokens_per_s,
            p.framework,
            self._stated_batch_size,
            p.prompt_tokens,
            p.output_tokens,
            p.training_objective,
            p.ref_log_probs_precomputed,
            p.kv_cache_precision,
        )
        self.time_sig = self.caches.signature_id(self.time_signature)
        self.mem_sig = self.caches.signature_id(self.mem_signature)
        self._layouts: dict[tuple[int, int], list[Layout]] = {}
        self._serving_memory: dict[tuple[Layout, int], Any] = {}
        self.mem = MemoryCache(self._estimate_memory, self.mem_signature, self.caches)
        self._time_cache = self.caches.time
        self._topo_cache = self.caches.topology
        self.weights_total_gib = float(self.mem.get(Layout(1, 1, 1, "none")).breakdown_gib.weights)

    @property
    def _stated_batch_size(self) -> int | None:
        """The micro-batch the user gave; None when it is the default (the time model then widens for it)."""
        return self.p.batch_size if self.p.status_of("batch_size") != "assumed" else None

    def _estimate_memory(
        self,
        layout: Layout,
        traced: bool,
        concurrency: int | None = None,
        precision: str | None = None,
        optimizer: str | None = None,
        method: str | None = None,
    ) -> Any:
        """The memory estimate of `layout`; `concurrency` (serving) overrides the profile's sequences,
        `precision` its weights' precision, `optimizer` the training optimizer and `method` the training
        method (tools.memory)."""
        p = self.p
        if layout.dp > 1 and concurrency is not None:  # one engine copy at its share (Layout.dp)
            concurrency = -(-concurrency // layout.dp)
        kw: dict[str, Any] = dict(
            arch=self.w.arch,
            method=method or self.method,
            precision=precision or p.precision,
            gpus=layout.n_gpus // layout.dp,
            sharding=layout.sharding,
            tp=layout.tp,
            pp=layout.pp,
        )
        if layout.offload != "none":
            kw["offload"] = layout.offload
        if self.inference:
            kw.update(concurrency=concurrency or p.concurrency or 1, context_len=p.context_len)
            if p.kv_cache_precision:
                kw["kv_cache_precision"] = p.kv_cache_precision
        else:
            kw.update(
                seq_len=p.seq_len or SEQ_LEN_DEFAULT,
                batch_size=p.batch_size or BATCH_SIZE_DEFAULT,
                grad_checkpointing=True,
            )
            if p.lora_rank and (method or self.method) in ("lora", "qlora"):
                kw["lora_rank"] = p.lora_rank
            if optimizer or self.s.optimizer:
                kw["optimizer"] = optimizer or self.s.optimizer
            if p.framework:  # None: the estimate's FRAMEWORK_DEFAULT
                kw["framework"] = p.framework
            if p.training_objective:  # tools.preference: pairs and the reference model
                kw["training_objective"] = p.training_objective
                kw["precompute_ref_log_probs"] = bool(p.ref_log_probs_precomputed)
        return memory_mod.estimate_memory(**kw, traced=traced)

    def memory_at_precision(self, layout: Layout, precision: str) -> Any:
        """The memory estimate of `layout` with the weights at `precision` (e.g. 'fp8' where 16-bit does not
        fit): not cached, for a what-if note only."""
        return self._estimate_memory(layout, False, precision=precision)

    def memory_with_optimizer(self, layout: Layout, optimizer: str) -> Any:
        """The memory estimate of `layout` trained with `optimizer` (e.g. 'adamw-8bit' where AdamW's fp32
        states do not fit): not cached, for a what-if note only."""
        return self._estimate_memory(layout, False, optimizer=optimizer)

    def memory_with_method(self, layout: Layout, method: str) -> Any:
        """The memory estimate of `layout` trained with `method` (e.g. 'lora' or 'qlora' where a full
        fine-tune does not fit): not cached, for a what-if note only."""
        # QLoRA's base is 4-bit whatever precision the full fine-tune was stated in (tools.memory's rule)
        precision = "nf4" if method == "qlora" else None
        return self._estimate_memory(layout, False, method=method, precision=precision)

    def serving_memory(self, layout: Layout, concurrency: int) -> Any:
        """The serving memory estimate at `concurrency` sequences per replica (the load a serving plan puts
        on each replica), cached per layout and load."""
        key = (layout, concurrency)
        got = self._serving_memory.get(key)
        if got is None:
            got = self._serving_memory[key] = self._estimate_memory(layout, False, concurrency)
        return got

    def training_time(self, gpu: GpuSpec, layout: Layout, scale_out: str, traced: bool = True) -> Any:
        """tools.compute's training time; `traced=False` for the sweep (same numbers, no trace steps)."""
        key = (
            self.time_sig,
            gpu.id,
            layout.n_gpus,
            layout.gpus_per_node,
            scale_out,
            layout.sharding,
            layout.tp,
            layout.pp,
        )
        cache = self._time_cache if traced else self.caches.time_untraced
        if key not in cache:
            s = self.s
            cache[key] = compute_training.estimate_training_time(
                active_params=s.active_params or self.w.params_for_flops,
                tokens=self.w.training_tokens,
                method=self.method,  # type: ignore[arg-type]
                grad_checkpointing=True,
                gpu=gpu,
                n_gpus=layout.n_gpus,
                precision="fp8" if self.p.precision == "fp8" else "bf16",
                mfu_range=s.mfu,
                flops_factor=s.flops_factor,
                gpus_per_node=layout.gpus_per_node,
                scale_out=scale_out,  # type: ignore[arg-type]
                qlora_slowdown=s.qlora_slowdown,
                arch=self.w.arch if s.attention_flops else None,
                # the memory estimate's sequence length (stated, else the default), so the attention
                # and small-batch factors apply to an unstated one too (issue 13)
                seq_len=(self.p.seq_len or SEQ_LEN_DEFAULT) if s.attention_flops else None,
                framework=self.p.framework,
                batch_size=self._stated_batch_size,
                # the layout's parallelism: pipeline bubble for PP, weight-gather cap for ZeRO-3/FSDP
                sharding=layout.sharding,  # type: ignore[arg-type]
                tensor_parallel=layout.tp,
                pipeline_stages=layout.pp,
                total_params=float(self.w.arch.param_count()) if self.w.arch is not None else None,
                training_objective=self.p.training_objective,
                precompute_ref_log_probs=bool(self.p.ref_log_probs_precomputed),
                traced=traced,
            )
        return cache[key]

    def serving_lengths(self) -> tuple[int, int]:
        """(prompt, output) tokens per request: stated, else the common benchmark shape, the prompt
        capped so prompt + output stays within the context length."""
        p = self.p
        output = p.output_tokens or OUTPUT_TOKENS_DEFAULT
        ctx = p.context_len or (PROMPT_TOKENS_DEFAULT + output)
        prompt = p.prompt_tokens or max(1, min(PROMPT_TOKENS_DEFAULT, ctx - output))
        return prompt, output

    def serving(
        self, gpu: GpuSpec, n: int, concurrency: int, traced: bool = False, pp: int = 1, dp: int = 1
    ) -> Any:
        """tools.compute.serving's time of one replica of `n` GPUs (`pp` pipeline stages, one per node)
        at `concurrency` requests; with `dp` > 1 the replica is that many engine copies of n / dp GPUs,
        the requests split evenly (tools.compute.serving_copies)."""
        key = ("serving", self.time_sig, gpu.id, n, pp, dp, concurrency, traced)
        cache = self._time_cache if traced else self.caches.time_untraced
        if key in cache:
            return cache[key]
        if dp > 1:
            one = self.serving(gpu, n // dp, -(-concurrency // dp), traced, pp)
            cache[key] = engine_copies(one, dp, concurrency)
            return cache[key]
        if key not in cache:
            prompt, output = self.serving_lengths()
            cache[key] = compute_serving.estimate_serving_time(
                arch=self.w.arch,
                gpu=gpu,
                n_gpus=n,
                precision=self.p.precision or "bf16",
                kv_precision=self.p.kv_cache_precision,
                concurrency=concurrency,
                prompt_tokens=prompt,
                output_tokens=output,
                traced=traced,
                pipeline_stages=pp,
            )
        return cache[key]

    def topology(
        self, gpu: GpuSpec, layout: Layout, peak_gib: float, scale_out: str, traced: bool = True
    ) -> Any:
        """tools.topology's plan; `traced=False` for the sweep (the same plan, no trace steps)."""
        key = (
            gpu.id,
            layout.gpus_per_node,
            layout.n_gpus,
            scale_out,
            layout.sharding,
            layout.tp,
            layout.pp,
            self.method,
            peak_gib,
            self.weights_total_gib,
        )
        cache = self._topo_cache if traced else self.caches.topology_untraced
        if key not in cache:
            cache[key] = topology_mod.plan_topology(
                gpu=gpu,
                gpus_per_node=layout.gpus_per_node,
                n_gpus=layout.n_gpus,
                peak_gib_per_gpu=peak_gib,
                weights_gib_total=self.weights_total_gib,
                method=self.method,  # type: ignore[arg-type]
                scale_out=scale_out,  # type: ignore[arg-type]
                tp=layout.tp,
                pp=layout.pp,
                sharding=layout.sharding,  # type: ignore[arg-type]
                traced=traced,
            )
        return cache[key]

    def prefilter_memory(self, layout: Layout) -> Any:
        """The memory a layout must hold to be considered at all. Training: the job's peak. Serving: the
        weights and the KV cache of one request; a replica carries its share of the users, and the
        serving plan's replica count decides how many replicas hold them (within the serving model's KV
        cap), its memory then checked at that per-replica load (tools.recommend.enumerate). Sizing every
        replica for the whole stated concurrency admitted only layouts that hold all users on one replica
        (issue 14 / expert review 10, R04: 2,000 users x 4,096 tokens x 128 KiB = 1 TB per replica)."""
        return self.serving_memory(layout, 1) if self.inference else self.mem.get(layout)

    def fit_layout(self, gpu: GpuSpec, gpn: int, nodes: int) -> tuple[Layout, Any, MemoryFit] | None:
        """First layout (in order of preference) whose per-GPU peak fits with headroom (prefilter_memory)."""
        return next(iter(self.fit_layouts(gpu, gpn, nodes)), None)

    def fit_layouts(self, gpu: GpuSpec, gpn: int, nodes: int) -> list[tuple[Layout, Any, MemoryFit]]:
        """Every layout (in order of preference) whose per-GPU peak fits with headroom (prefilter_memory)."""
        found: list[tuple[Layout, Any, MemoryFit]] = []
        for layout in self.layouts(gpn, nodes):
            est = self.prefilter_memory(layout)
            key = (self.mem_sig, gpu.id, self.headroom, layout, self.inference)
            fit = self.caches.fit.get(key)
            if fit is None:
                fit = self.caches.fit[key] = memory_fit(est, gpu, self.headroom, layout.sharding)
            if fit.fits:
                found.append((layout, est, fit))
                if not self.inference:  # training keeps the first: its layouts are fallbacks
                    break
        return found

    def layouts(self, gpn: int, nodes: int) -> list[Layout]:
        """tools.recommend.candidates.layouts_for, once per count in a run (read-only lists)."""
        got = self._layouts.get((gpn, nodes))
        if got is None:
            got = self._layouts[(gpn, nodes)] = layouts_for(self.w, gpn, nodes)
        return got

    def topology_summary(self, plan: Any, scale_out: str) -> TopologySummary:
        """tools.recommend.candidates.topology_summary, once per plan. Keyed by the plan's id, and the entry
        holds the plan itself: while it is cached no other object can take that id (caches may be shared)."""
        key = (id(plan), scale_out)
        got = self.caches.topology_summary.get(key)
        if got is None or got[0] is not plan:
            got = self.caches.topology_summary[key] = (plan, topology_summary(plan, scale_out))
        return got[1]

    def smallest_peak(self, gpu: GpuSpec, pairs: Iterable[tuple[int, int]]) -> tuple[float, Layout]:
        """The smallest per-GPU need (tools.recommend.memory_rule.need_gib) over the counts `pairs`."""
        best: tuple[float, Layout] | None = None
        for gpn, nodes in pairs:
            for layout in layouts_for(self.w, gpn, nodes):
                peak = memory_rule.need_gib(self.prefilter_memory(layout))
                if best is None or peak < best[0]:
                    best = (peak, layout)
        assert best is not None
        return best
