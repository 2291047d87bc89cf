"""The `rules` extractor: offline, deterministic regular-expression rules from text to a WorkloadProfile.

It reads facts, never guesses: a value the user wrote is "stated"; a value derived from their words by a
named conversion (GB of text -> tokens, EUR -> USD, "by Friday" -> hours) is "inferred", with the
arithmetic as evidence (advisor/extract/units_text.py). Unknowns stay None for the recommender's
defaults. Text addressed to an AI system is dropped first (advisor/extract/rules_text.py), so an
instruction inside a brief cannot change a number.

Rules by topic: workload and method, model and size, dataset size and training shape, money and time,
data location, cadence / utilisation / horizon, inference serving, availability, constraints (EU, operations,
providers preferred / required / excluded, objective), preference tuning (DPO and pairs;
advisor/extract/rules_preference.py), pricing ruled out, claims, training framework, and
corrections that lean on what was said before ("scratch the 70M: it's 45M", "miscounted: 8 of them", "the
deadline got pulled in to Friday"; advisor/extract/rules_corrections.py), for which `extract` passes the
earlier turns' profile to the rules.
Each rule reads one sentence at a time. A brief with a training and a serving section is read as two
workloads (advisor/extract/workloads.py): the profile is the training part; `Analysis.other` holds the
serving part's findings.
"""

from __future__ import annotations

import datetime as dt
import sys
from collections.abc import Callable
from dataclasses import dataclass

