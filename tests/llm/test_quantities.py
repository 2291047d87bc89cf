"""The replies check attaches each number to its quantity: right value, wrong thing fails."""

from __future__ import annotations

from advisor.llm.numbers import AllowedNumbers, extract_numbers
from advisor.llm.testing import sample_recommendation
from tools.profile import WorkloadProfile

OPTION = {
    "gpu": "h100-sxm", "total_gpus": 1, "gpus_per_node": 1, "nodes": 1, "batch_size": 8,
    "vram_gib_per_gpu": 80.0, "peak_gib_per_gpu": 47.0, "headroom_gib": 33.0,
    "cost_usd": {"low": 1064.2, "high": 1862.0}, "wall_hours": {"low": 427.0, "high": 748.0},
}  # fmt: skip


def allowed() -> AllowedNumbers:
    a = AllowedNumbers()
    a.add_tool_result(OPTION)
    a.add_user_text("QLoRA Llama 3 70B on 2B tokens, 8 epochs")
    return a


def test_a_gpu_count_must_be_a_gpu_count() -> None:
    a = allowed()
    assert a.check("It runs on 1 GPU (an H100 SXM).").ok
    bad = a.check("It runs on 8 GPUs.")  # 8 is a batch size and the user's epochs, not a GPU count
    assert not bad.ok and bad.unsupported == ("8 (no GPU count of that value)",)
    assert not a.check("Rent 8x H100 for it.").ok


def test_free_memory_is_not_total_memory() -> None:
    a = allowed()
    assert a.check("The peak is 47 GiB of the 80 GiB total, leaving 33 GiB free.").ok
    assert not a.check("That leaves 33 GiB of total usable memory.").ok
    assert not a.check("You have 80 GiB free.").ok


def test_money_time_and_tokens_keep_their_quantity() -> None:
    a = allowed()
    assert a.check("It costs $1,064 to $1,862 and takes 427 to 748 hours on 2B tokens.").ok
    assert not a.check("It costs $427.").ok  # an hour count shown as dollars
    assert not a.check("It takes 1,064 hours.").ok  # a cost shown as hours
    assert not a.check("It reads 8 tokens per step.").ok  # epochs are not a token count


def test_numbers_without_a_named_quantity_are_checked_by_value_only() -> None:
    a = allowed()
    assert a.check("Plan 8 passes; it is 5x the memory of LoRA.").ok is False  # 5 is no allowed value
    assert a.check("Plan 8 passes over the data.").ok
    kinds = [m.kind for m in extract_numbers("try, for example, 2k, 4k or 8k tokens")]
    assert kinds == [None, None, None]


def test_a_real_recommendation_tags_its_fields() -> None:
    rec = sample_recommendation(WorkloadProfile(params_b=8, method="qlora"))
    a = AllowedNumbers()
    a.add_tool_result(rec)
    assert a.check("The pick is 1 GPU at $2.49 per GPU-hour.").ok
    assert not a.check("The pick is 2 GPUs.").ok
    assert 1.0 in a.kinds["gpus"] and 79.1 in a.kinds["bytes_total"]
