"""Names in text -> catalog ids: models (with sizes), GPUs, providers.

Models and GPUs resolve through the bundled catalog (tools.catalog.load, ids and aliases matched
case-, space-, dash- and dot-insensitively). A model name the catalog does not know still yields its
size when the name carries one ("gpt-oss 20b" -> 20B parameters, no model id); a family name with a
size but no version ("llama 70b") maps to the newest catalog model of that family and size, marked
inferred.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Any

from advisor.extract.regex_keys import keyed
from advisor.extract.regex_memo import per_reading
from tools.catalog.load import load_catalog, normalize_name

# Family words that start a model name; the capture continues over version, size and variant tokens.
_FAMILIES = (
    r"code\s?llama|llama|mistral|mixtral|ministral|codestral|qwen|qwq|gemma|phi|deepseek|falcon|gpt[\s-]?oss|"
    r"gpt-?j|gpt-?neox|olmo|granite|command[\s-]?r|yi|starcoder|smollm|nemotron|mpt|bloom|pythia|opt"
    # Slack shorthand for Llama with its version and a size: "l3.1 8b", "L3.3-70B" (not "L3 cache")
    r"|l(?=[1-4](?:\.\d)?[\s_-]*\d+(?:\.\d+)?\s*b\b)"
)
_TOKEN = (
    r"(?:[\s_-]*(?:v?\d+(?:\.\d+)?(?:x\d+(?:\.\d+)?)?[bm]?|a\d+(?:\.\d+)?b|mini|small|medium|large|nemo|"
    r"instruct|chat|base|it|hf|coder|moe|r1|v\d(?:\.\d)?)(?![a-z]))"
)
MODEL_RE = keyed(rf"\b(?:meta[\s-]?)?(?P<family>{_FAMILIES})(?P<rest>{_TOKEN}{{0,4}})", re.I)
# A name spread over a phrase, as people who do not know the ids write it: "Llama 3.1, the 8 billion one",
# "Qwen 2.5, the 14B size", "the small Qwen, version 2.5, the 3-billion one", "Mistral's 7B": the family,
# an optional version, then the size in an apposition (or a possessive). Read as "<family> <version> <size>b".
_SPREAD = keyed(
    rf"\b(?P<family>{_FAMILIES})(?:(?P<poss>'s)|(?P<ver>[\s-]*v?\d+(?:\.\d+)?)?\s*,\s*(?:(?:version|v)\s*"
    r"(?P<ver2>\d+(?:\.\d+)?)\s*,\s*)?(?:the|its|in\s+the)(?:\s+(?:small|smallest|big|biggest|large|tiny|medium))?)"
    r"\s+(?P<size>\d+(?:\.\d+)?)[\s-]*(?:(?P<unit>billion|bn|b)\b(?![.,]\d)(?!\s*(?:tokens?|toks?|words|rows|"
    r"examples|samples|records|pairs|documents|docs)\b)|(?P<munit>million|m)\b(?=[\s-]*(?:param|one\b|size\b)))"
    r"(?:[\s-]*param(?:eter)?s?)?(?:\s+(?:one|size|model|version|variant))?",
    re.I,
)
SIZE_IN_NAME = re.compile(r"(?<![x\d.])(\d+(?:\.\d+)?)\s*([bm])\b", re.I)

# Sizes of models named without a size, for when the catalog lacks them (from their model cards).
KNOWN_SIZES_B: dict[str, float] = {
    "gptoss20b": 20.9,  # openai/gpt-oss-20b model card: 21B total parameters
    "gptoss120b": 116.8,  # openai/gpt-oss-120b model card: 117B total parameters
    "deepseekr1": 671.0,  # deepseek-ai/DeepSeek-R1 model card: 671B total parameters
}

# "A100 80GB (PCIe)": a form factor in brackets is part of the name (expert review 10, R20)
# "(?<=\d[x×])": a count glued to the name ("Is 8xH100 enough", expert review 6 R04), no word boundary
GPU_RE = re.compile(
    r"(?:\b|(?<=\d[x×]))(?:nvidia\s+|amd\s+|intel\s+)?"
    r"(?P<gpu>(?:geforce\s+)?rtx\s?(?:a?\d{4}|pro\s?\d{4})(?:\s?ti)?|"
    r"[ahbl]\d{2,3}[a-z]?(?:[\s-]?(?:sxm\d?|pcie|nvl|\d{2,3}\s?gb)|\s?\((?:sxm\d?|pcie|nvl)\))*|a[2-6]000|l4|"
    r"l40s?|a10g?|t4|v100|p100|gh200|gb200|mi\d{3}x?|gaudi\s?\d)(?:s|'s)?(?:\b|(?<=\)))",
    re.I,
)

# Provider names as written -> provider id (lower-case, as the price catalog spells them).
PROVIDERS: dict[str, str] = {
    # spelt out or heard by voice-to-text (rd12): "A W S", "G C P", "a zur", "lamda", "core weave"
    r"aws|a\.w\.s\.?|a w s|amazon(?: web services)?|sagemaker|ec2": "aws",
    # the company alone for its cloud (evals v15: "no AWS, no Azure, no Google"); not its models, other
    # products or a Hugging Face id ("Google's Gemma", "Gemma by Google", "google/gemma-3-27b", "Colab")
    r"gcp|g\.c\.p\.?|g c p|google cloud(?: platform)?|vertex(?: ai)?"
    r"|(?<!by\s)google(?!['\u2019]s\b|\s*/|[\s-]+(?:gemma|gemini|colab|docs?|drive|sheets|search|scholar|meet"
    r"|workspace|deepmind|brain|research|models?|t5|flan|palm|bert|ai\s+studio|analytics|ads|play|maps|chrome"
    r"|android|fonts?|forms?|translate|paper|team)\b)": "gcp",
    # the company for its cloud (rd15): "our enterprise agreement is with Microsoft"; not its other
    # products or models ("Microsoft Teams", "Microsoft's Phi-3")
    r"azure|microsoft azure|azure ml|a zur(?:e)?|microsoft(?!['\u2019]s\b|[\s-]+(?:teams|365|office|word"
    r"|excel|sharepoint|outlook|copilot|graph|entra|research|phi|windows|dynamics))": "azure",
    r"lamb?da(?: labs| cloud)?": "lambda",
    r"runpod[\s-]secure(?: cloud)?": "runpod-secure",
    r"runpod[\s-]community(?: cloud)?": "runpod-community",
    r"run[\s-]?pod": "runpod",
    r"core ?weave": "coreweave",
    r"nebius": "nebius",
    r"vast(?:\.ai|[\s-]?ai)?": "vast-ai",
    r"ovh(?:cloud)?": "ovhcloud",
    r"scaleway": "scaleway",
    r"hetzner": "hetzner",
    r"oracle(?: cloud)?|oci": "oci",
    r"paperspace": "paperspace",
    r"together(?: ai|\.ai)": "together",
    r"fluidstack": "fluidstack",
    r"datacrunch|verda": "datacrunch",
    r"hyperstack": "hyperstack",
    r"crusoe": "crusoe",
    r"tensordock": "tensordock",
    r"genesis cloud": "genesiscloud",
    r"jarvis ?labs": "jarvislabs",
    r"spheron": "spheron",
    # clouds the price catalog does not list, named so an exclusion of one reads as its own statement ("AWS or
    # GCP (not IBM)" excluded AWS and GCP: the aside's "not" found no provider inside and ran on to theirs)
    # and is reported as nothing to exclude (tools/provider_scope.py); the company, not its models or other
    # products ("IBM Granite", "Alibaba's Qwen": Alibaba only with "Cloud")
    r"ibm(?:\s+cloud)?(?![\s-]+(?:granite|watson|research|power|z\b|mainframe))": "ibm",
    r"alibaba\s+cloud|aliyun": "alibaba-cloud",
    r"tencent\s+cloud": "tencent-cloud",
    r"digital\s?ocean": "digitalocean",
    r"vultr": "vultr",
    r"akamai(?:\s+cloud)?|linode": "akamai",
    r"cudo(?:\s+compute)?": "cudo",
}
# A name that covers several catalog ids: the price catalog splits RunPod by tier, and a user who writes
# "RunPod" means either of them.
PROVIDER_FAMILIES: dict[str, tuple[str, ...]] = {"runpod": ("runpod-community", "runpod-secure")}
HYPERSCALERS = ("aws", "gcp", "azure")
PROVIDER_RE = keyed(r"\b(?:" + "|".join(f"(?P<p{i}>{k})" for i, k in enumerate(PROVIDERS)) + r")\b", re.I)
_PROVIDER_IDS = list(PROVIDERS.values())


_VARIANTS = frozenset({"instruct", "chat", "base", "it", "hf"})


@dataclass(frozen=True)
class ModelMention:
    """A model named in text: catalog id (None when unknown), size in billions and where it came from."""

    text: str
    start: int
    end: int
    model_id: str | None
    params_b: float | None
    size_stated: bool
    id_inferred: bool = False
    catalog_params_b: float | None = None


@functools.lru_cache(maxsize=1)
def _catalog() -> Any:
    return load_catalog()


def _normalize(name: str) -> str:
    return normalize_name(name)


def _params_b(arch: Any) -> float:
    return float(arch.published_params_b or arch.param_count() / 1e9)


def _family_key(family: str) -> str:
    return re.sub(r"[^a-z]", "", family.lower())


@per_reading
def find_models(text: str) -> list[ModelMention]:
    """Every model name in `text`, resolved against the catalog where possible; a name spread over a
    phrase ("Llama 3.1, the 8 billion one") is read as the name it spells, with the phrase's span."""
    spread: list[ModelMention] = []
    for m in _SPREAD.finditer(text):
        unit = "m" if m.group("munit") else "b"
        version = (m.group("ver") or m.group("ver2") or "").strip(" -")
        name = " ".join(x for x in (m.group("family"), version, m.group("size") + unit) if x)
        spread.extend(
            ModelMention(**{**vars(x), "text": m.group(0), "start": m.start(), "end": m.end()})
            for x in _find_models(name)[:1]
        )
    plain = [x for x in _find_models(text) if not any(x.start < y.end and y.start < x.end for y in spread)]
    return sorted([*plain, *spread], key=lambda x: x.start)