from advisor.extract.base import Finding, merge_findings
from advisor.extract.regex_first import first_char_patterns
from advisor.extract.regex_keys import key_patterns, reading, reading_all
from advisor.extract.regex_memo import memo_patterns, remembering
from advisor.extract.rules_always_on import rule_always_on_serving
from advisor.extract.rules_amount_label import rule_amount_label
from advisor.extract.rules_aside_figures import rule_aside_figures
from advisor.extract.rules_availability import rule_availability
from advisor.extract.rules_baa_provider import rule_baa_provider
from advisor.extract.rules_budget_codes import rule_budget_codes
from advisor.extract.rules_budget_forms import rule_budget_forms
from advisor.extract.rules_buy_question import rule_buy_question
from advisor.extract.rules_cadence_forms import rule_cadence_forms
from advisor.extract.rules_calendar import rule_calendar_deadlines
from advisor.extract.rules_claim_alternative import rule_claim_alternative
from advisor.extract.rules_claim_forms import rule_claim_forms
from advisor.extract.rules_claim_rate import rule_claim_rate
from advisor.extract.rules_claim_source import rule_claim_source
from advisor.extract.rules_claim_term import rule_claim_term
from advisor.extract.rules_claims import rule_claims, rule_owned_question
from advisor.extract.rules_concurrency_forms import rule_concurrency_forms
from advisor.extract.rules_constraints import rule_constraints
from advisor.extract.rules_context import rule_cadence, rule_serving, rule_utilisation
from advisor.extract.rules_corrections import rule_corrections, rule_ignored_quotes
from advisor.extract.rules_count_question import rule_count_question
from advisor.extract.rules_ctx import Ctx
from advisor.extract.rules_current_fleet import rule_current_fleet
from advisor.extract.rules_data import rule_dataset, rule_training_shape
from advisor.extract.rules_dates import rule_deadline_phrases
from advisor.extract.rules_deadline_forms import rule_deadline_forms
from advisor.extract.rules_deadline_limits import rule_deadline_limits
from advisor.extract.rules_deadline_margin import rule_deadline_margin
from advisor.extract.rules_deadline_rate import rule_rate_for_new_deadline
from advisor.extract.rules_deadline_soft import rule_deadline_soft
from advisor.extract.rules_document_dates import rule_document_due_dates
from advisor.extract.rules_dollar_prefix import rule_dollar_prefix
from advisor.extract.rules_followup_share import rule_followup_share
from advisor.extract.rules_form_values import rule_form_values
from advisor.extract.rules_forward_only import (
    rule_forward_only_output,
    rule_forward_only_total,
    rule_forward_only_workload,
)
from advisor.extract.rules_framework import rule_framework
from advisor.extract.rules_full_prompt import rule_full_prompt
from advisor.extract.rules_generation_chain import rule_generation_chain
from advisor.extract.rules_gpu_at_provider import rule_gpu_at_provider
from advisor.extract.rules_gpu_lists import rule_gpu_lists
from advisor.extract.rules_gpu_options import rule_gpu_options
from advisor.extract.rules_gpus import rule_gpu_choice, rule_owned_gpus
from advisor.extract.rules_held_forms import rule_held_capacity, rule_machines_each, rule_usable_share
from advisor.extract.rules_horizon import rule_buy_or_rent_horizon, rule_horizon
from advisor.extract.rules_inventory_csv import rule_inventory_csv, rule_inventory_pipe
from advisor.extract.rules_item_size import rule_item_prompt
from advisor.extract.rules_kv_precision import rule_kv_precision
from advisor.extract.rules_length_pairs import rule_length_pairs
from advisor.extract.rules_length_slots import rule_length_slots
from advisor.extract.rules_lengths import rule_lengths
from advisor.extract.rules_location import rule_location
from advisor.extract.rules_memory_question import rule_memory_question
from advisor.extract.rules_money_period import rule_money_period
from advisor.extract.rules_money_time import rule_budget, rule_deadline
from advisor.extract.rules_nightly import rule_nightly_batch
from advisor.extract.rules_no_renting import rule_no_renting
from advisor.extract.rules_other_clouds import rule_other_clouds
from advisor.extract.rules_output_each import rule_output_each
from advisor.extract.rules_owned_forms import rule_owned_forms
from advisor.extract.rules_owned_layout import rule_owned_layout
from advisor.extract.rules_owned_table import rule_owned_table
from advisor.extract.rules_owned_terms import rule_claim_before_term_ends, rule_owned_terms
from advisor.extract.rules_per_item import rule_per_item_volume
from advisor.extract.rules_power_forms import rule_power_forms
from advisor.extract.rules_preference import rule_preference
from advisor.extract.rules_pricing import rule_pricing
from advisor.extract.rules_pricing_list import rule_pricing_list
from advisor.extract.rules_procurement import rule_procurement
from advisor.extract.rules_provider_lists import rule_provider_lists
from advisor.extract.rules_purchase_price import rule_buy_instead, rule_capex_budget, rule_purchase_price
from advisor.extract.rules_region_elsewhere import rule_colocation, rule_region_elsewhere
from advisor.extract.rules_region_words import rule_us_hosting
from advisor.extract.rules_repairs import rule_repairs
from advisor.extract.rules_reported_need import rule_reported_need
from advisor.extract.rules_reservation import rule_reservation
from advisor.extract.rules_reservation_term import rule_reservation_term
from advisor.extract.rules_reserved_cloud import rule_reserved_cloud
from advisor.extract.rules_resume import rule_can_resume, rule_cannot_resume
from advisor.extract.rules_runs import rule_runs_total
from advisor.extract.rules_schedule import rule_serving_schedule
from advisor.extract.rules_serving_io import rule_serving_io
from advisor.extract.rules_speed_claim import rule_speed_claim
from advisor.extract.rules_stage_data import rule_stage_datasets
from advisor.extract.rules_stay_on import rule_own_hardware_only, rule_stay_on
from advisor.extract.rules_stream_speed import (
    rule_latency_percentile,
    rule_no_latency_target,
    rule_stream_speed,
)
from advisor.extract.rules_team_provider import rule_team_provider
from advisor.extract.rules_text import Sentence, split_sentences
from advisor.extract.rules_total_budget import rule_total_budget
from advisor.extract.rules_ttft import rule_ttft
from advisor.extract.rules_typos import fix_sentences
from advisor.extract.rules_weekend import rule_weekend
from advisor.extract.rules_weekly_window import rule_weekly_window
from advisor.extract.rules_workload import rule_method, rule_model, rule_precision, rule_workload
from advisor.extract.second_workload import (
    batch_beside_serving,
    continued_turn,
    serve_then_train,
    share_constraints,
)
from advisor.extract.section_content import batch_sections, content_sections
from advisor.extract.sentence_memo import recording
from advisor.extract.steps import step_parts
from advisor.extract.withdrawn_choice import rule_required_over_preferred
from advisor.extract.workloads import Split, chat_sections, split_parts
from tools.profile import WorkloadProfile


