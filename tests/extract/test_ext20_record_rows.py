"""Requests pasted as another tool's record: a SQL INSERT, a command line, a GraphQL/JS object with camelCase
keys; and the values such records and forms hold (a spot yes/no, a TTFT target, 'us-only', concurrent
sequences). Phrasings from evals v16 (development data; issue 12), two variants of our own each, and a near
miss that must not match."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from advisor.extract.record_rows import camel_rows, flag_rows, sql_rows
from tools.profile import WorkloadProfile

Extract = Callable[..., WorkloadProfile]


# ------------------------------------------------------------------------------------------ SQL INSERT
def test_sql_insert_of_a_batch_job(extract: Extract) -> None:
    p = extract(
        "I put the request straight into the queue table, the form was down:\n\n"
        "INSERT INTO compute_requests (team, model, job_type, prompts, output_tokens_each, due_date,\n"
        "                              budget_usd,\n"
        "                              spot_ok, excluded_providers)\n"
        "VALUES ('search-quality', 'meta-llama/Llama-3.1-70B', 'batch_generation', 1200000, 400,\n"
        "        '2026-11-30', 2500, TRUE, '{gcp}');\n"
        "-- last batch (October) cost $3,100 on GCP, which is why GCP is out this time"
    )
    assert p.workload == "inference" and p.generation_tokens == 4.8e8
    assert p.budget_usd == 2500 and p.spot_ok is True and p.providers_excluded == ["gcp"]
    assert p.deadline_hours is not None and 279 <= p.deadline_hours <= 311


def test_mysql_insert_with_backticks(extract: Extract) -> None:
    p = extract(
        "INSERT INTO `gpu_requests` (`model`, `concurrent_users`, `prompt_tokens`, `max_tokens`,"
        " `allow_spot`)"
        " VALUES ('Qwen2.5 7B', 60, 1500, 300, FALSE);"
    )
    assert (p.concurrency, p.prompt_tokens, p.output_tokens) == (60, 1500, 300)
    assert "spot" in p.pricing_excluded


def test_lowercase_insert_with_a_null() -> None:
    out = sql_rows(
        "insert into jobs (model, epochs, budget_usd, notes) values ('Llama 3.1 8B', 3, 800, NULL);"
    )
    assert out.split("\n") == ["| model | Llama 3.1 8B |", "| epochs | 3 |", "| budget | 800 usd |"]


@pytest.mark.parametrize(
    "text",
    [
        "We insert into the queue table (by hand) values like the team and the model.",  # prose
        "INSERT INTO t (a, b) VALUES (1, 2);",  # two columns: too few to be a request
        "INSERT INTO t (a, b, c) VALUES (1, 2, 3), (4, 5, 6);",  # several rows: several requests
    ],
)
def test_not_a_one_row_insert(text: str) -> None:
    assert sql_rows(text) == text


# -------------------------------------------------------------------------------------- command line
def test_command_line_with_continuations(extract: Extract) -> None:
    p = extract(
        "this is what I ran against the old planner, it choked on the flags. same thing please:\n\n"
        "$ ./capacity-plan serve \\\n    --model meta-llama/Llama-3.1-70B \\\n    --concurrency 48 \\\n"
        "    --prompt-tokens 1024 --output-tokens 256 \\\n    --ttft-ms 800 \\\n    --no-spot \\\n"
        "    --region us-only \\\n    --max-gpus 4 \\\n    --budget-usd-per-month 9000"
    )
    assert (p.concurrency, p.prompt_tokens, p.output_tokens, p.context_len) == (48, 1024, 256, 1280)
    assert p.ttft_target_s == 0.8 and p.us_only is True and p.max_gpus == 4
    assert "spot" in p.pricing_excluded
    assert p.budget_usd is None  # a monthly figure is not the job's budget


def test_one_line_command_with_equals(extract: Extract) -> None:
    p = extract("$ python -m sizer --model=Qwen2.5-14B --concurrent-users=120 --max-gpus=2 --spot")
    assert p.concurrency == 120 and p.max_gpus == 2


def test_flag_rows_of_a_bare_and_a_negated_flag() -> None:
    out = flag_rows("$ plan --model X --spot --no-multi-node --epochs 2")
    assert "| spot | yes |" in out and "| multi node | no |" in out and "| epochs | 2 |" in out


@pytest.mark.parametrize(
    "text",
    [
        "we ran it with --verbose and --dry-run, nothing else",  # prose naming two flags
        "$ make test --quiet",  # one flag
    ],
)
def test_not_a_command_line(text: str) -> None:
    assert flag_rows(text) == text


# ------------------------------------------------------------------------------------- camelCase keys
def test_graphql_input_with_comments(extract: Extract) -> None:
    p = extract(
        "Filing this through the capacity API:\n\n```graphql\nmutation RequestServingCapacity {\n"
        '  createServingRequest(input: {\n    model: "deepseek-ai/DeepSeek-V3"\n'
        "    maxConcurrentSequences: 32\n    promptTokens: 14000        # long repo context\n"
        '    outputTokens: 2000\n    perTokenLatencyMs: 40\n    gpuType: "H200"            # only H200\n'
        "    maxGpus: 8                 # one 8-GPU node, no multi-node\n    allowSpot: false\n"
        '    preferredProviders: ["coreweave"]\n  }) { id status }\n}\n```'
    )
    assert (p.concurrency, p.prompt_tokens, p.output_tokens, p.context_len) == (32, 14000, 2000, 16000)
    assert p.latency_ms_per_token == 40 and p.max_gpus == 8 and p.gpus_wanted == ["h200"]
    assert "spot" in p.pricing_excluded and p.providers_preferred == ["coreweave"]


def test_javascript_object(extract: Extract) -> None:
    p = extract(
        "const request = {\n  model: 'Llama 3.1 8B',\n  concurrentUsers: 90,\n  promptTokens: 700,\n"
        "  maxTokens: 250,\n};"
    )
    assert (p.concurrency, p.prompt_tokens, p.output_tokens) == (90, 700, 250)


def test_helm_values_with_camel_keys() -> None:
    out = camel_rows("serving:\n  maxGpus: 4\n  allowSpot: true\n  targetTtftMs: 500")
    assert "| max gpus | 4 |" in out and "| allow spot | yes |" in out and "| target ttft | 500 ms |" in out


@pytest.mark.parametrize(
    "text",
    [
        "Note: the gpuType field is new.\nbatchSize: 8",  # one camelCase key
        "model: llama\nteam: search\nowner: ana",  # no camelCase key: a form's lines, read as they are
    ],
)
def test_not_a_camel_block(text: str) -> None:
    assert camel_rows(text) == text


# ------------------------------------------------------------------------------ spot as a key's value
@pytest.mark.parametrize(
    ("line", "spot_ok", "excluded"),
    [
        ("Spot / preemptible acceptable?: No", None, True),  # evals v16 Google Forms export
        ("Preemptible VMs OK?: Y", True, False),
        ("spot instances allowed: yes", True, False),
        ("Spot pricing: n/a", None, False),  # near miss: no answer
        ("Spot: no idea yet", None, False),  # near miss: not a no
    ],
)
def test_spot_key_answer(extract: Extract, line: str, spot_ok: bool | None, excluded: bool) -> None:
    p = extract(f"Serve Llama 3.1 8B to 40 users.\n{line}")
    assert p.spot_ok is spot_ok
    assert ("spot" in p.pricing_excluded) is excluded


def test_form_question_keys_are_their_own_lines(extract: Extract) -> None:
    # "EU only" then a question key: not "only Spot" (evals v16: every kind but spot was ruled out)
    p = extract(
        "Which model will you serve?: Llama 3.3 70B\nData residency: EU only\n"
        "Spot / preemptible acceptable?: No"
    )
    assert p.pricing_excluded == ["spot"] and p.eu_only is True


# ------------------------------------------------------------------------------------------------ TTFT
@pytest.mark.parametrize(
    ("text", "seconds"),
    [
        ("Time to first token target: 1 second", 1.0),  # evals v16 form row
        ("The first word must come out in 0.5 second, otherwise user think it is broken.", 0.5),  # v16
        ("first token target: 800 ms", 0.8),
        ("the first word should appear within 2 seconds", 2.0),
        ("The first word must come out in German.", None),  # near miss: no time
    ],
)
def test_ttft_forms(extract: Extract, text: str, seconds: float | None) -> None:
    assert extract(f"Serve Qwen2.5 14B to 300 users. {text}").ttft_target_s == seconds


# ----------------------------------------------------------------------------------- us-only, sequences
@pytest.mark.parametrize(
    ("text", "us"),
    [("region: us-only", True), ("Hosting is us-only for HIPAA.", True), ("a focus-only team", None)],
)
def test_us_only_code(extract: Extract, text: str, us: bool | None) -> None:
    assert extract(f"Serve Llama 3.1 8B to 20 users. {text}").us_only is us


@pytest.mark.parametrize(
    ("text", "n"),
    [("max concurrent sequences: 32", 32), ("concurrent seqs: 64", 64), ("sequences: 32", None)],
)
def test_concurrent_sequences(extract: Extract, text: str, n: int | None) -> None:
    assert extract(f"Serve Llama 3.1 8B.\n{text}").concurrency == n


# ------------------------------------------------------------------------------------------ owned forms
def test_reservation_with_its_host_before_the_gpus(extract: Extract) -> None:
    p = extract(
        "We have a 3-year reservation at Azure for 16 A100 80GB and there are still 14 months remaining"
        " on it."
        " We want to use it for continued pre-training of Llama 3.1 8B on 30 billion tokens."
    )  # evals v16, Danish writer
    assert (p.owned_gpu, p.owned_gpu_count, p.owned_reserved) == ("a100-80gb-sxm", 16, True)
    assert p.owned_provider == "azure" and p.owned_months_left == 14


@pytest.mark.parametrize(
    ("text", "gpu", "count"),
    [
        ("We hold a 1-year commitment with CoreWeave for 32 H100s.", "h100-sxm", 32),
        ("we've got a reservation on Lambda of 8x H200 until March.", "h200", 8),
        ("We got a quote for a 1-year reservation for 16 H100.", None, None),  # near miss: an offer
    ],
)
def test_have_a_reservation_for(extract: Extract, text: str, gpu: str | None, count: int | None) -> None:
    p = extract(f"Full fine-tune of Llama 3.1 8B on 1B tokens. {text}")
    assert (p.owned_gpu, p.owned_gpu_count) == (gpu, count)


@pytest.mark.parametrize(
    ("text", "gpu", "count"),
    [
        ("These four L40S are ours and mostly idle.", "l40s", 4),  # evals v16, Grafana panel
        ("the 2 A100s in the closet are our own.", "a100-80gb-sxm", 2),
        ("Those 8 H100 belong to us.", "h100-sxm", 8),
        ("These four L40S are ours to rent for a week.", None, None),  # near miss: not owned
    ],
)
def test_gpus_said_to_be_ours(extract: Extract, text: str, gpu: str | None, count: int | None) -> None:
    p = extract(f"Serve Qwen2.5 7B to 60 users. {text}")
    assert (p.owned_gpu, p.owned_gpu_count) == (gpu, count)


# ------------------------------------------------------------------------ forint, rupiah and shekel
@pytest.mark.parametrize(
    ("text", "low", "high"),
    [
        ("Budget is Rp 25 juta (25,000,000 rupiah) maximum.", 1500, 1650),  # evals v16, Indonesian writer
        ("Our budget for this is 350 000 Ft.", 910, 1085),  # evals v16, Hungarian writer
        ("Finance approved a capex of ₪1.2 million for hardware, one time.", 312_000, 348_000),  # v16
        ("budget max 800.000 forint", 2000, 2400),
        ("Budget NIS 40,000 max.", 10_000, 12_000),
    ],
)
def test_budget_in_huf_idr_ils(extract: Extract, text: str, low: float, high: float) -> None:
    p = extract(f"Full fine-tuning of Llama 3.2 1B on 400M tokens. {text}")
    assert p.budget_usd is not None and low <= p.budget_usd <= high


@pytest.mark.parametrize(
    "text",
    [
        "The university gives us 2 million Ft per year for everything.",  # a rate, not this job's budget
        "The rack is 350 ft from the office, budget unknown.",  # feet, not forint
    ],
)
def test_not_a_budget_in_those_currencies(extract: Extract, text: str) -> None:
    assert extract(f"Full fine-tuning of Llama 3.2 1B on 400M tokens. {text}").budget_usd is None


@pytest.mark.parametrize(
    ("text", "usd"),
    [("Electricity here is 0.62 ILS per kWh.", 0.172), ("power costs ₪0.62/kWh", 0.172)],
)
def test_power_price_in_shekels(extract: Extract, text: str, usd: float) -> None:
    p = extract(f"Serve Qwen3 32B to 100 users on our own 8x H100. {text}")
    assert p.power_price_usd_per_kwh == pytest.approx(usd, abs=0.002)


# ------------------------------------------------------------------------------ bold keys, week windows
def test_slack_workflow_fields(extract: Extract) -> None:
    p = extract(
        ':robot_face: *New request via Workflow Builder: "Request inference capacity"*\n'
        "*Submitted by:* @oskar   *Channel:* #ml-infra-requests\n*Model:* Gemma 3 12B\n"
        "*Concurrent users (peak):* 40\n"
        "*When does it need to be up?:* Mon–Fri, 08:00–20:00 only; switch it off nights and weekends\n"
        "*GPU type:* L40S (that's what our image is tuned for)\n"
        "*How many GPUs max:* 1 — team quota is a single GPU"
    )  # evals v16: the nine fields were one sentence
    assert (p.concurrency, p.gpus_wanted, p.max_gpus) == (40, ["l40s"], 1)
    assert p.serving_scheduled is True and p.utilization == pytest.approx(60 / 168)


@pytest.mark.parametrize(
    "text",
    [
        "Serve Qwen2.5 7B.\n**Concurrent users:** 90\n**Model:** Qwen2.5 7B",  # Markdown bold
        "Serve Qwen2.5 7B.\n- __Concurrent users__: 90",  # a bullet, the colon after the bold
    ],
)
def test_bold_keys(extract: Extract, text: str) -> None:
    assert extract(text).concurrency == 90


def test_bold_prose_is_not_a_key(extract: Extract) -> None:
    # near miss: bold words in a sentence, no colon
    assert extract("Serve Qwen2.5 7B to *90 users*, and **no spot**.").concurrency == 90


@pytest.mark.parametrize(
    ("text", "share", "scheduled"),
    [
        ("Needed Monday to Friday 8am to 8pm, off nights and weekends.", 60 / 168, True),
        ("Up weekdays 9:00-17:30 only.", 42.5 / 168, True),
        ("It runs Sat-Sun 10:00-18:00.", 16 / 168, None),  # a window with no "only": the share alone
        ("Traffic peaks Mon-Fri 09:00-17:00.", None, None),  # near miss: a peak's window
        ("We need it Mon-Fri, 3-4 GPUs.", None, None),  # near miss: no clock range
    ],
)
def test_weekly_window(extract: Extract, text: str, share: float | None, scheduled: bool | None) -> None:
    p = extract(f"Serve Gemma 3 12B to 40 users. {text}")
    assert p.utilization == (pytest.approx(share) if share is not None else None)
    assert p.serving_scheduled is scheduled