# A distilled model named after its teacher and its base (expert review 17, R16): "deepseek-r1-distill-
# llama-70b", "R1-Distill-Qwen-32B". The weights are the base architecture's (the DeepSeek-R1 model card,
# huggingface.co/deepseek-ai/DeepSeek-R1, "Distilled Model" table, names each base), so the name resolves
# through the base's catalog alias "DeepSeek-R1-Distill-<Base>-<N>B", never to the 671B teacher.
_DISTILL = re.compile(
    r"\b(?:deepseek[\s_-]*)?r1[\s_-]*distill(?:ed)?[\s_-]*(?P<base>llama|qwen)[\s_-]*(?:\d(?:\.\d)?[\s_-]+)?"
    r"(?P<size>\d+(?:\.\d+)?)\s*b\b",
    re.I,
)


def _distilled(text: str, cat: Any) -> list[ModelMention]:
    """The distilled models named in `text` that the catalog knows by their base (see _DISTILL)."""
    out: list[ModelMention] = []
    if cat is None or "distill" not in text.lower():
        return out
    for m in _DISTILL.finditer(text):
        name = f"DeepSeek-R1-Distill-{m.group('base').title()}-{m.group('size')}B"
        if cat.has_model(name):
            arch = cat.model(name)
            size, cat_b = float(m.group("size")), _params_b(arch)
            mention = ModelMention(m.group(0), m.start(), m.end(), arch.id, size, True, False, cat_b)
            out.append(mention)
    return out