@dataclass(frozen=True)
class Analysis:
    """What the rules read from one text: findings per field and the sentences they ignored."""

    findings: tuple[Finding, ...]
    ignored: tuple[str, ...]
    corrected: tuple[tuple[str, str], ...] = ()  # (word as written, keyword it was read as)
    other: tuple[Finding, ...] = ()  # a two-workload brief's serving part (advisor/extract/workloads.py)


RULES: tuple[Callable[[Ctx], None], ...] = (
    rule_claims,  # first: marks claim sentences so time and rate rules skip them
    rule_reported_need,  # after rule_claims: "My vendor says we need 4x H100 to serve ...": checked
    rule_inventory_pipe,  # an inventory as a Markdown table "| host | gpu | count | status |" (all its rows)
    rule_owned_gpus,
    rule_owned_forms,
    rule_held_capacity,  # "The company holds a reserved AWS cluster of 32 H100"
    rule_machines_each,  # "we got 2 boxes w/ 8 H100 each"
    rule_usable_share,  # "... has 32 A100, but 20 of them belong to the vision group, so we get 12"
    rule_inventory_csv,  # an inventory CSV, "hostname,model,count,status,site", said to be what the team owns
    rule_owned_table,  # a pasted node listing (GPU.PRODUCT, GPU.COUNT) "that's our own cluster"
    rule_owned_layout,  # after the owned-count rules: "(2 nodes, InfiniBand)", "8x A100 each, 100 GbE"
    rule_owned_terms,  # "Our 1-year AWS reservation of 8x H200", "7 months into a 12-month commitment"
    rule_reservation,  # after the owned GPUs: whether they are a reservation, where, and the term left
    rule_reservation_term,  # "a 30-day reservation ... is that enough?": its length is the window asked about
    rule_owned_question,  # after the owned GPUs it asks about, before the deadline rules skip its hours
    rule_claim_before_term_ends,  # after rule_owned_question: "could we pretrain on them before then?"
    rule_claim_term,  # before the claim forms: "they need 64x H100 for 3 months ... Is that sized right?"
    rule_claim_forms,  # after the owned question: "Will 4x L40S hold it?", "16 of those", "only one server"
    rule_gpu_choice,
    rule_procurement,  # an RFQ's "The vendor shall provide 16 H100 SXM GPUs": the GPU and the quantity asked
    rule_gpu_options,  # after rule_gpu_choice: a clause that is only GPU options, '8x H200 or 8x B200'
    rule_gpu_lists,  # "h200s yes, b200s no", "What we don't want: AMD, L40S, or anything PCIe"
    rule_speed_claim,  # after rule_gpu_lists: "an H200 is 2x faster than an H100" (a claim to check)
    rule_claim_source,  # after the claim rules: "My vendor says ...": the claim is answered as theirs
    rule_claim_alternative,  # after rule_claim_source: a claim's GPU is its own; "better off with 8x H200?"
    rule_memory_question,  # "how much VRAM do I need?", "tell me the GPU memory per card needed"
    rule_count_question,  # "how many H100s do we need", "we'd rent H100s", "one month of compute time"
    rule_workload,
    rule_forward_only_workload,  # after rule_workload: 'embed 200M documents' is inference, not training data
    rule_always_on_serving,  # after rule_workload: "monthly cost of Llama 3.1 8B 24/7 on 1x L40S" is serving
    rule_method,
    rule_precision,
    rule_kv_precision,  # after rule_precision: "fp8 weights and an fp8 KV cache" (the cache's own precision)
    rule_model,
    rule_dataset,
    rule_training_shape,
    rule_stage_datasets,  # after rule_dataset: '60B tokens ... followed by a short SFT stage of ~150M'
    rule_budget,
    rule_budget_forms,  # after rule_budget: ranges with one multiplier, rupees and yen, amounts in words
    rule_budget_codes,  # after rule_budget_forms: PLN, SEK, NOK ... amounts; 'Max spend (USD): 45,000'
    rule_dollar_prefix,  # after the budget rules: 'A$ 5,000' is Australian dollars, 'NZ$' not USD
    rule_purchase_price,  # after the budget rules: "buy an 8x H100 server (~$250k)" is a price, not a budget
    rule_deadline,
    rule_deadline_phrases,  # after rule_deadline: a fuller reading of the same words wins
    rule_weekend,  # "finishes over a weekend": Friday evening to Monday morning
    rule_calendar_deadlines,  # working days, "Friday week", "sprint, which is Dec 2", weekday windows
    rule_deadline_forms,  # "by Friday EOD Pacific", "two weeks before that", "10 days max", "fri the 27th"
    rule_deadline_limits,  # after rule_deadline_forms: "10 hours is our limit", "we can't go over 10 h"
    rule_money_period,  # after the deadline rules: '$3,400 ... until the end of the year' lasts, isn't due
    rule_document_due_dates,  # after the deadline rules: 'camera-ready draft (due 9 December)' is the paper's
    rule_location,
    rule_cadence,
    rule_cadence_forms,  # after rule_cadence: a CPT's "every quarter", "each sprint", "twice a year"
    rule_utilisation,
    rule_weekly_window,  # "Mon–Fri, 08:00–20:00 only": the share of the week, and only then
    rule_runs_total,
    rule_serving_schedule,  # after the utilisation: "business hours only" stops rented GPUs outside them
    rule_horizon,
    rule_buy_or_rent_horizon,  # after rule_horizon: 'buy or rent?' with no horizon, over the default
    rule_buy_question,  # after rule_buy_or_rent_horizon: 'is it worth buying 8x H100?' weighs the purchase
    rule_serving,
    rule_concurrency_forms,  # after rule_serving: any noun 'at once', a share, a job title, a peak, a change
    rule_lengths,  # before rule_serving_io, which derives context and volume from the lengths
    rule_length_slots,  # after rule_lengths: a role word a few words from its figure, for a field unread
    rule_length_pairs,  # after the length rules: '1k prompt / 200 out', 'Prompt ~900, answer ~150'
    rule_item_prompt,  # after the length rules: "Each e-mail is roughly 400 tokens" is a batch job's prompt
    rule_forward_only_output,  # before rule_serving_io: a forward-only job's items get one output token
    rule_full_prompt,  # before rule_serving_io: 'a full 128k prompt', 'paste whole contracts of ~60k tokens'
    rule_serving_io,
    rule_power_forms,  # after rule_serving_io: '31c/kWh (AUD)', '₹9 per unit' replace a USD reading
    rule_per_item_volume,  # after rule_serving_io: '2.4M SKUs' ... 'Per SKU: ~220 output tokens'
    rule_output_each,  # after rule_per_item_volume: "Each translation is about 150 tokens" for N items
    rule_generation_chain,  # after the volume rules: "50k convos x 8 turns x ~300 tok per turn (output)"
    rule_forward_only_total,  # after rule_serving_io: 'over 102B input tokens' with no items counted
    rule_claim_rate,  # after the rate rules: a serving claim's aggregate rate, when no target was read
    rule_nightly_batch,  # after rule_serving_io: "2,500 PRs a night ... between 02:00 and 07:00"
    rule_stream_speed,  # after the rate rules: a rate whose sentence names the reader is each one's speed
    rule_no_latency_target,
    rule_ttft,
    rule_latency_percentile,  # after the latency rules: 'p95 latency under 4 s' holds at the slow end
    rule_preference,  # after the serving rules: a pair's prompt length is not a served prompt
    rule_availability,
    rule_constraints,
    rule_no_renting,  # after rule_constraints: 'we don't want to rent anything' with owned GPUs is on-prem
    rule_reserved_cloud,  # after rule_constraints: a reservation's region is its cloud; 'don't move clouds'
    rule_us_hosting,  # after rule_constraints: 'what GPUs should we get in the US' (no 'only')
    rule_region_elsewhere,  # "hosted in Japan", "Tokyo region": a place the catalog may not place offers in
    rule_colocation,  # "we have no data centre, we would need colocation": the buy side is colocated
    rule_provider_lists,  # "rules out Amazon, Microsoft and Google", "keep it off vast"
    rule_team_provider,  # after the provider rules: "We are on CoreWeave", "Our provider is CoreWeave"
    rule_baa_provider,  # after the provider rules: "on AWS (our BAA is there)": required
    rule_gpu_at_provider,  # "one L4 vs one L40S on GCP": the GPUs priced at that provider
    rule_pricing,
    rule_cannot_resume,  # after the pricing rules: 'our jobs can't checkpoint well': no spot, no community
    rule_can_resume,  # after rule_cannot_resume: 'the job is restartable': a lost host costs minutes
    rule_form_values,  # after the pricing rules: 'cloud = "gcp"', 'max_gpu_count = 16', 'spot ...?: No'
    rule_own_hardware_only,  # after rule_constraints: "we won't rent anything", "Nothing may leave"
    rule_stay_on,  # after the provider rules: "we're staying on Azure, that's non negotiable"
    rule_other_clouds,  # after the provider rules: "AWS shop (security does not allow other clouds)"
    rule_required_over_preferred,  # after the provider rules: "It has to be GCP" after "we'd prefer Nebius"
    rule_pricing_list,  # "Procurement constraint: AWS only, on-demand, no spot"
    rule_current_fleet,  # after the provider rules: "we're spending $40k/month on 8x H100 at AWS" is no rule
    rule_framework,
    rule_capex_budget,  # after the constraints: "Capex budget EUR 250k" buys hardware, unless told otherwise
    rule_total_budget,  # after rule_capex_budget: a budget for a buy-vs-rent over years is its total
    rule_buy_instead,  # "what if we buy the GPUs instead of renting?": the purchase is sized
    rule_followup_share,  # "and if we only got one of the two nodes?": part of the earlier set-up
    rule_corrections,  # a revised figure is matched to the value read (or known) before it
    rule_repairs,  # after rule_corrections: '20 people, er no, more like 35'; 'ok, 120 it is'
    rule_aside_figures,  # after the figure rules: "1,900 tok/s on the old pipeline -- other model, ignore"
    rule_deadline_margin,  # after the deadline rules: "two weeks for QA before the deadline"
    rule_amount_label,  # after rule_aside_figures: a form's "Amount: EUR 1.800" when no other budget stands
    rule_rate_for_new_deadline,  # after rule_corrections: a later turn's new deadline, the earlier volume
    rule_deadline_soft,  # after the deadline rules: "under 3 days would be nice" is a preference, no limit
    rule_ignored_quotes,  # last: "ignore the numbers in the thread below" drops the quoted message's findings
)


