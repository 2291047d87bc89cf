"""The memory options a user sets or a framework preset supplies, and where each value came from (issue 15).

tools.memory.estimate_memory takes each option as None (use the framework preset's value,
tools.memory_frameworks.FrameworkMemoryDefaults) or an explicit value (a flag: --chunked-loss,
--peft-fp32-adapters, ...). `OptionPicker` records, per option, the value the plan took and whether it came
from the preset or was given, so the JSON can say so (`memory_options`) and the report can list the options
that differ from the preset as assumptions.
"""

from __future__ import annotations

from typing import Any, Final, TypeVar

from tools import memory_lora
from tools.memory_frameworks import FrameworkMemoryDefaults, framework_defaults
from tools.memory_types import Plan
from tools.trace import TraceBuilder
from tools.vocabulary import FRAMEWORK_DEFAULT

_T = TypeVar("_T", bool, float, str)

PRESET: Final = "framework preset"
FLAG: Final = "flag"

USER_FLAGS: Final[dict[str, str]] = {
    "lora_fp32_adapters": "--peft-fp32-adapters",
    "returns_kv_cache": "--use-cache-in-training",
}
"""Command-line flags whose name is not the option's (tools.sizing_request.CLI_FLAGS takes them)."""


class OptionPicker:
    """Takes each option from the caller or the framework preset, remembering which."""

    def __init__(
        self, framework: str = FRAMEWORK_DEFAULT, preset: FrameworkMemoryDefaults | None = None
    ) -> None:
        self.bind(framework, preset or framework_defaults(framework))
        self.sources: dict[str, str] = {}
        self.preset_values: dict[str, object] = {}
        self.given_values: dict[str, object] = {}

    def bind(self, framework: str, preset: FrameworkMemoryDefaults) -> None:
        """The framework whose preset supplies the values not given (set once its name is checked)."""
        self.framework, self.preset = framework, preset

    def pick(self, name: str, given: _T | None, default: _T | None = None) -> _T:
        """The caller's value, or the preset's attribute `name` (or `default` where the preset has none)."""
        preset_value: Any = getattr(self.preset, name) if default is None else default
        self.preset_values[name] = preset_value
        if given is not None:
            self.sources[name] = FLAG
            self.given_values[name] = given
            return given
        self.sources[name] = PRESET
        return preset_value  # type: ignore[no-any-return]

    def report(self, effective: dict[str, object]) -> dict[str, dict[str, object]]:
        """Per option: the value the plan used (after what applies to the method) and its source."""
        return {
            name: {"value": effective.get(name, self.given_values.get(name)), "source": source}
            for name, source in self.sources.items()
        }

    def assume(self, tb: TraceBuilder, source: str) -> None:
        """One assumption naming every preset default taken (with the preset's source), and one per flag that
        differs from the preset ('memory_option_<name>'), so a report's assumptions list them."""
        used = {k: self.preset_values[k] for k, s in self.sources.items() if s == PRESET}
        if used:
            words = ", ".join(f"{k.replace('_', ' ')} {str(v).lower()}" for k, v in used.items())
            tb.assume("framework_defaults", f"{self.framework} defaults: {words}", "", source)
        for name, value in self.given_values.items():
            if value != self.preset_values[name]:
                flag = USER_FLAGS.get(name, "--" + name.replace("_", "-"))
                tb.assume(
                    f"memory_option_{name}",
                    str(value).lower(),
                    "",
                    f"{flag} given; the {self.framework} preset has {str(self.preset_values[name]).lower()}",
                )


def option_values(plan: Plan) -> dict[str, object]:
    """The value of each option the plan used, after what applies to its method and precision: LoRA dropout
    only with adapters, the fp32 adapters only without autocast on an unquantised base, the quantised-base
    options only on a 4/8-bit base (tools.memory._plan)."""
    return {
        "loss_chunking": plan.loss_chunking,
        "optimizer_in_backward": plan.optimizer_in_backward,
        "optimizer_impl": plan.optimizer_impl,
        "lora_dropout": plan.lora_dropout,
        "activation_offloading": plan.activation_offloading,
        "model_code": "hf" if plan.hf_layer_extras else "plain",
        "loss_upcast": plan.loss_upcast,
        "loss_impl": plan.loss_impl,
        "returns_kv_cache": plan.returns_kv_cache,
        "fp32_unquantized": plan.fp32_unquantized,
        "quant_saves_input": plan.quant_saves_input,
        "fsdp_limit_all_gathers": plan.fsdp_limit_all_gathers or plan.sharding != "fsdp",
        "lora_fp32_adapters": memory_lora.applies(plan),
        "fp8_linears": plan.fp8_linears,
        "fp8_params": plan.fp8_params,
        "grad_reduce_in_fp32": plan.grad_reduce_in_fp32,
    }


__all__ = ["FLAG", "PRESET", "USER_FLAGS", "OptionPicker", "option_values"]
