"""Forms of text normalised before the rules read it (issue 12; evals v18, read as development data), each
keeping the length of what it rewrites where it can, so offsets into the text stay (rules_text.clean):

- a spoken filler in a dictation or transcript is blanked ("answers maybe five hundred um and ...");
- a numbered question and its answer on the next line, as tender clarification logs and FAQs write them, is
  one statement ("Q6: Availability?" / "A6: 99.9% monthly" -> "Availability: 99.9% monthly"; "Is spot
  acceptable?" / "No." -> "spot: no"); a yes/no answer to another kind of question is left as it is;
- an Ollama model tag names the model ("qwen2.5:14b" -> "qwen2.5 14b");
- a --help line with the value the team passes is that flag and value ("--lora-rank N  default 8 (we pass
  16)" -> "--lora-rank 16"; the default and a set of choices are not used);
- an org-mode timestamp is a date ("DEADLINE: <2026-12-04 Fri>"; org always writes the weekday, so a chat
  log's "[2026-11-17 16:02]" is no such stamp);
- a figure in bold is the figure ("Tokens: **40B**").
"""

from __future__ import annotations

import re

# an Ollama model tag, name and size joined by a colon: "qwen2.5:14b", "llama3.1:70b" (same length)
_OLLAMA_TAG = re.compile(
    r"\b(?P<name>(?:llama|qwen|mistral|mixtral|gemma|phi|deepseek|codellama|falcon|yi)[\w.-]*):(?P<size>\d+(?:\.\d+)?[bm])\b",
    re.I,
)
# a --help line with the value the team passes: "--lora-rank N   default 8 (we pass 16)", "--method
# {full,lora,qlora} (we pass: lora)": the flag with that value (the default and the choices are not used)
_PASSED_FLAG = re.compile(
    r"^(?P<lead>[ \t]*(?:-\w,\s*)?)(?P<flag>--[\w-]+)\b[^\n(]*\(\s*we\s+(?:pass|use|set|run\s+with)\s*:?\s*"
    r"(?P<v>[^()\s]+)\s*\)",
    re.M | re.I,
)


def _passed_flag(m: re.Match[str]) -> str:
    said = f"{m.group('lead')}{m.group('flag')} {m.group('v')}"
    return said.ljust(len(m.group(0)))  # the same length: offsets after it stay


# a spoken filler in a dictation or transcript, blanked (same length): "five hundred um and it's gotta be"
_FILLER = re.compile(r"(?<![\w'-])(?-i:[Uu]m+|[Uu]h+|[Ee]rm+|[Uu]hm+)(?![\w'-])\s*,?")


# an org-mode timestamp, its brackets blanked (same length): "<2026-12-04 Fri>", "[2026-11-20 Fri 10:00]"
# (org always writes the weekday: a chat log's "[2026-11-17 16:02]" is no such stamp)
_ORG_STAMP = re.compile(r"[<\[](?P<stamp>\d{4}-\d{2}-\d{2}\s+[A-Za-z]{2,3}\.?(?:\s+\d{1,2}:\d{2})?)[>\]]")
# a figure in bold, its markers blanked (same length, so offsets stay): "**40B**", "__2048__"
_BOLD_FIGURE = re.compile(r"(?<![*\w])(?:\*\*|__)(?P<fig>[~≈$€£]?\d[^*_\n]{0,30}?)(?:\*\*|__)(?![*\w])")


# a numbered question and its answer on the next line, as tender clarification logs and FAQs write them:
# "Q6 (Bidder B): Availability?" / "A6: 99.9% monthly" is one statement, "Availability: 99.9% monthly"
_QA_PAIR = re.compile(
    r"^(?P<label>[ \t]*Q(?P<n>\d{1,3})\b[^:\n?]{0,40}:[ \t]*)(?P<q>[^\n?]{1,120})\?[ \t]*\n"
    r"[ \t]*A(?P=n)\b[ \t]*[:.)-][ \t]*(?P<a>[^\n]*)",
    re.M,
)
# a yes/no question about whether something is allowed: "Is spot / pre-emptible capacity acceptable?" / "No."
_ALLOWED_ASKED = re.compile(
    r"^(?:is|are)\s+(?P<x>.+?)\s+(?:acceptable|allowed|permitted|ok(?:ay)?|fine|an\s+option)$", re.I
)
_YES_NO = re.compile(r"^(?P<yn>yes|no)\b[.!]?\s*(?P<rest>.*)$", re.I)


def _qa_pair(m: re.Match[str]) -> str:
    question, answer = m.group("q").strip(), m.group("a").strip()
    yn = _YES_NO.match(answer)
    if yn is not None:
        allowed = _ALLOWED_ASKED.match(question)
        if allowed is None:
            return m.group(0)  # "Is the deadline firm?" / "Yes.": no statement to rebuild
        verdict = "allowed" if yn.group("yn").lower() == "yes" else "no"
        return f"{m.group('label')}{allowed.group('x')}: {verdict}. {yn.group('rest')}".rstrip()
    return f"{m.group('label')}{question}: {answer}"


def without_fillers(text: str) -> str:
    """`text` with spoken fillers blanked (the same length)."""
    return _FILLER.sub(lambda m: " " * len(m.group(0)), text)


def pasted_forms(text: str) -> str:
    """`text` with the pasted forms above rewritten as the statements they make."""
    text = _QA_PAIR.sub(_qa_pair, text)
    text = _OLLAMA_TAG.sub(r"\g<name> \g<size>", text)
    text = _PASSED_FLAG.sub(_passed_flag, text)
    text = _ORG_STAMP.sub(r" \g<stamp> ", text)
    return _BOLD_FIGURE.sub(r"  \g<fig>  ", text)