class RulesExtractor:
    """Offline, deterministic extractor. `reference_time` anchors relative deadlines ("by Friday");
    None means the current time when `extract` runs."""

    name = "rules"

    def __init__(self, reference_time: dt.datetime | None = None) -> None:
        self.reference_time = reference_time
        self._last: tuple[str, Analysis] | None = None  # the last text analysed and what was read from it

    def with_reference_time(self, when: dt.datetime | None) -> RulesExtractor:
        """A copy anchored at `when` (the eval harness pins a date so 'by Friday' is reproducible)."""
        return RulesExtractor(reference_time=when)

    def analyse(self, text: str, prior: WorkloadProfile | None = None) -> Analysis:
        """All findings in `text` (before merging), and the sentences ignored as instructions to a machine.
        `prior`: the profile of the earlier turns, which a correction may refer to ("scratch the 70M")."""
        with remembering():  # a pattern asked the same of a sentence again answers from memory (regex_memo)
            analysis = self._analyse(text, prior)
        self._last = (text, analysis)
        return analysis

    def _analyse(self, text: str, prior: WorkloadProfile | None) -> Analysis:
        cleaned = split_sentences(text)
        sentences, corrected = fix_sentences(cleaned.sentences)
        with reading_all([s.text for s in sentences]):  # the parts read share one word index
            return self._read_parts(cleaned.ignored, sentences, corrected, prior)

    def _read_parts(
        self,
        ignored: tuple[str, ...],
        sentences: tuple[Sentence, ...],
        corrected: list[tuple[str, str]],
        prior: WorkloadProfile | None,
    ) -> Analysis:
        ref = self.reference_time or dt.datetime.now(dt.UTC)

        def read(part: tuple[Sentence, ...]) -> list[Finding]:
            ctx = Ctx(sentences=_distinct(part), reference_time=ref, prior=prior)
            if ctx.sentences:
                # a pattern whose words the text lacks: asked once per text
                with reading([s.text for s in ctx.sentences]):
                    for rule in RULES:
                        rule(ctx)
            return ctx.findings

        # the readings of a split tried keep each sentence's findings for the readings after them: the other
        # part, or the whole text when no split holds (sentence_memo.py)
        with recording():
            split = self._split(sentences, read, prior)
        if split is not None:
            analysis = Analysis(findings=split.training, ignored=ignored, corrected=tuple(corrected),
                                other=split.serving)  # fmt: skip
        else:
            analysis = Analysis(findings=tuple(read(sentences)), ignored=ignored, corrected=tuple(corrected))
        return analysis

    @staticmethod
    def _split(
        sentences: tuple[Sentence, ...],
        read: Callable[[tuple[Sentence, ...]], list[Finding]],
        prior: WorkloadProfile | None,
    ) -> Split | None:
        """The two workloads' findings when the text reads as two (the ways below, in order); None: one."""
        split = split_parts(sentences, read)  # a training and a serving section: two workloads
        # "fine-tune X on Y and then serve it to Z users"; "host X now, in Q1 we'll also fine-tune it";
        # "Everything EU only" and a sentence of constraints alone are both parts'. The second reading is
        # tried when the first cuts where no part of its own follows ("... Serving stays where it is.")
        for chat in (chat_sections, serve_then_train):
            if split is None and (cut := chat(sentences)) is not None:
                split = split_parts(share_constraints(cut, read), read)
        if split is None and (cut := content_sections(sentences, read)) is not None:
            split = split_parts(share_constraints(cut, read), read)  # "## Demo", "Q: ... at once?"
        if split is None:
            split = step_parts(sentences, read)  # "(1) ... (2) ...", "Phase A: ... Phase B: ..."
        if split is None:
            split = batch_beside_serving(sentences, read)  # serving, "on top of that, every night we ..."
        if split is None:
            split = batch_sections(sentences, read)  # "SCOPE OF THE SERVICE" ... "SCOPE OF THE BATCH JOB"
        if split is None:
            split = continued_turn(sentences, read, prior)  # "After that we'd serve it to ~120 users"
        return split

    def analysis_of(self, text: str) -> Analysis | None:
        """What the last `analyse` (or `extract`) read, if it read exactly `text`: the input's accounting
        reuses it instead of reading the text a second time."""
        last = self._last
        return last[1] if last is not None and last[0] == text else None

    def extract(self, text: str, prior: WorkloadProfile | None = None) -> WorkloadProfile:
        """`prior` with the facts of `text` merged in (see advisor.extract.base for the merge rules)."""
        return merge_findings(prior, self.analyse(text, prior).findings)


