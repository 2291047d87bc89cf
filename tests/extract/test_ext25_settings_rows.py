"""Requests pasted as a machine's settings (advisor/extract/settings_rows.py): an XML export, a form POST's
urlencoded body, and settings lines of YAML, INI, a Python dataclass, a Makefile or .env and a Protocol
Buffers text message. Each layout: the v17 phrasing (development data; issue 12), two variants of our own in
other wording, and a near miss that must stay prose."""

from __future__ import annotations

from collections.abc import Callable

from advisor.extract.settings_rows import (
    form_body_rows,
    key_value,
    key_words,
    record_table,
    settings_lines,
    xml_rows,
)
from tools.profile import WorkloadProfile

Extract = Callable[..., WorkloadProfile]


# ------------------------------------------------------------------------------------------------ XML
def test_v17_xml_procurement_export(extract: Extract) -> None:
    p = extract(
        '<?xml version="1.0" encoding="UTF-8"?>\n<ServiceRequest id="REQ-2026-1187">\n'
        '  <Requester dept="Claims Automation" headcount="340"/>\n  <Workload type="inference">\n'
        "    <Model>Mistral NeMo 12B</Model>\n    <ConcurrentSessions>120</ConcurrentSessions>\n"
        "    <PromptTokens>6000</PromptTokens>  <!-- OCR text of scanned claim forms -->\n"
        '    <OutputTokens>500</OutputTokens>\n    <TimeToFirstToken unit="s">2</TimeToFirstToken>\n'
        "  </Workload>\n  <Constraints>\n    <DataResidency>EU only</DataResidency>\n    <GPU>L40S</GPU>\n"
        "    <PreferredProvider>Nebius</PreferredProvider>\n  </Constraints>\n"
        '  <PreviousPO amount="EUR 64,000" year="2025"/>\n</ServiceRequest>'
    )
    assert p.workload == "inference" and p.model_id == "mistral-nemo-12b"
    assert (p.concurrency, p.prompt_tokens, p.output_tokens, p.ttft_target_s) == (120, 6000, 500, 2)
    assert p.eu_only is True and p.gpus_wanted == ["l40s"] and p.providers_preferred == ["nebius"]
    assert p.budget_usd is None  # an empty element's attributes (a past PO) are not read


def test_xml_lowercase_elements_with_units(extract: Extract) -> None:
    p = extract(
        '<request>\n<job kind="serving">\n<model>Llama 3.1 8B</model>\n<users>40</users>\n'
        "<prompt_tokens>1500</prompt_tokens>\n<max_output_tokens>300</max_output_tokens>\n</job>\n</request>"
    )
    assert p.workload == "inference" and p.model_id == "llama-3.1-8b"
    assert (p.prompt_tokens, p.output_tokens) == (1500, 300)


def test_xml_training_record(extract: Extract) -> None:
    p = extract(
        "<TrainingJob>\n  <BaseModel>Qwen2.5 7B</BaseModel>\n  <Method>LoRA</Method>\n"
        "  <Epochs>2</Epochs>\n  <MaxGpus>4</MaxGpus>\n</TrainingJob>"
    )
    assert p.model_id == "qwen2.5-7b" and p.method == "lora" and p.epochs == 2 and p.max_gpus == 4


def test_html_paragraphs_are_not_a_record() -> None:
    html = "<p>We serve Llama.</p>\n<p>About 40 users.</p>\n<li>EU only</li>"
    assert xml_rows(html) == html
    assert xml_rows("<A>1</A>\n<B>2</B>") == "<A>1</A>\n<B>2</B>"  # fewer than MIN_ROWS elements


# ------------------------------------------------------------------------------------------ form body
def test_v17_form_post_body(extract: Extract) -> None:
    p = extract(
        "POST /api/v1/estimate HTTP/1.1\nHost: internal-tools.example.net\n"
        "Content-Type: application/x-www-form-urlencoded\n\n"
        "task=finetune&base=microsoft%2FPhi-3-mini-4k-instruct&method=qlora&examples=8000&avg_tokens=600"
        "&epochs=3&gpus_max=1&budget_usd=30&spot=allowed&note=old+tool+returned+HTTP+500\n\n"
        "^ that's what our old form sent."
    )
    assert p.model_id == "phi-3-mini" and p.method == "qlora" and p.epochs == 3
    assert p.max_gpus == 1 and p.budget_usd == 30 and p.spot_ok is True


