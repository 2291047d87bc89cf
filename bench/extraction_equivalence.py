"""Rules extraction, before and after a speed change: a digest of everything the offline extractor reads from
every eval case, so a restructuring that must not change the output can be checked to leave it unchanged.

Per case of every evals/cases* set (each turn read with the earlier turns' profile, pinned at the case's
reference time, as evals/harness.py reads it): the rules' analysis (findings, ignored sentences, typo
corrections, the other workload), the merged profile, and the input's accounting; then each text through the
whole read Conversation.send does (bench/extraction_speed.py's `whole_read`: odd amounts blanked, the
instruction guard, the accounting of that profile). Also bench/extraction_speed.py's 20,000-character
messages (hostile tokens, the eval briefs repeated, different briefs one after another). One SHA-256 per
case (per message) goes to the file; nothing of a case's text or reading is printed.

Blind sets (evals/cases_v19, v20, v21): digests only, keyed by position, and a mismatch is reported as a
count.

Run: .venv/bin/python -m bench.extraction_equivalence --write /tmp/before.json   (before the change)
     .venv/bin/python -m bench.extraction_equivalence --check /tmp/before.json   (after it)
"""

from __future__ import annotations

import argparse
import hashlib
import json
from pathlib import Path

from advisor.extract.accounting import account_for
from advisor.extract.base import merge_findings
from advisor.extract.odd_values import blank_out, find_odd_values
from advisor.extract.rules import Analysis, RulesExtractor
from advisor.llm.extractor import drop_instructed
from bench.extraction_speed import HOSTILE_CHARS, HOSTILE_TOKENS, mixed_message
from evals.harness import CASES_DIR, REFERENCE_TIME, case_turns, load_cases
from tools.profile import WorkloadProfile

# compared by digest only: never printed, never opened beyond reading
BLIND_SETS = ("cases_v19", "cases_v20", "cases_v21")


def _analysis_text(analysis: Analysis) -> str:
    return repr((analysis.findings, analysis.ignored, analysis.corrected, analysis.other))


def _whole_read(extractor: RulesExtractor, text: str) -> str:
    """bench/extraction_speed.py's whole read, with what it produced."""
    odd = find_odd_values(text)
    read = blank_out(text, odd)
    profile = drop_instructed(extractor.extract(read), read, None)
    account = account_for(read, profile, None, extractor.analysis_of(read))
    return repr(odd) + profile.model_dump_json() + account.model_dump_json()


def case_digest(texts: list[str], extractor: RulesExtractor) -> str:
    """One digest of the harness's reading of a case's turns and the whole read of each turn."""
    h = hashlib.sha256()
    prior: WorkloadProfile | None = None
    for text in texts:
        analysis = extractor.analyse(text, prior)
        profile = merge_findings(prior, analysis.findings)
        account = account_for(text, WorkloadProfile(), analysis=analysis)
        h.update(_analysis_text(analysis).encode())
        h.update(profile.model_dump_json().encode())
        h.update(account.model_dump_json().encode())
        prior = profile
    for text in texts:
        h.update(_whole_read(extractor, text).encode())
    return h.hexdigest()


def digests() -> dict[str, dict[str, str]]:
    out: dict[str, dict[str, str]] = {}
    for root in sorted(CASES_DIR.parent.glob("cases*")):
        if not root.is_dir():
            continue
        blind = root.name in BLIND_SETS
        per: dict[str, str] = {}
        for i, case in enumerate(load_cases(root)):
            extractor = RulesExtractor(reference_time=case.reference_time or REFERENCE_TIME)
            try:
                digest = case_digest(case_turns(case, root), extractor)
            except Exception as exc:  # noqa: BLE001 - an error is an outcome to compare too
                digest = "error:" + hashlib.sha256(f"{type(exc).__name__}: {exc}".encode()).hexdigest()
            per[str(i) if blind else case.id] = digest
        out[root.name] = per
    extractor = RulesExtractor(reference_time=REFERENCE_TIME)
    messages: dict[str, str] = {}
    for token in HOSTILE_TOKENS:
        messages[repr(token)] = case_digest([(token * (HOSTILE_CHARS // len(token) + 1))[:HOSTILE_CHARS]],
                                            extractor)  # fmt: skip
    messages["mixed"] = case_digest([mixed_message(HOSTILE_CHARS)], extractor)
    briefs = "\n\n".join(text for case in load_cases() if case.brief for text in case_turns(case))
    messages["long"] = case_digest([((briefs + "\n\n") * (HOSTILE_CHARS // len(briefs) + 1))[:HOSTILE_CHARS]],
                                   extractor)  # fmt: skip
    out["messages_20k"] = messages
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--write", type=Path, help="write the digests to this file")
    group.add_argument("--check", type=Path, help="compare with the digests in this file")
    args = parser.parse_args()
    now = digests()
    total = sum(len(v) for v in now.values())
    if args.write:
        args.write.write_text(json.dumps(now, indent=1, sort_keys=True), encoding="utf-8")
        print(f"{total} digests over {len(now)} sets written to {args.write}")
        return 0
    before = json.loads(args.check.read_text(encoding="utf-8"))
    differ = 0
    for name in sorted(set(before) | set(now)):
        old, new = before.get(name, {}), now.get(name, {})
        keys = sorted(set(old) | set(new))
        bad = [k for k in keys if old.get(k) != new.get(k)]
        differ += len(bad)
        if bad and name in BLIND_SETS:
            print(f"{name}: {len(bad)} of {len(keys)} differ")
        elif bad:
            print(f"{name}: {len(bad)} of {len(keys)} differ: {', '.join(bad)}")
    print(f"{total} digests compared: {'all identical' if not differ else f'{differ} differ'}")
    return 1 if differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
