"""Expert review 11's answers."""

from __future__ import annotations

from advisor.service.profiles import profile_from_mapping
from advisor.service.recommending import recommend_for


def test_lora_stated_in_bf16_on_owned_cards_still_gets_the_qlora_note() -> None:
    """P09b: 'LoRA ... in bf16' on 4 owned RTX 4090s: trying QLoRA on them kept the stated bf16 and raised
    'QLoRA needs a quantised base ... not bf16: use --method lora', so no answer came back at all."""
    profile, settings = profile_from_mapping(
        {"workload": "fine_tuning", "model_id": "llama-3.1-70b", "method": "lora", "precision": "bf16",
         "dataset_tokens": 1e7, "owned_gpu": "rtx-4090", "owned_gpu_count": 4}
    )  # fmt: skip
    rec, _ = recommend_for(profile, settings=settings)
    assert rec.primary is not None
    assert rec.profile.method == "lora" and rec.profile.precision == "bf16"  # the stated method is kept
    assert any(n.startswith("With QLoRA (a 4-bit base) it runs on your 4x") for n in rec.notes)
