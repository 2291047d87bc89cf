"""The memory simulator on small architectures (about a second per run): exact accounting checks and
agreement with the analytic estimate."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable

import pytest

from tools.catalog.schema import ModelArch
from tools.errors import InputError
from tools.units import BYTES_PER_GIB

pytest.importorskip("torch")
pytest.importorskip("transformers")
pytest.importorskip("peft")

from advisor.simulate import SimulationResult, simulate_training_memory  # noqa: E402

# Besides the parameters, a model holds buffers (the rotary inv_freq table: head_dim / 2 fp32 values)
# and AdamW holds one scalar `step` tensor per parameter tensor: a few hundred bytes in all here.
SMALL_EXTRA_BYTES = 4096


def _bytes(gib: float) -> float:
    return gib * BYTES_PER_GIB  # exact: bytes / 2**30 round-trips in binary floating point


def _start(result: SimulationResult, step: int, phase: str) -> float:
    """Live bytes when `phase` of `step` began."""
    for p in result.step_phase_peaks:
        if (p.step, p.phase) == (step, phase):
            return _bytes(p.start_gib)
    raise AssertionError(f"no phase {phase} in step {step}")


@pytest.fixture(scope="module")
def full_mixed(tiny: ModelArch) -> SimulationResult:
    return simulate_training_memory(arch=tiny, method="full", training_precision="mixed", seq_len=128)


@pytest.fixture(scope="module")
def full_bf16(tiny: ModelArch) -> SimulationResult:
    return simulate_training_memory(arch=tiny, method="full", training_precision="pure-bf16", seq_len=128)


@pytest.fixture(scope="module")
def lora_mixed(tiny: ModelArch) -> SimulationResult:
    return simulate_training_memory(arch=tiny, method="lora", lora_rank=8, seq_len=128)


# ---- exact accounting ------------------------------------------------------------------------
def test_built_model_has_the_catalog_parameter_count(tiny: ModelArch, full_mixed: SimulationResult) -> None:
    assert full_mixed.params == tiny.param_count() == full_mixed.params_catalog


@pytest.mark.parametrize(("fixture", "bytes_per_param"), [("full_mixed", 4), ("full_bf16", 2)])
def test_weights_phase_is_params_times_bytes(
    request: pytest.FixtureRequest, tiny: ModelArch, fixture: str, bytes_per_param: int
) -> None:
    result: SimulationResult = request.getfixturevalue(fixture)
    weights = _start(result, 1, "forward")  # model and optimizer built, nothing run yet
    expected = tiny.param_count() * bytes_per_param
    assert expected <= weights <= expected + SMALL_EXTRA_BYTES


@pytest.mark.parametrize(
    ("fixture", "weight_bytes", "state_bytes"), [("full_mixed", 4, 8), ("full_bf16", 2, 4)]
)
def test_adam_state_after_step_one_is_two_states_per_param(
    request: pytest.FixtureRequest, tiny: ModelArch, fixture: str, weight_bytes: int, state_bytes: int
) -> None:
    result: SimulationResult = request.getfixturevalue(fixture)
    # gradients were freed by zero_grad(set_to_none=True): what is left is weights + m + v
    live = _start(result, 2, "forward")
    expected = tiny.param_count() * (weight_bytes + state_bytes)
    assert expected <= live <= expected + 2 * SMALL_EXTRA_BYTES
    assert result.breakdown_at_peak_gib["optimizer"] * BYTES_PER_GIB >= tiny.param_count() * state_bytes


def test_tied_embeddings_stay_tied(tiny_tied: ModelArch) -> None:
    result = simulate_training_memory(arch=tiny_tied, method="full", seq_len=64, steps=1)
    assert result.params == tiny_tied.param_count()  # one vocab x hidden matrix, not two
    weights = _start(result, 1, "forward")
    assert weights <= tiny_tied.param_count() * 4 + SMALL_EXTRA_BYTES


def test_lora_trains_exactly_the_adapters_the_analytic_model_counts(
    tiny: ModelArch, lora_mixed: SimulationResult
) -> None:
    from tools.memory import lora_param_count, resolve_lora_targets

    targets = resolve_lora_targets(tiny, "all-linear")
    assert lora_mixed.trainable_params == lora_param_count(tiny, rank=8, targets=targets)
    # frozen bf16 base + fp32 adapters (peft autocast_adapter_dtype) before the first step
    expected = tiny.param_count() * 2 + lora_mixed.trainable_params * 4
    assert expected <= _start(lora_mixed, 1, "forward") <= expected + SMALL_EXTRA_BYTES


def test_allocator_rounding_and_cuda_lines_add_up(full_mixed: SimulationResult) -> None:
    assert full_mixed.peak_allocated_gib >= full_mixed.peak_tensor_gib
    names = [line.name for line in full_mixed.cuda_lines]
    assert any("context" in n for n in names) and any("cuBLAS" in n for n in names)
    assert all(line.source for line in full_mixed.cuda_lines)
    assert full_mixed.total_gib == pytest.approx(full_mixed.peak_tensor_gib + full_mixed.cuda_extra_gib)
    assert {a.name for a in full_mixed.assumptions} >= {
        "cuda_context_gib",
        "allocator_fragmentation_fraction",
    }


def test_peak_is_reported_per_phase(full_mixed: SimulationResult) -> None:
    assert set(full_mixed.phase_peaks_gib) == {"weights", "forward", "backward", "optimizer"}
    assert full_mixed.peak_tensor_gib == pytest.approx(max(full_mixed.phase_peaks_gib.values()))
    assert full_mixed.peak_step in (1, 2)


# ---- behaviour that must show up -------------------------------------------------------------
def test_checkpointing_lowers_the_peak(tiny: ModelArch) -> None:
    kw = {"arch": tiny, "method": "lora", "seq_len": 1024, "batch_size": 2, "steps": 1}
    on = simulate_training_memory(grad_checkpointing=True, **kw)  # type: ignore[arg-type]
    off = simulate_training_memory(grad_checkpointing=False, **kw)  # type: ignore[arg-type]
    assert on.peak_tensor_gib < off.peak_tensor_gib


def test_eager_attention_keeps_the_score_matrix(tiny: ModelArch) -> None:
    kw = {"arch": tiny, "method": "lora", "seq_len": 512, "grad_checkpointing": False, "steps": 1}
    sdpa = simulate_training_memory(attention="sdpa", **kw)  # type: ignore[arg-type]
    eager = simulate_training_memory(attention="eager", **kw)  # type: ignore[arg-type]
    # 2 layers x 4 heads x 512^2 scores x (2 B bf16 probabilities kept) at least
    assert _bytes(eager.peak_tensor_gib - sdpa.peak_tensor_gib) >= 2 * 4 * 512**2 * 2


def test_moe_runs_with_grouped_experts(tiny_moe: ModelArch) -> None:
    result = simulate_training_memory(
        arch=tiny_moe, method="full", training_precision="pure-bf16", seq_len=64
    )
    assert result.params == tiny_moe.param_count()
    assert _start(result, 1, "forward") <= tiny_moe.param_count() * 2 + SMALL_EXTRA_BYTES


def test_moe_full_mixed_is_refused_with_a_way_out(tiny_moe: ModelArch) -> None:
    with pytest.raises(InputError, match="pure-bf16"):
        simulate_training_memory(arch=tiny_moe, method="full", training_precision="mixed", seq_len=64)


def test_deepseek_mla_and_shared_experts_build_to_the_catalog_count(
    arch_factory: Callable[..., ModelArch],
) -> None:
    arch = arch_factory(
        id="tiny-deepseek", family="deepseek_v3", hf_architecture="DeepseekV3ForCausalLM", n_layers=3,
        first_dense_layers=1, n_experts=8, n_active_experts=2, moe_intermediate_size=128, n_shared_experts=1,
        q_lora_rank=64, kv_lora_rank=32, qk_rope_head_dim=16, qk_nope_head_dim=32, v_head_dim=32,
        n_heads=4, n_kv_heads=4, head_dim=48,
    )  # fmt: skip
    result = simulate_training_memory(arch=arch, method="full", training_precision="pure-bf16", seq_len=64)
    assert result.params == arch.param_count()


# ---- agreement with the analytic estimate ------------------------------------------------------
# Tolerance 15%: on this 2-layer toy the norms, residual stream and logits weigh more than in a real
# model, where the analytic estimate lands within a few % of the simulator (bench/accuracy_sim.py).
# Checkpointed runs are used because the per-layer activation count of the analytic model is the
# part still being calibrated (see /work/h7_findings.md); model states must agree regardless.
@pytest.mark.parametrize(
    ("method", "precision"), [("full", "mixed"), ("full", "pure-bf16"), ("lora", "mixed")]
)
def test_analytic_estimate_within_tolerance_of_simulator(
    tiny: ModelArch, method: str, precision: str
) -> None:
    from tools.memory import estimate_memory

    kw = {"seq_len": 256, "batch_size": 2, "grad_checkpointing": True}
    sim = simulate_training_memory(arch=tiny, method=method, training_precision=precision, **kw)  # type: ignore[arg-type]
    est = estimate_memory(arch=tiny, method=method, training_precision=precision, **kw)  # type: ignore[arg-type]
    assert est.peak_allocated_gib() == pytest.approx(sim.peak_allocated_gib, rel=0.15)


@pytest.mark.slow
def test_full_size_8b_lora_runs_and_agrees_with_the_analytic_estimate() -> None:
    """Llama-3.1-8B LoRA r16 all-linear, seq 2048, bs 1, checkpointing: ~10-15 s on 2 CPU cores."""
    from tools.catalog.load import load_catalog
    from tools.memory import estimate_memory

    arch = load_catalog().model("llama-3.1-8b")
    sim = simulate_training_memory(arch=arch, method="lora", seq_len=2048)
    est = estimate_memory(arch=arch, method="lora", seq_len=2048)
    assert sim.params == arch.param_count() + sim.trainable_params
    assert est.peak_allocated_gib() == pytest.approx(sim.peak_allocated_gib, rel=0.10)


# ---- errors and import hygiene ---------------------------------------------------------------
@pytest.mark.parametrize(
    ("kw", "match"),
    [
        ({"method": "qlora"}, "QLoRA"),
        ({"optimizer": "adamw-8bit"}, "8-bit"),
        ({"seq_len": 1}, "seq_len"),
        ({"method": "lora", "lora_targets": " , "}, "empty"),
    ],
)
def test_unsupported_settings_are_user_errors(tiny: ModelArch, kw: dict[str, object], match: str) -> None:
    with pytest.raises(InputError, match=match):
        simulate_training_memory(arch=tiny, **kw)  # type: ignore[arg-type]


def test_importing_the_package_does_not_import_torch() -> None:
    code = "import sys, advisor.simulate; print('torch' in sys.modules, 'transformers' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False False"