SAME_SENTENCE_READS = 2
"""Times one sentence, word for word, is read: a repetition states nothing new (20,000 characters of
"EU only. " were 2,222 sentences through every rule), and two keep "A. B. A." reading as said last."""


def _distinct(part: tuple[Sentence, ...]) -> tuple[Sentence, ...]:
    """`part` without the repeats of a sentence beyond SAME_SENTENCE_READS (the input's accounting counts
    a repeat as read when its first reading gave a fact)."""
    seen: dict[str, int] = {}
    out: list[Sentence] = []
    for s in part:
        key = " ".join(s.text.lower().split())
        if key.endswith(";"):  # a table cell ("H100 SXM;") repeated in the next row is that row's own cell
            key = f"{s.block}:{key}"
        seen[key] = seen.get(key, 0) + 1
        if seen[key] <= SAME_SENTENCE_READS:
            out.append(s)
    return tuple(out) if len(out) < len(part) else part


# the rule modules' plain compiled patterns run only on texts that hold their words (regex_keys.key_patterns)
_RULE_MODULES = [m for name, m in list(sys.modules.items()) if name.startswith("advisor.extract.rules_")]
OTHER_MODULES = ("advisor.extract.", "advisor.llm.guard")  # the rest of what reads a text
KEYED_PATTERNS = key_patterns(_RULE_MODULES)
# the rest remember their answers while a text is read: one sentence asked again by another rule, or by the
# other part of a two-workload brief, is answered once (regex_memo.memo_patterns)
MEMO_PATTERNS = memo_patterns(_RULE_MODULES)
# the other modules' (sections, workloads, steps, injection ...) are keyed too, the rest test the character
# a match opens with (regex_first.py)
_OTHER_MODULES = [m for name, m in list(sys.modules.items()) if name.startswith(OTHER_MODULES)]
KEYED_PATTERNS += key_patterns(_OTHER_MODULES)
FIRST_CHAR_PATTERNS = first_char_patterns(_OTHER_MODULES)
