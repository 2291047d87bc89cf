"""What does fit on named cards a full fine-tune overflows: LoRA (a 16-bit frozen base) and QLoRA (a 4-bit
NF4 base, Dettmers et al. 2023, arXiv:2305.14314) on the same cards and layout, from tools.memory through
the engine's calculators (expert review 15, R04: "a vendor told us we can do a full fine-tune of a 7B model
on a single 24GB RTX 4090" is answered "No" with what does fit on one 4090)."""

from __future__ import annotations

from tools.catalog.schema import GpuSpec
from tools.defaults import ResolvedWorkload
from tools.errors import InputError
from tools.recommend.candidates import Layout, memory_fit
from tools.recommend.models import RecommendSettings
from tools.recommend.outcome import Outcome

_LIGHTER = (("lora", "LoRA"), ("qlora", "QLoRA (a 4-bit base)"))


def lighter_method_text(
    w: ResolvedWorkload, gpu: GpuSpec, layout: Layout, settings: RecommendSettings, outcome: Outcome
) -> str:
    """' What does fit on it: LoRA, 17.9 GiB per GPU; ...' for a full fine-tune that does not fit `layout`
    on `gpu`; '' when neither fits or the method is not a full fine-tune."""
    if w.profile.method != "full" or w.profile.workload != "fine_tuning":
        return ""
    said: list[str] = []
    for method, name in _LIGHTER:
        try:
            est = outcome.engine.calc.memory_with_method(layout, method)
        except (InputError, ValueError):  # a precision the method cannot train on
            continue
        fit = memory_fit(est, gpu, settings.headroom_fraction, layout.sharding)
        if fit.fits:
            said.append(f"{name}, {fit.peak_gib_per_gpu:.1f} GiB per GPU")
    on = "it" if layout.n_gpus == 1 else "them"
    return f" What does fit on {on}: {'; '.join(said)}." if said else ""
