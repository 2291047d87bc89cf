"""A clause that gave some facts cannot hide the rest (issue 12): the figures, providers, GPUs and on-prem
words in it that no fact came from are listed as not used; and the buyer examples of issue 16 read whole
("On-prem DeepSeek-V3 for 100 users at 32k context", "serve 70B 24/7 at 60%")."""

from __future__ import annotations

from advisor.conversation import Conversation
from advisor.extract.accounting import account_for
from advisor.extract.rules import RulesExtractor
from tools.input_account import InputAccount
from tools.profile import WorkloadProfile


def _read(text: str) -> tuple[WorkloadProfile, InputAccount]:
    profile = Conversation(explain=False).send(text).profile
    return profile, account_for(text, profile)


def test_on_prem_deepseek_for_users_is_a_serving_request_on_own_hardware() -> None:
    p, account = _read("On-prem DeepSeek-V3 for 100 users at 32k context")
    assert (p.workload, p.model_id, p.concurrency, p.context_len) == ("inference", "deepseek-v3", 100, 32768)
    assert p.deployment_preference == "on_prem"
    assert account.unused == ()


def test_users_without_a_training_word_mean_serving_but_training_words_win() -> None:
    assert RulesExtractor().extract("Qwen2.5 72B for ~300 internal users, 8k context").workload == "inference"
    assert RulesExtractor().extract("Mistral 7B support bot for 50 agents").workload == "inference"
    tuned = RulesExtractor().extract("fine-tune Llama 3 8B for our 200 employees on 10M tokens")
    assert tuned.workload == "fine_tuning"


def test_a_bare_size_after_serve_is_the_model_and_24_7_at_a_percentage_is_the_load() -> None:
    p = RulesExtractor().extract("serve 70B 24/7 at 60% for 2-3 years: keep renting H100s or buy 8x H100?")
    assert (p.workload, p.params_b, p.utilization) == ("inference", 70, 0.6)
    assert RulesExtractor().extract("we will train on 70B tokens of web text").params_b is None
    assert RulesExtractor().extract("serve 70B tokens a day").params_b is None


def test_on_prem_as_a_question_is_not_a_preference_and_is_listed() -> None:
    p, account = _read("on-prem or cloud for serving llama 3 70b to 50 users?")
    assert p.deployment_preference is None
    assert any("on-prem or cloud" in c.text for c in account.unused)


def test_a_figure_left_in_a_read_clause_is_listed_with_its_words() -> None:
    p, account = _read("LoRA Llama 3 8B on 20M tokens from 3 hospitals")
    assert p.dataset_tokens == 20e6
    listed = [(c.kind, c.text) for c in account.unused]
    assert ("number", "from 3 hospitals") in listed


def test_a_figure_read_through_a_typo_is_not_listed() -> None:
    p, account = _read("fine tune mistral 7b with lora on 30M tokns, about 50 concurent users later")
    assert p.dataset_tokens == 30e6
    assert not [c for c in account.unused if "30M" in c.text]


def test_on_prem_beside_the_sentence_it_was_read_from_is_not_listed_again() -> None:
    text = (
        "We'd like to buy our own servers and run everything on-prem: serve Qwen2.5 72B to 300 internal "
        "users around the clock for the next 3 years."
    )
    p, account = _read(text)
    assert p.deployment_preference == "on_prem"
    assert not [c for c in account.unused if "on-prem" in c.text]


def test_a_size_restated_beside_the_model_name_is_not_listed() -> None:
    p, account = _read("8B chatbot for 30 users, Llama 3.1 8B, 8k context, cheapest reliable option")
    assert (p.model_id, p.concurrency) == ("llama-3.1-8b", 30)
    assert not [c for c in account.unused if "8B" in c.text]


def test_gpu_counts_in_words_are_read() -> None:
    # before: "sixteen A100s" gave a claim of 1 GPU (no word for 16)
    read = RulesExtractor().extract
    p = read("Can we full fine-tune Llama 3 8B on 5B tokens in ten days on sixteen A100s?")
    assert (p.claimed_gpu_count, p.claimed_hours) == (16, 240)
    assert read("we own sixty-four H100s, LoRA llama 3 70b on 1B tokens").owned_gpu_count == 64


def test_a_share_of_the_users_active_at_once_is_the_concurrency() -> None:
    read = RulesExtractor().extract
    one = read("Serve Qwen2.5 32B for our 300 engineers, maybe a fifth of them active at once")
    assert (one.workload, one.concurrency) == ("inference", 60)
    two = read("internal chatbot for all our 2,000 employees, about 10% online at peak, llama 3.1 70b")
    assert two.concurrency == 200
    # no share said: every user counts, as before
    assert read("chatbot on Mistral 7B for the 40 lawyers").concurrency == 40
