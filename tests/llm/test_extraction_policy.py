"""The openai extractor's merge policy, token cap, attempts and accounting, end to end against the local
OpenAI-compatible stub server (the real openai client and langchain-openai run)."""

from __future__ import annotations

import time

from advisor.extract.accounting import account_for
from advisor.extract.rules import RulesExtractor
from advisor.llm.extractor import OpenAIExtractor
from advisor.llm.settings import LLMSettings
from advisor.llm.testing import FakeOpenAIServer, TinyRulesExtractor, delayed, facts_reply, http_error

ASK = "Continue pre-training Llama 3.1 8B on 50B tokens in 10 days, QLoRA is out, 3 epochs"


def make(settings: LLMSettings, rules: object | None = None) -> OpenAIExtractor:
    return OpenAIExtractor(settings=settings, rules=rules or TinyRulesExtractor())  # type: ignore[arg-type]


def test_the_real_models_mistakes_are_rejected_with_reasons(
    server: FakeOpenAIServer, settings: LLMSettings
) -> None:
    text = ASK + ", about 3000 EUR a month for hardware"
    server.enqueue(
        facts_reply(
            ("budget_usd", 5, "5"),  # "5" inside "50B": no whole-token evidence
            ("epochs", 10, "10 days"),  # a duration is not epochs
            ("horizon_months", 1, "1"),  # "1" inside "3.1"
            ("model_id", "1B", "8B"),  # not a catalog model
            ("budget_usd", 3000, "3000 EUR a month"),  # another currency, and a rate
            ("deadline_hours", 240, "in 10 days"),  # right: 10 days x 24 h
        )
    )
    ex = make(settings)
    p = ex.extract(text)
    assert p.budget_usd is None and p.horizon_months is None and p.model_id is None
    assert p.epochs == 3  # the rules' value stands
    assert p.deadline_hours == 240 and p.status_of("deadline_hours") == "inferred"
    reasons = {(r.field, r.reason) for r in ex.rejected}
    assert ("budget_usd", "no quote of whole words from the user's text") in reasons
    assert ("epochs", "a duration, not epochs") in reasons
    assert ("model_id", "'1B' is not a model of the catalog") in reasons
    assert ("budget_usd", "an amount in another currency than US dollars") in reasons
    assert ex.calls == 1 and ex.last_error is None and not ex.fell_back


def test_model_never_degrades_the_rules_reading(server: FakeOpenAIServer, settings: LLMSettings) -> None:
    text = "LoRA on a 7B model, 3 epochs, then 8 passes over the eval set"
    server.enqueue(facts_reply(("epochs", 8, "8 passes"), ("params_b", 7, "7B model")))
    ex = make(settings)
    p = ex.extract(text)
    assert p.epochs == 3 and p.params_b == 7
    assert [r.field for r in ex.rejected] == ["epochs"] and "at least as strong" in ex.rejected[0].reason


def test_model_cannot_contradict_a_rules_list(server: FakeOpenAIServer, settings: LLMSettings) -> None:
    text = "Company policy: must be on AWS, no spot instances. LoRA Llama 3 8B on 20M tokens."
    server.enqueue(
        facts_reply(
            ("providers_excluded", ["AWS"], "must be on AWS"),
            ("pricing_excluded", ["spot"], "no spot instances"),
        )
    )
    ex = make(settings, RulesExtractor())
    p = ex.extract(text)
    assert p.providers_required == ["aws"] and p.providers_excluded == []
    assert p.pricing_excluded == ["spot"]
    assert any(r.field == "providers_excluded" and "contradicts" in r.reason for r in ex.rejected)


def test_model_adds_constraint_facts_and_their_clauses_count_as_used(
    server: FakeOpenAIServer, settings: LLMSettings
) -> None:
    text = "QLoRA a 70B model. We already own 8 A100 80GB. Our colo power is $0.10/kWh."
    server.enqueue(
        facts_reply(
            ("owned_gpu", "A100 80GB", "8 A100 80GB"),
            ("owned_gpu_count", 8, "own 8 A100"),
            ("power_price_usd_per_kwh", 0.1, "$0.10/kWh"),
        )
    )
    ex = make(settings)
    p = ex.extract(text)
    assert p.owned_gpu is not None and p.owned_gpu.startswith("a100-80gb") and p.owned_gpu_count == 8
    assert p.power_price_usd_per_kwh == 0.1
    account = account_for(text, p)
    assert any("$0.10/kWh" in u for u in account.used) and any("own 8 A100" in u for u in account.used)


def test_a_rejected_constraint_is_listed_as_not_understood(
    server: FakeOpenAIServer, settings: LLMSettings
) -> None:
    text = "QLoRA a 70B model on 2B tokens. Budget must stay under 3000 EUR a month."
    server.enqueue(facts_reply(("budget_usd", 3000, "3000 EUR a month")))
    ex = make(settings)
    p = ex.extract(text)
    assert p.budget_usd is None and ex.rejected
    assert any("3000 EUR a month" in c for c in account_for(text, p).of_kind("constraint"))


def test_request_carries_the_token_cap_and_the_compact_schema(
    server: FakeOpenAIServer, settings: LLMSettings
) -> None:
    server.enqueue(facts_reply())
    make(settings).extract(ASK)
    body = server.requests[0]
    assert body["max_completion_tokens"] == settings.max_tokens == 512
    assert body["n_predict"] == 512  # llama.cpp's own name, sent to local servers only
    schema = body["response_format"]["json_schema"]["schema"]
    assert list(schema["properties"]) == ["facts"]


def test_transport_retries_are_counted_and_the_fallback_says_so(server: FakeOpenAIServer) -> None:
    settings = LLMSettings(base_url=server.url, max_retries=2, timeout_s=1.0, model="fake-model")
    server.enqueue(http_error(500), http_error(500), http_error(500))
    ex = make(settings)
    p = ex.extract(ASK)
    assert ex.calls == 3 and len(server.requests) == 3  # every attempt counted, none hidden in the client
    assert ex.fell_back and ex.last_error is not None and "rules' reading was used" in ex.last_error
    assert p == TinyRulesExtractor().extract(ASK)


def test_a_timeout_is_not_retried_and_the_request_is_closed(server: FakeOpenAIServer) -> None:
    settings = LLMSettings(base_url=server.url, max_retries=2, timeout_s=0.5, model="fake-model")
    server.enqueue(delayed(5.0), facts_reply())
    ex = make(settings)
    t0 = time.perf_counter()
    ex.extract(ASK)
    assert time.perf_counter() - t0 < 3.0
    assert ex.calls == 1 and ex.fell_back and ex.last_error is not None and "timed out" in ex.last_error
    deadline = time.monotonic() + 2.0
    while server.abandoned < 1 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert server.abandoned == 1  # the client closed the connection: the server can stop generating


def test_out_of_range_value_is_sent_back_once_then_dropped_keeping_the_rest(
    server: FakeOpenAIServer, settings: LLMSettings
) -> None:
    text = "LoRA on a 7B model, GPUs busy 80% of the time, data in S3"
    bad = facts_reply(("utilization", 80, "80%"), ("data_location", "aws", "data in S3"))
    server.enqueue(bad, bad)
    ex = make(settings)
    p = ex.extract(text)
    assert ex.calls == 2 and p.utilization is None and p.data_location == "aws"
    assert ex.last_error is not None and "utilization" in ex.last_error and not ex.fell_back
