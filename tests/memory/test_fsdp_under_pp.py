"""FSDP under pipeline parallelism (tools.memory_states.FSDP_UNDER_PP_GRAD_BYTES): each stage stays
unsharded for the step and its gradients accumulate unsharded in fp32 until the last micro-batch. Binds
only for full training with FSDP over several data-parallel ranks and pp > 1."""

from __future__ import annotations

import pytest

from tools.catalog.load import Catalog
from tools.memory import estimate_memory
from tools.memory_states import FSDP_UNDER_PP_GRAD_BYTES


def _est(catalog: Catalog, **over: object):  # type: ignore[no-untyped-def]
    kw: dict[str, object] = dict(
        arch=catalog.model("llama-3.1-70b"), method="pretraining", training_precision="mixed", seq_len=8192,
        batch_size=1, grad_checkpointing=True, gpus=64, tp=8, pp=4, sharding="fsdp", framework="torchtitan",
    )  # fmt: skip
    kw.update(over)
    return estimate_memory(**kw)  # type: ignore[arg-type]


def test_stage_gradients_are_unsharded_fp32_and_live_beside_the_kept_activations(catalog: Catalog) -> None:
    est = _est(catalog)
    stage_params = est.params / 8 / 4  # roughly: ceil(80/4) layers of 80 plus an embedding, over tp
    grads = est.breakdown_gib.gradients * 2**30
    assert grads == pytest.approx(stage_params * FSDP_UNDER_PP_GRAD_BYTES, rel=0.1)
    # the stage's bf16 weights unsharded (2 B/param of the stage) beside the 1/dp shard, not 2 gathered layers
    assert est.breakdown_gib.weights * 2**30 == pytest.approx(stage_params * 2.0 * (1 + 1 / est.dp), rel=0.1)
    assert est.peak_phase == "backward" and est.breakdown_gib.activations > 0


@pytest.mark.parametrize(
    "over",
    [dict(pp=1, gpus=16), dict(sharding="zero1"), dict(method="lora", precision="bf16", framework="hf")],
    ids=["no-pp", "zero1", "lora"],
)
def test_does_not_bind_without_fsdp_full_training_under_pp(catalog: Catalog, over: dict[str, object]) -> None:
    est = _est(catalog, **over)
    stage_params = est.params / est.tp / est.pp
    # 16-bit gradients (sharded or not), or none: never the unsharded fp32 accumulation
    assert est.breakdown_gib.gradients * 2**30 <= 0.55 * stage_params * FSDP_UNDER_PP_GRAD_BYTES


def test_fsdp_root_unit_stays_gathered_where_the_stack_leaves_embeddings_in_it(catalog: Catalog) -> None:
    """FSDP_ROOT_STAYS_UNSHARDED: HF/accelerate and torchtitan keep the embedding + head in the root unit
    (gathered forward to backward); torchtune shards them as their own units; ZeRO-3 and one GPU: no root."""
    arch = catalog.model("llama-2-7b")
    kw: dict[str, object] = dict(
        arch=arch, method="lora", seq_len=2048, batch_size=1, gpus=2, sharding="fsdp", lora_dropout=0.0
    )
    hf = estimate_memory(framework="hf", **kw)  # type: ignore[arg-type]
    tune = estimate_memory(framework="torchtune", training_precision="mixed", **kw)  # type: ignore[arg-type]
    zero3 = estimate_memory(framework="hf", **{**kw, "sharding": "zero3"})  # type: ignore[arg-type]
    root = 2 * arch.vocab_size * arch.hidden_size * 2.0 / 2**30  # untied embedding + head, bf16
    assert hf.breakdown_gib.weights - zero3.breakdown_gib.weights == pytest.approx(root, rel=0.01)
    assert tune.breakdown_gib.weights == pytest.approx(zero3.breakdown_gib.weights, rel=0.01)
    # resharded after the backward: not live at the optimizer step
    assert hf.phase_peaks_gib["optimizer"] < hf.phase_peaks_gib["backward"]
