"""Issue 12, ext22's six reading gaps: each a fact silently dropped or misread by the offline extractor.

1. a GPU count the team asks for in chat ("We want 16 H100 SXM GPUs") is the most GPUs (rules_procurement);
2. a margin before the deadline ("two weeks for QA before the deadline") is no deadline; with one stated, the
   job must finish that much earlier (rules_deadline_margin);
3. the hardware's delivery date ("delivery by 1 March") is when the job can start, not its deadline;
4. a numbered list's markers ("1.", "2)") are not listed as sentences with no workload facts (accounting);
5. an owned-GPU inventory pasted as a Markdown table counts every row in service (rules_inventory_csv);
6. a requirement ("It has to be GCP.") replaces a contradicting earlier preference (withdrawn_choice).
Each: the issue's phrasing, two variants written the way teams write, and a near miss that must not match.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from advisor.conversation import Conversation
from advisor.extract.accounting import account_for
from tools.profile import WorkloadProfile

Extract = Callable[..., WorkloadProfile]
JOB = "Fine-tune Llama 3 8B with LoRA on 500M tokens. "
DEC_20_HOURS = 32 * 24 + 15  # to the end of Sun 20 Dec 2026 from the fixture's clock (Wed 18 Nov 09:00 UTC)
WEEK_HOURS = 168  # 7 days x 24 h


# --------------------------------------------------------------------------- 1. a GPU count asked for
@pytest.mark.parametrize(
    ("text", "wanted", "count"),
    [
        ("We want 16 H100 SXM GPUs.", ["h100-sxm"], 16),
        ("We'd like to rent 8x H200 for this.", ["h200"], 8),
        ("Looking for 32 H100 SXM, ideally in one region.", ["h100-sxm"], 32),
    ],
)
def test_a_gpu_count_asked_for_is_the_most_gpus(
    extract: Extract, text: str, wanted: list[str], count: int
) -> None:
    p = extract(JOB + text)
    assert (p.gpus_wanted, p.max_gpus) == (wanted, count)
    assert "the count you asked for" in (p.provenance["max_gpus"].evidence or "")  # how it is used


@pytest.mark.parametrize(
    "text",
    [
        "We have 16 H100 SXM GPUs.",  # owned, not asked for
        "Do we need 16 H100s?",  # a question about the count (a claim)
        "We want 16 GB of headroom per GPU.",  # a quantity of something else
        "I like 8 H100s better than 4 H200s.",  # a taste, no ask
    ],
)
def test_near_misses_are_no_count_asked_for(extract: Extract, text: str) -> None:
    assert extract(JOB + text).max_gpus is None


def test_the_reply_names_the_count_asked_for() -> None:
    reply = Conversation(explain=False).send(JOB + "We want 16 H100 SXM GPUs.").reply
    assert "most GPUs 16" in reply


# --------------------------------------------------------------------------- 2. a margin before the deadline
@pytest.mark.parametrize(
    ("text", "margin_hours"),
    [
        ("We need two weeks for QA before the deadline.", 2 * WEEK_HOURS),
        ("Leave a week of buffer ahead of the deadline.", WEEK_HOURS),
        ("Keep 3 days for evaluation and sign-off prior to the due date.", 3 * 24),
    ],
)
def test_a_margin_moves_the_deadline_earlier(extract: Extract, text: str, margin_hours: int) -> None:
    p = extract(JOB + "The deadline is 20 December. " + text)
    assert p.deadline_hours == pytest.approx(DEC_20_HOURS - margin_hours, abs=1)


def test_a_margin_in_a_later_turn_moves_the_earlier_deadline(extract: Extract) -> None:
    before = extract(JOB + "The deadline is 20 December.")
    p = extract("Oh, and we need two weeks for QA before the deadline.", before)
    assert p.deadline_hours == pytest.approx(DEC_20_HOURS - 2 * WEEK_HOURS, abs=1)


def test_a_margin_with_no_deadline_is_no_deadline(extract: Extract) -> None:
    p = extract(JOB + "We need two weeks for QA before the deadline.")
    assert p.deadline_hours is None  # it was 336 h from now
    unused = [c.text for c in account_for(JOB + "We need two weeks for QA before the deadline.", p).unused]
    assert any("two weeks for QA" in t for t in unused)  # named as not used, not dropped


def test_time_left_before_the_deadline_is_a_deadline(extract: Extract) -> None:
    # near miss: no purpose ("for QA"): the two weeks are the time left
    assert extract(JOB + "We have two weeks before the deadline.").deadline_hours == 2 * WEEK_HOURS


# --------------------------------------------------------------------------- 3. the hardware's delivery date
@pytest.mark.parametrize(
    "text",
    [
        "Capacity: 16 H100 SXM, delivery by 1 March.",
        "The cluster arrives on 1 March.",
        "The vendor shall deliver the capacity no later than 1 March 2027.",
    ],
)
def test_a_delivery_date_is_no_deadline(extract: Extract, text: str) -> None:
    assert extract(JOB + text).deadline_hours is None
    # with the job's own deadline beside it, that deadline stands
    p = extract(JOB + text + " Training must finish by 20 December.")
    assert p.deadline_hours == pytest.approx(DEC_20_HOURS, abs=1)


def test_a_model_delivered_by_a_date_is_the_deadline(extract: Extract) -> None:
    # near miss: no hardware word: the work product is due then
    p = extract(JOB + "The fine-tuned model must be delivered by 20 December.")
    assert p.deadline_hours == pytest.approx(DEC_20_HOURS, abs=1)


# --------------------------------------------------------------------------- 4. list markers
@pytest.mark.parametrize(
    "text",
    [
        "Our plan:\n\n1. Fine-tune Llama 3 8B with LoRA on 500M tokens.\n2. Budget is $2,000.\n",
        "Plan:\n1) Fine-tune Llama 3 8B with LoRA on 500M tokens.\n2) The deadline is 20 December.\n",
        "Steps\n\na. Fine-tune Llama 3 8B with LoRA on 500M tokens.\nb. Budget is $2,000.\n",
    ],
)
def test_list_markers_are_not_unused_sentences(extract: Extract, text: str) -> None:
    unused = [c.text for c in account_for(text, extract(text)).unused]
    assert not any(t.strip("().") in {"1", "2", "a", "b"} for t in unused), unused


def test_a_bare_number_line_is_still_accounted(extract: Extract) -> None:
    # near miss: a number with no list punctuation is a value, not a marker
    text = JOB + "\nRetries allowed:\n3\n"
    unused = [c.text for c in account_for(text, extract(text)).unused]
    assert any("3" in t for t in unused), unused


# --------------------------------------------------------------------------- 5. an inventory as a pipe table
PIPE = """Here is what we own:
| host | gpu | count | status |
|---|---|---|---|
| gpu-a | H100 SXM | 8 | in service |
| gpu-b | H100 SXM | 8 | in service |
| gpu-c | H100 SXM | 8 | decommissioned |