def _find_models(text: str) -> list[ModelMention]:
    cat = _catalog()
    out: list[ModelMention] = _distilled(text, cat)
    taken = [(x.start, x.end) for x in out]
    for m in MODEL_RE.finditer(text):
        if any(a < m.end() and m.start() < b for a, b in taken):
            continue  # part of a distilled model's name: "deepseek-r1" in "deepseek-r1-distill-llama-70b"
        rest = m.group("rest")
        family = "llama" if m.group("family").lower() == "l" else m.group("family")
        tokens = re.findall(r"[^\s_-]+", rest)
        size = None
        sm = SIZE_IN_NAME.search(rest)
        if sm:
            size = float(sm.group(1)) * (1e-3 if sm.group(2).lower() == "m" else 1.0)
        if not tokens and size is None and _family_key(family) in ("phi", "yi", "opt", "mpt"):
            continue  # a bare short word, not a model name
        model_id = None
        cat_params = None
        inferred = False
        if cat is not None:
            # the longest prefix of the mention that the catalog knows
            for k in range(len(tokens), -1, -1):
                candidate = family + " " + " ".join(tokens[:k])
                if k == 0 and size is not None:
                    break
                if cat.has_model(candidate):
                    arch = cat.model(candidate)
                    model_id, cat_params = arch.id, _params_b(arch)
                    break
            versioned = any(not SIZE_IN_NAME.fullmatch(t) and t.lower() not in _VARIANTS for t in tokens)
            if model_id is None and size is not None and not versioned:
                fam = _family_key(family)
                same = [
                    a
                    for a in cat.models
                    if _normalize(a.id).startswith(fam) and abs(_params_b(a) - size) <= 0.1 * size
                ]
                if same:
                    model_id, cat_params, inferred = same[-1].id, _params_b(same[-1]), True
        if model_id is None and size is None:
            size = KNOWN_SIZES_B.get(_normalize(m.group(0)))
            if size is None and not tokens:
                continue  # a bare family word; a family and version without size is still a mention
        out.append(
            ModelMention(
                text=m.group(0).strip(),
                start=m.start(),
                end=m.end(),
                model_id=model_id,
                params_b=size if (sm is not None) else (cat_params if cat_params is not None else size),
                size_stated=sm is not None,
                id_inferred=inferred,
                catalog_params_b=cat_params,
            )
        )
    return sorted(out, key=lambda x: x.start)


