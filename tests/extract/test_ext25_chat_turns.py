"""A chat log's or a shared pad's turns (advisor/extract/rules_text.py): each person's turn opens its own
paragraph, a timestamped chat is not an auto-transcript's captions, and a turn that asks for a field by its
name is answered by the next turn. The v10/v17 phrasings (development data; issue 12), two variants of our
own each, and a near miss."""

from __future__ import annotations

from collections.abc import Callable

from advisor.extract.rules_text import split_sentences
from tools.profile import WorkloadProfile

Extract = Callable[..., WorkloadProfile]


def _blocks(text: str) -> list[int]:
    return [s.block for s in split_sentences(text).sentences]


# ------------------------------------------------------------------------------- a turn, a paragraph
def test_v17_etherpad_initials_open_a_paragraph_each() -> None:
    text = (
        "=== capacity pad ===\n[MK] We still hold the AWS reservation: 8x H100 (p5)\n"
        "[JS] ^ so the new serving should land there first\n[MK] Workload: Llama 3.1 70B, ~64 chats"
    )
    assert len(set(_blocks(text))) == 4  # the heading and three turns, none run into the next


def test_zoom_chat_and_named_brackets_open_a_paragraph_each() -> None:
    zoom = "From Ana to Everyone 10:04 AM: we need 40 users\nFrom Ben to Everyone 10:05 AM: EU only"
    assert len(set(_blocks(zoom))) == 2
    names = "[Ana Lopez] serve Qwen 2.5 7B\n[Ben] for about 30 users at once"
    assert len(set(_blocks(names))) == 2


def test_a_wrapped_line_is_not_a_turn() -> None:
    wrapped = "We serve Llama 3.1 8B to about forty users and\nwant it in the EU [see note] please"
    assert len(set(_blocks(wrapped))) == 1


def test_turns_keep_their_own_figures(extract: Extract) -> None:
    p = extract(
        "[AK] Serving Llama 3.1 8B, 30 concurrent users.\n[BT] prompts are ~1,000 tokens\n"
        "[AK] answers about 200 tokens"
    )
    assert (p.concurrency, p.prompt_tokens, p.output_tokens) == (30, 1000, 200)


# --------------------------------------------------------------------- a timestamped chat, not captions
def test_v10_timestamped_chat_keeps_its_turns(extract: Extract) -> None:
    p = extract(
        "[10:02] Priya: ok, legal-drafting model, where did we land?\n"
        "[10:03] Tom: full fine-tune of Mistral NeMo, the 12B. Dataset is about 3.2 billion tokens.\n"
        "[10:03] Priya: epochs?\n[10:04] Tom: two. We said one last week but eval loss was still dropping.\n"
    )
    assert p.epochs == 2 and p.method == "full"


def test_captions_without_speakers_still_join() -> None:
    captions = "0:01 we want to serve\n0:03 three hundred\n0:05 and fifty concurrent users"
    assert len(set(_blocks(captions))) == 1


# --------------------------------------------------------------------------- a field asked, answered
def test_field_asked_by_name_is_answered_by_the_next_turn(extract: Extract) -> None:
    p = extract(
        "LoRA fine-tune of Llama 3.1 8B.\nAna: lora rank?\nBen: 32, like last time.\nAna: seq len?\nBen: 4096"
    )
    assert p.lora_rank == 32 and p.seq_len == 4096
    q = extract("LoRA of Qwen 2.5 7B on 20M tokens.\n[MK] epochs?\n[JS] three.")
    assert q.epochs == 3


def test_a_question_in_words_is_not_a_field() -> None:
    text = "Ana: any questions?\nBen: no."
    assert [s.text for s in split_sentences(text).sentences] == ["Ana: any questions?", "Ben: no."]


# ------------------------------------------------------------------ a held term, its GPUs in apposition
def test_v17_reservation_with_its_gpus_after_a_colon(extract: Extract) -> None:
    p = extract("[MK] We still hold the AWS reservation: 8x H100 (p5), 1-year term, 7 months left on it.")
    assert (p.owned_gpu, p.owned_gpu_count, p.owned_provider) == ("h100-sxm", 8, "aws")
    assert p.owned_reserved is True and p.owned_months_left == 7