We want to fine-tune Llama 3 70B with LoRA on 1B tokens.
"""
ASSET_PIPE = """LoRA fine-tune Llama 3 8B on 50M tokens. Asset register (our GPU servers):

| asset_id | gpu_model | gpu_count | lifecycle |
|:--|:--|--:|:--|
| AST-1 | A100 80GB | 8 | active |
| AST-2 | A100 80GB | 4 | active |
| AST-3 | V100 32GB | 4 | retired |
"""
FLEET_PIPE = """Our fleet, from the CMDB:

| hostname | model | qty | state |
| --- | --- | --- | --- |
| dgx-1 | H100 SXM | 8 | production |
| dgx-2 | H100 SXM | 8 | RMA |
| dgx-3 | H100 SXM | 8 | production |

Pretrain a 7B model on 100B tokens.
"""


@pytest.mark.parametrize(
    ("text", "gpu", "count"),
    [(PIPE, "h100-sxm", 16), (ASSET_PIPE, "a100-80gb", 12), (FLEET_PIPE, "h100-sxm", 16)],
)
def test_a_pipe_table_inventory_counts_every_row_in_service(
    extract: Extract, text: str, gpu: str, count: int
) -> None:
    p = extract(text)
    assert p.owned_gpu is not None and p.owned_gpu.startswith(gpu)
    assert p.owned_gpu_count == count
    unused = [c.text for c in account_for(text, p).unused]
    assert not any("H100" in t or "A100" in t for t in unused), unused  # the rows are read, not listed


def test_a_providers_price_table_is_not_owned(extract: Extract) -> None:
    # near miss: the same shape, but a provider's offer (no word saying it is the team's)
    table = "| sku | gpu | count | status |\n|---|---|---|---|\n| q-1 | H100 SXM | 8 | available |\n"
    text = JOB + "\nProvider quote:\n" + table
    assert extract(text).owned_gpu_count is None


# ----------------------------------------------------------------------- 6. a requirement over a preference
@pytest.mark.parametrize(
    ("text", "required"),
    [
        ("We'd prefer Nebius. It has to be GCP.", "gcp"),
        ("Nebius would be our first choice. Hard requirement: Azure only.", "azure"),
        ("Ideally Lambda. Compliance says we must use AWS.", "aws"),
    ],
)
def test_a_requirement_replaces_an_earlier_preference(extract: Extract, text: str, required: str) -> None:
    p = extract(JOB + text)
    assert p.providers_required == [required]
    assert p.providers_preferred == [required]


def test_a_requirement_in_a_later_turn_replaces_the_preference(extract: Extract) -> None:
    p = extract("It has to be GCP.", extract(JOB + "We'd prefer Nebius."))
    assert (p.providers_required, p.providers_preferred) == (["gcp"], ["gcp"])


def test_a_preference_inside_the_requirement_stays(extract: Extract) -> None:
    # near miss: the requirement includes the preferred provider: no contradiction
    p = extract(JOB + "We prefer GCP. It has to be on AWS or GCP.")
    assert "gcp" in p.providers_preferred and set(p.providers_required) == {"aws", "gcp"}