def resolve_gpu(name: str) -> str:
    """Catalog id of a GPU name ('H100s' -> 'h100-sxm'), or the cleaned name when the catalog lacks it."""
    name = _BRACKETED_FORM.sub(r" \g<form>", name)
    cleaned = (
        re.sub(r"(?:'s|s)$", "", name.strip(), flags=re.I) if not name.lower().endswith("l40s") else name
    )
    cat = _catalog()
    if cat is not None:
        for cand in (cleaned, name):
            if cat.has_gpu(cand):
                return str(cat.gpu(cand).id)
        # the memory written where the catalog's aliases do not have it: "H100 80GB SXM", "H100 SXM 80GB"
        # are the 80 GB H100 SXM (the size must be the card's own: "H100 40GB" is no catalog card)
        mem = _MEMORY_WORD.search(cleaned)
        if mem is not None:
            bare = _MEMORY_WORD.sub(" ", cleaned).strip()
            if cat.has_gpu(bare) and round(cat.gpu(bare).memory_gb) == int(mem.group("gb")):
                return str(cat.gpu(bare).id)
    return re.sub(r"\s+", "-", cleaned.lower())


_BRACKETED_FORM = re.compile(r"\s*\(\s*(?P<form>sxm\d?|pcie|nvl)\s*\)", re.I)
_MEMORY_WORD = re.compile(r"[\s-]*(?P<gb>\d{2,3})\s*gb\b", re.I)


def provider_id(name: str) -> str:
    """Provider id for a provider name as written ('Lambda Labs' -> 'lambda')."""
    m = PROVIDER_RE.fullmatch(name.strip())
    if m is None:
        return name.strip().lower()
    for i, pid in enumerate(_PROVIDER_IDS):
        if m.group(f"p{i}"):
            return pid
    return name.strip().lower()


def find_providers(text: str) -> list[tuple[str, int, int]]:
    """(provider id, start, end) of every provider named in `text`, as the price catalog spells it
    ("vastai" -> vast-ai); a family name gives each of its ids ("RunPod" -> runpod-community and
    runpod-secure)."""
    global _last_providers
    seen, found = _last_providers
    if seen is not text:  # five rules ask of each sentence: read once per text object
        out: list[tuple[str, int, int]] = []
        for m in PROVIDER_RE.finditer(text):
            # the alternatives are top-level groups p0, p1, ...: the one matched is the last to close
            # (https://docs.python.org/3/library/re.html#re.Match.lastgroup), as the first non-empty one was
            if (name := m.lastgroup) is not None and m.group(name):
                pid = _PROVIDER_IDS[int(name[1:])]
                out.extend((p, m.start(), m.end()) for p in PROVIDER_FAMILIES.get(pid, (pid,)))
        found = tuple(out)
        _last_providers = (text, found)
    return list(found)


_last_providers: tuple[str | None, tuple[tuple[str, int, int], ...]] = (None, ())
