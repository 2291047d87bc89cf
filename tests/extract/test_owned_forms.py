"""Owned hardware in the other ways teams write it (advisor/extract/rules_owned_forms.py): labels, a mark
after the card, the machine that holds them, an institution's capacity, a verb of getting, a machine sized
in GPUs, a count in brackets, pasted nvidia-smi / lspci output. Each with near misses that must not read
as owned: rented, a competitor's or a paper's cards, cards sold, a cloud's offer, a need."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tools.profile import WorkloadProfile

Extract = Callable[..., WorkloadProfile]

_SMI = """Here is our nvidia-smi output:
+-----------------------------------------------------------------------------+
| GPU  Name        Persistence-M| Bus-Id        Disp.A | Volatile Uncorr. ECC |
|   0  NVIDIA A100-SXM4-80GB  On | 00000000:07:00.0 Off |                    0 |
|   1  NVIDIA A100-SXM4-80GB  On | 00000000:0B:00.0 Off |                    0 |
|   2  NVIDIA A100-SXM4-80GB  On | 00000000:48:00.0 Off |                    0 |
|   3  NVIDIA A100-SXM4-80GB  On | 00000000:4C:00.0 Off |                    0 |
+-----------------------------------------------------------------------------+
LoRA Llama 3 8B on 100M tokens."""
_SMI_L = "GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-1a2b)\nGPU 1: NVIDIA H100 80GB HBM3 (UUID: GPU-3c4d)\n"
_LSPCI = (
    "lspci | grep -i nvidia\n"
    "01:00.0 VGA compatible controller: NVIDIA Corporation GA102GL [RTX A6000] (rev a1)\n"
    "21:00.0 VGA compatible controller: NVIDIA Corporation GA102GL [RTX A6000] (rev a1)\n"
)


@pytest.mark.parametrize(
    ("text", "gpu", "count"),
    [
        ("Our on-prem box has 8x H200 (owned). We want to LoRA Llama 3 70B.", "h200", 8),
        ("Hardware: 2x A100 80GB (owned, in our server room)", "a100-80gb-sxm", 2),
        ("Our servers: 8 x NVIDIA A100-SXM4-80GB", "a100-80gb-sxm", 8),
        ("My rig: single 3090, 24GB", "rtx-3090", 1),
        ("Owned: 4x H100 PCIe", "h100-pcie", 4),
        ("On prem: 8xH100.", "h100-sxm", 8),
        ("Available hardware:\n- 8x H100 SXM (on-prem)\n- 100 TB NFS", "h100-sxm", 8),
        ("Our university cluster gives us 16 A100 nodes, each with 4 GPUs.", "a100-80gb-sxm", 64),
        ("we have access to 8 A100 80GB on the university cluster", "a100-80gb-sxm", 8),
        ("IT gave us 2 A100s for the project.", "a100-80gb-sxm", 2),
        ("we were allocated 16 H100s on the cluster for this project", "h100-sxm", 16),
        ("I have a pair of 4090s.", "rtx-4090", 2),
        ("We have 2 x 8 H100 nodes.", "h100-sxm", 16),
        ("we have one 8-GPU H100 box", "h100-sxm", 8),
        ("we operate a 64-GPU H100 cluster", "h100-sxm", 64),
        ("Our H100 cluster (64 GPUs) is half idle.", "h100-sxm", 64),
        ("our on-prem H100s (32 of them) are free next week", "h100-sxm", 32),
        ("got 2 4090s at home, want to fine-tune llama 8b", "rtx-4090", 2),
        ("We just bought 8 L40S.", "l40s", 8),
        ("We just took delivery of 8 L40S.", "l40s", 8),
        ("We're sitting on 16 idle A100s.", "a100-80gb-sxm", 16),
        ("We've 8 A100s in house.", "a100-80gb-sxm", 8),
        ("The only hardware I have is two 3090s.", "rtx-3090", 2),
        (_SMI, "a100-80gb-sxm", 4),
        (_SMI_L, "h100-sxm", 2),
        (_LSPCI, "rtx-a6000", 2),
    ],
)
def test_owned_forms(extract: Extract, text: str, gpu: str, count: int) -> None:
    p = extract(text)
    assert (p.owned_gpu, p.owned_gpu_count) == (gpu, count)


@pytest.mark.parametrize(
    "text",
    [
        "8 NVIDIA H100 GPUs are what we need for this.",  # a need, not a table row
        "Hardware: 8x H100 on AWS, on-demand.",  # a label with no owner and a rental
        "Our competitor's cluster has 64 H100s.",
        "Our cloud quota: 8x H100 on GCP.",
        "we have access to 8 H100s on Lambda",  # a cloud's capacity, no institution
        "Lambda gave us 8 H100s for the trial.",
        "Our budget: 8x H100 for a month.",
        "We used to have 8 A100s but sold them.",
        "The paper used 8 A100s for 3 days.",
        "We have 40 engineers and $5M ARR; want to fine-tune on H100s.",
        "we have 8 H100 reserved at CoreWeave on demand",
    ],
)
def test_not_owned(extract: Extract, text: str) -> None:
    assert extract(text).owned_gpu is None


def test_owned_then_a_question_on_them_is_a_claim(extract: Extract) -> None:
    p = extract("Owned: 4x H100 PCIe. Can we finish the LoRA run in 2 days on them?")
    assert (p.claimed_gpu, p.claimed_gpu_count, p.claimed_hours) == ("h100-pcie", 4, 48.0)


@pytest.mark.parametrize(
    "text",
    [
        "We have 4 A100s. Sorry, I meant 2 A100s.",
        "we have 4 a100s, sorry i meant 2",
        "We have 4 A100s in the lab. Make that 2 GPUs, the others are broken.",
    ],
)
def test_a_corrected_owned_count(extract: Extract, text: str) -> None:
    p = extract(text)
    assert (p.owned_gpu, p.owned_gpu_count) == ("a100-80gb-sxm", 2)


@pytest.mark.parametrize(
    "text",
    [
        "We have 4 A100s. Sorry, I meant 2 days, not 3.",  # the correction is of a duration
        "We have 4 A100s. Actually it's 2 H100s we would rent.",  # another card
    ],
)
def test_a_correction_of_something_else_keeps_the_count(extract: Extract, text: str) -> None:
    assert extract(text).owned_gpu_count == 4


@pytest.mark.parametrize(
    ("text", "gpu", "count"),
    [
        ("We have 8 GPUs (A100 80GB) in the basement.", "a100-80gb-sxm", 8),
        ("We have eight GPUs, all A100 40GB.", "a100-40gb-sxm", 8),
        ("our server has 4 GPUs: RTX A6000.", "rtx-a6000", 4),
        ("Our workstation has 4 GPUs, which are RTX A6000s.", "rtx-a6000", 4),
        ("we have A100 x 8 on prem", "a100-80gb-sxm", 8),
        ("Owned:\n- A100 80GB x 4\n- 2 TB RAM", "a100-80gb-sxm", 4),
        ("We have 8 of the 80GB A100s.", "a100-80gb-sxm", 8),
    ],
)
def test_count_and_type_said_apart(extract: Extract, text: str, gpu: str, count: int) -> None:
    p = extract(text)
    assert (p.owned_gpu, p.owned_gpu_count) == (gpu, count)


@pytest.mark.parametrize(
    "text",
    [
        "We have 8 GPUs on order from Dell, A100s.",
        "Our last cluster had 8 GPUs, all V100.",
        "we will have 8 H100s next quarter",
        "We'd need to have 8 H100s for this.",
    ],
)
def test_future_ordered_or_past_cards_are_not_owned(extract: Extract, text: str) -> None:
    assert extract(text).owned_gpu is None


@pytest.mark.parametrize(
    ("text", "gpu", "count"),
    [
        ("we've got 8 H-100s in house", "h100-sxm", 8),
        ("We own 4 RTX-A6000.", "rtx-a6000", 4),
        ("I have an RTX-4090 at home.", "rtx-4090", 1),
    ],
)
def test_hyphenated_gpu_names(extract: Extract, text: str, gpu: str, count: int) -> None:
    p = extract(text)
    assert (p.owned_gpu, p.owned_gpu_count) == (gpu, count)


def test_other_hyphenated_codes_are_no_gpu(extract: Extract) -> None:
    assert extract("We have a B-52 model kit and 2 T-100 forms.").owned_gpu is None


@pytest.mark.parametrize(
    ("text", "gpu", "count"),
    [
        ("We've got an 8-way H100 box.", "h100-sxm", 8),
        ("we have dual 4090s in a workstation", "rtx-4090", 2),
        ("our quad A6000 workstation is free", "rtx-a6000", 4),
        ("I run twin 3090s at home.", "rtx-3090", 2),
        ("two servers with 8 H100 SXM each in our colo", "h100-sxm", 16),
        ("there's a 4090 in my gaming PC", "rtx-4090", 1),
        ("An 8xH100 node is sitting in our datacenter.", "h100-sxm", 8),
        ("we have 8xA100 (40GB)", "a100-40gb-sxm", 8),
        ("we have 8x H100 (40GB)", "h100-sxm", 8),  # no such variant in the catalog: the card read stays
    ],
)
def test_count_words_places_and_memory(extract: Extract, text: str, gpu: str, count: int) -> None:
    p = extract(text)
    assert (p.owned_gpu, p.owned_gpu_count) == (gpu, count)


@pytest.mark.parametrize(
    "text",
    [
        "two servers with 8 H100 SXM each on Lambda would do for us",  # a rental
        "An 8xH100 node is sitting in their datacenter.",
        "The dual 4090 setup from the blog post looks nice.",
    ],
)
def test_places_and_counts_not_ours(extract: Extract, text: str) -> None:
    assert extract(text).owned_gpu is None


@pytest.mark.parametrize(
    ("text", "gpu", "count"),
    [
        ("We have a 2-node 8x H200 cluster in our colo.", "h200", 16),
        ("we have 4 nodes, each with 4x A100 40GB", "a100-40gb-sxm", 16),
        ("8 H100s — ours, paid off last year", "h100-sxm", 8),
    ],
)
def test_nodes_and_dash_marks(extract: Extract, text: str, gpu: str, count: int) -> None:
    p = extract(text)
    assert (p.owned_gpu, p.owned_gpu_count) == (gpu, count)


def test_a_question_on_owned_nodes_is_also_the_claim(extract: Extract) -> None:
    # expert review 6 (R20): "a 2-node 8x H200" held set-up asked about
    p = extract("Full SFT of Qwen2.5 72B on 2B tokens. Is our 2-node 8x H200 cluster enough for this?")
    assert (p.owned_gpu, p.owned_gpu_count) == ("h200", 16)
    assert (p.claimed_gpu, p.claimed_gpu_count) == ("h200", 16)


def test_a_statement_on_owned_nodes_is_no_claim(extract: Extract) -> None:
    p = extract("We have a 2-node 8x H200 cluster in our colo. Full SFT of Qwen2.5 72B on 2B tokens.")
    assert p.owned_gpu == "h200" and p.claimed_gpu is None


@pytest.mark.parametrize(
    ("text", "gpu", "count"),
    [
        ("our lab's 4 A6000s are free next week", "rtx-a6000", 4),
        ("the company's GPU server (4x A100) is idle at night", "a100-80gb-sxm", 4),
        ("own hw: 4x a100", "a100-80gb-sxm", 4),
        ("hardware at hand: 2x 3090", "rtx-3090", 2),
        ("existing fleet of 32 A100s", "a100-80gb-sxm", 32),
        ("We already paid for 8 H100s.", "h100-sxm", 8),
        ("we possess 4 A100s", "a100-80gb-sxm", 4),
        ("The department bought us 4 A6000s.", "rtx-a6000", 4),
        ("Infrastructure we own: a single HGX H100 (8 GPUs)", "h100-sxm", 8),
        # the memory where the catalog's aliases do not put it
        ("We have 8 H100 80GB SXM GPUs on premises.", "h100-sxm", 8),
        ("We have 8 H100 SXM 80GB on premises.", "h100-sxm", 8),
    ],
)
def test_possessives_labels_and_verbs(extract: Extract, text: str, gpu: str, count: int) -> None:
    p = extract(text)
    assert (p.owned_gpu, p.owned_gpu_count) == (gpu, count)


@pytest.mark.parametrize(
    "text",
    [
        "our client's 8 H100s run their own models",
        "Our competitor's GPU server (8x H100) is faster.",
        "the vendor's cluster of 64 H100s",
    ],
)
def test_other_peoples_cards(extract: Extract, text: str) -> None:
    assert extract(text).owned_gpu is None


def test_a_memory_the_card_lacks_is_not_dropped() -> None:
    from advisor.extract.rules_models import resolve_gpu

    assert resolve_gpu("H100 80GB SXM") == "h100-sxm"
    assert resolve_gpu("H100 40GB") != "h100-sxm"  # no 40 GB H100 in the catalog: not silently the 80 GB


def test_a_count_corrected_in_a_later_turn(extract: Extract) -> None:
    first = extract("We have 4 A100s in the lab. LoRA Llama 3 8B on 100M tokens.")
    assert extract("sorry, I meant 2 A100s", first).owned_gpu_count == 2
    assert extract("sorry, I meant 2 days", first).owned_gpu_count == 4  # another quantity


_TABLE = (
    "Our current inventory:\n\n| Hardware | Qty | Ownership |\n|---|---|---|\n| A100 80GB | 4 | owned |\n"
    "| H100 | 8 | rented (Lambda) |\n\nWe want to LoRA Llama 3 70B."
)


@pytest.mark.parametrize(
    "text",
    [_TABLE, "| GPU | count | where |\n|---|---|---|\n| A100 80GB | 4 | our rack |"],
)
def test_a_hardware_table(extract: Extract, text: str) -> None:
    p = extract(text)
    assert (p.owned_gpu, p.owned_gpu_count) == ("a100-80gb-sxm", 4)


@pytest.mark.parametrize(
    "text",
    [
        "Options we are weighing:\n\n| GPU | Qty | Provider |\n|---|---|---|\n| H100 | 8 | Lambda |",
        "| GPU | Qty | Status |\n|---|---|---|\n| H100 | 8 | rented |",
    ],
)
def test_a_table_of_rentals_is_not_owned(extract: Extract, text: str) -> None:
    assert extract(text).owned_gpu is None


def test_a_partition_of_unsaid_size_gives_the_type_only(extract: Extract) -> None:
    # evals v7: "an allocation of 25,000 GPU-hours on the university's A100 partition"
    p = extract("The group has an allocation of 25,000 GPU-hours on the university's A100 partition.")
    assert p.owned_gpu == "a100-80gb-sxm" and p.owned_gpu_count is None