def test_form_body_of_a_serving_request(extract: Extract) -> None:
    p = extract("model=Llama+3.1+70B&concurrent_users=25&prompt_tokens=2000&allow_spot=false&cloud=aws")
    assert p.model_id == "llama-3.1-70b" and p.concurrency == 25 and p.prompt_tokens == 2000
    assert "spot" in p.pricing_excluded and p.providers_required == ["aws"]


def test_form_body_rows_decodes_each_pair() -> None:
    assert form_body_rows("a_b=x+y&c=%2Fz&budget_eur=900").split("\n") == [
        "| a b | x y |", "| c | /z |", "| budget | 900 eur |",
    ]  # fmt: skip


def test_a_url_in_prose_is_not_a_form_body() -> None:
    said = "see https://x.example/q?a=1&b=2&c=3 for the old numbers"
    assert form_body_rows(said) == said
    assert form_body_rows("a=1&b=2") == "a=1&b=2"  # two pairs: not a body


# ------------------------------------------------------------------------------------- settings lines
def test_v17_python_dataclass(extract: Extract) -> None:
    p = extract(
        "It's the config object from our repo, as is:\n\n@dataclass\nclass QLoRAJob:\n"
        '    base_model: str = "Qwen/Qwen2.5-72B"\n    quant: str = "nf4"             # 4-bit QLoRA\n'
        "    lora_r: int = 64\n    train_tokens: float = 2.5e8    # whole corpus, one pass\n"
        "    epochs: int = 1\n    seq_len: int = 4096\n    max_gpus: int = 2\n"
        "    budget_gbp: int = 1200         # hard cap for this run (pounds sterling)\n"
        '    provider_pref: str = "runpod"  # preferred, NOT required\n'
    )
    assert p.model_id == "qwen2.5-72b" and p.method == "qlora" and p.lora_rank == 64
    assert (p.dataset_tokens, p.epochs, p.seq_len, p.max_gpus) == (2.5e8, 1, 4096, 2)
    assert p.budget_usd is not None and 1440 <= p.budget_usd <= 1680  # GBP 1,200 at the catalog's rate
    assert p.providers_preferred == ["runpod-community", "runpod-secure"] and p.providers_required == []


def test_v17_ansible_vars(extract: Extract) -> None:
    p = extract(
        "# group_vars/llm_phi4.yml -- vars for the phi-4 serving role\nllm_model: microsoft/phi-4\n"
        "llm_max_concurrent_requests: 32\nllm_prompt_tokens: 1024\nllm_max_output_tokens: 512\n"
        "gpu_type: L40S                     # L40S only\ngpu_count_max: 2\ncloud_provider: runpod\n"
        "allow_spot: false\n"
    )
    assert (p.concurrency, p.prompt_tokens, p.output_tokens, p.max_gpus) == (32, 1024, 512, 2)
    assert p.gpus_wanted == ["l40s"] and "spot" in p.pricing_excluded


def test_v17_ini_sections_are_two_workloads(rules) -> None:  # type: ignore[no-untyped-def]
    a = rules.analyse(
        "; capacity.ini\n[global]\nresidency = EU        ; applies to everything below\n"
        "team_size = 9         ; not relevant for sizing\n\n[training]\nkind = continued-pretraining\n"
        "model = Llama 3.1 8B\ntokens = 3e9\nseq_len = 8192\n\n[serving]\nmodel = (the CPT output)\n"
        "concurrent_users = 100\nprompt_tokens = 4000\noutput_tokens = 250\navailability = 99.9%"
    )
    training = {f.field: f.value for f in a.findings}
    serving = {f.field: f.value for f in a.other}
    assert training["dataset_tokens"] == 3e9 and training["seq_len"] == 8192 and training["eu_only"] is True
    assert serving["concurrency"] == 100 and serving["prompt_tokens"] == 4000 and serving["eu_only"] is True
    assert "dataset_tokens" not in serving


def test_toml_and_makefile_assignments(extract: Extract) -> None:
    p = extract("MODEL ?= Llama-3.1-8B\nMETHOD := lora\nLORA_R := 32\nSEQ_LEN := 2048\nEPOCHS := 2\n")
    assert p.method == "lora" and p.lora_rank == 32 and p.seq_len == 2048 and p.epochs == 2
    q = extract('[job]\nmethod = "qlora"\nmodel = "Llama 3.1 70B"\ntrain_tokens = 1.2e8\nepochs = 1\n')
    assert q.method == "qlora" and q.dataset_tokens == 1.2e8