def test_reservation_with_its_gpus_after_a_comma(extract: Extract) -> None:
    p = extract(
        "Capacity: our GCP committed-use reservation, 16x A100 80GB, 3-year term, 20 months remaining."
    )
    assert (p.owned_gpu, p.owned_gpu_count, p.owned_provider) == ("a100-80gb-sxm", 16, "gcp")
    q = extract("We have the Azure commitment: 4 H100s, 6 months left.")
    assert (q.owned_gpu, q.owned_gpu_count) == ("h100-sxm", 4)


def test_a_reservation_with_months_after_the_comma_holds_no_gpus(extract: Extract) -> None:
    p = extract("Our Azure reservation, 8 months left, is unused.")
    assert p.owned_gpu is None and p.owned_gpu_count is None


# ------------------------------------------------------------- a later turn names the owned card again
def test_v17_owned_count_said_again_in_a_correction(extract: Extract) -> None:
    p = extract("We own 6 L40S in our office rack.")
    p = extract("Sorry, 8 L40S, two more arrived last week. Power is $0.17/kWh.", p)
    assert p.owned_gpu == "l40s" and p.owned_gpu_count == 8


def test_owned_count_said_again_other_wordings(extract: Extract) -> None:
    p = extract("We have 4 A100 80GB in the basement.")
    assert extract("Correction: 6x A100 80GB, I miscounted.", p).owned_gpu_count == 6
    q = extract("Our lab owns 2 RTX 4090.")
    assert extract("Actually 3 RTX 4090 since Monday.", q).owned_gpu_count == 3


def test_another_card_in_a_correction_is_not_a_recount(extract: Extract) -> None:
    p = extract("We own 6 L40S in our office rack.")
    p = extract("Sorry, could 2 H100 be rented on top?", p)
    assert p.owned_gpu_count == 6


# --------------------------------------------------------------- a heading after the last step closes it
def _parts(rules, text: str) -> tuple[dict[str, object], dict[str, object]]:  # type: ignore[no-untyped-def]
    a = rules.analyse(text)
    return {f.field: f.value for f in a.findings}, {f.field: f.value for f in a.other}


def test_v17_conditions_section_after_workload_b_apply_to_both(rules) -> None:  # type: ignore[no-untyped-def]
    training, serving = _parts(
        rules,
        "## 2. Workload A: adaptation (one-off)\n- Model: Mistral Small 24B, LoRA with rank 32.\n"
        "- Data: 50 million tokens of annotated contracts, 2 epochs.\n\n## 3. Workload B: serving (after A)\n"
        "- Up to 150 concurrent conversations at peak.\n\n## 4. Conditions that apply to both workloads\n"
        "1. Hosting and processing in the EU only (GDPR).\n2. No spot or preemptible capacity.\n",
    )
    assert training["eu_only"] is True and training["pricing_excluded"] == ["spot"]
    assert serving["eu_only"] is True and serving["concurrency"] == 150


def test_constraints_heading_after_steps_other_wordings(rules) -> None:  # type: ignore[no-untyped-def]
    training, serving = _parts(
        rules,
        "Step 1: QLoRA of Llama 3.1 70B on 30M tokens.\nStep 2: serve it to 60 users at once.\n\n"
        "# Rules for everything\nAWS only.\n",
    )
    assert training["providers_required"] == ["aws"] and serving["providers_required"] == ["aws"]
    training, serving = _parts(
        rules,
        "Phase A: full fine-tune of Qwen2.5 7B on 200M tokens.\nPhase B: serve it to 40 users at once.\n"
        "### Shared constraints\nNo spot.\n",
    )
    assert training["pricing_excluded"] == ["spot"] and serving["pricing_excluded"] == ["spot"]


def test_a_step_without_a_heading_after_keeps_its_sentences(rules) -> None:  # type: ignore[no-untyped-def]
    training, serving = _parts(
        rules,
        "Step 1: LoRA of Llama 3.1 8B on 20M tokens.\nStep 2: serve it to 60 users at once, under 1 s to the"
        " first token.\n",
    )
    assert serving["ttft_target_s"] == 1 and "ttft_target_s" not in training