def test_v17_textproto_two_workloads(rules) -> None:  # type: ignore[no-untyped-def]
    a = rules.analyse(
        'workloads {\n  name: "tone-dpo"\n  training {\n'
        '    base_model: "meta-llama/Llama-3.3-70B-Instruct"\n    method: LORA\n    objective: DPO\n'
        '    preference_pairs: 20000\n  }\n}\nworkloads {\n  name: "tone-serving"\n  serving {\n'
        "    concurrent_requests: 60\n    time_to_first_token_ms: 1500\n  }\n}\n"
        'constraints { excluded_providers: "runpod" excluded_providers: "vast" }  # both workloads'
    )
    training = {f.field: f.value for f in a.findings}
    serving = {f.field: f.value for f in a.other}
    assert training["model_id"] == "llama-3.3-70b" and training["training_objective"] == "dpo"
    assert serving["concurrency"] == 60 and serving["ttft_target_s"] == 1.5
    excluded = {x for f in a.other if f.field == "providers_excluded" for x in f.value}
    assert excluded >= {"runpod-community", "vast-ai"}


def test_deadline_and_size_keys_of_a_dotenv(extract: Extract) -> None:
    p = extract(
        "RUN_NAME=kestrel\nMODEL_PARAMS=1.3B\nDATASET_TOKENS=100B\nDONE_BY=2027-01-22\n"
        "# (the 2025 run was 350M params and cost EUR 14k -- ignore)"
    )
    assert p.params_b == 1.3 and p.dataset_tokens == 1e11 and p.deadline_hours is not None


def test_key_words() -> None:
    assert key_words("gpu count max") == "max gpu count"
    assert key_words("lora r") == "lora rank"
    assert key_words("provider pref") == "preferred provider"
    assert key_words("prompt tokens") == "prompt tokens"  # a role's tokens are not the dataset's


def test_a_persons_form_stays_prose() -> None:
    form = "Model: Llama 3 70B\nBudget: $5k\nDeadline: Friday\nRegion: EU"
    assert settings_lines(form) == form  # no machine keys: the prose rules read it as before
    two = "max_gpus: 4\nspot_ok: no"
    assert settings_lines(two) == two  # fewer than MIN_ROWS values
    url = "home_page: https://x.example/a\nrepo_url: https://git.example/b\nowner_team: search"
    assert "https://x.example/a" in settings_lines(url)  # '//' inside a value is not a comment


# ---------------------------------------------------------------------------------- a one-record table
def test_v17_board_export_header_and_one_item(extract: Extract) -> None:
    p = extract(
        "Board: Data Ops Q4 | Group: This week\n"
        "Item | Owner | Status | Docs | Out tokens/doc | Model | Due | Spot? | Budget | Cloud\n"
        "Summarise contract archive | Lena K. | Working on it | 2.4M | ~250 | Llama 3.1 8B | Dec 4 | OK"
        " | $3,000 | anything but Azure\nSubitems (3) | Last updated by 14 people | 2 files"
    )
    assert p.workload == "inference" and p.generation_tokens == 6e8 and p.spot_ok is True
    assert p.budget_usd == 3000 and p.providers_excluded == ["azure"]
    assert p.deadline_hours is not None and 375 <= p.deadline_hours <= 407  # Fri 4 Dec from Wed 18 Nov


def test_markdown_table_of_one_request(extract: Extract) -> None:
    p = extract(
        "| Model | Concurrent users | Prompt tokens | Spot |\n|---|---|---|---|\n"
        "| Qwen2.5 14B | 24 | 3000 | no |"
    )
    assert p.model_id == "qwen2.5-14b" and p.concurrency == 24 and p.prompt_tokens == 3000
    assert "spot" in p.pricing_excluded


def test_sheet_row_with_a_due_date(extract: Extract) -> None:
    p = extract("Task | Model | Due date | Budget\nTranslate FAQ | Llama 3.1 70B | Dec 11 | $900")
    assert p.budget_usd == 900 and p.deadline_hours is not None


def test_a_table_of_several_rows_is_not_one_record() -> None:
    table = "Host | GPU | Count\nnode-a | H100 | 8\nnode-b | A100 | 4"
    assert record_table(table) == table
    assert key_value("Out tokens/doc", "250") == "| output tokens per doc | 250 |"


def test_a_one_row_hardware_table_stays_a_row() -> None:
    table = "| GPU | count | where |\n|---|---|---|\n| A100 80GB | 4 | our rack |"
    assert record_table(table) == table  # an inventory line: the owned-table rules read its row
