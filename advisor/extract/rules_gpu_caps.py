"""The ways a cap on the GPU count is written (read by advisor/extract/rules_gpus.py rule_gpu_choice; moved
here to keep that module under 600 lines): "at most 8 GPUs", "8 GPUs max", "on a single GPU", "quota for 2
gpus", "no bigger than a 4-GPU box", "H100 only, at most 32 at once", "GPU count: at most 8", "gpus=8  # upper
bound". Each alternative names its count group num, num2 ... num16 (1 when none: "single GPU")."""

from __future__ import annotations

import re

from advisor.extract.rules_ctx import Gated, I
from advisor.extract.rules_text import NUMBER

MAX_GPU_GROUPS = ("num", *(f"num{i}" for i in range(2, 17)))
MAX_GPUS = Gated(
    re.compile(
        rf"\b(?:at\s+most|no\s+more\s+than|not\s+more\s+than|max(?:imum)?(?:\s+of|\s+is)?|up\s+to|limited\s+to"
        rf"|capped\s+at|cap(?:ped)?\s+(?:it\s+)?(?:at|to)|a\s+cap\s+of|a\s+quota\s+of|quota\s+(?:is|of)"
        rf"|only\s+(?:get|have|use)|only)\s+"
        rf"(?P<num>{NUMBER})\s+(?:\w+\s+)?(?:gpus?|cards?|accelerators?)\b"
        rf"|\b(?:on|to|in(?:to)?|with|using|fits?\s+(?:on|in(?:to)?))\s+(?:a\s+single|one|1|single)"
        rf"[\s-]+(?:gpus?|cards?)\b"
        rf"|\bsingle[\s-]gpu\b"
        rf"|\b(?P<num2>{NUMBER})\s+(?:gpus?|cards?)\s+(?:max(?:imum)?|at\s+most|tops|(?:is|are)\s+(?:the|our)\s+"
        rf"(?:ceiling|limit|cap|max(?:imum)?)|(?:is|are)\s+all\s+we\s+can\s+(?:get|afford|use|fit))\b"
        # "H100s only, max 8 of em", "(only got) quota for 2 gpus"
        rf"|\bmax(?:imum)?\s+(?P<num3>{NUMBER})\s+of\s+(?:em|them|those)\b"
        rf"|\bquota\s+for\s+(?P<num4>{NUMBER})\s+(?:\w+\s+)?(?:gpus?|cards?|accelerators?)\b"
        # one machine of N GPUs, or money for N: "served from a single 8-GPU box", "budget for ONE gpu"
        rf"|\b(?:a\s+single|one|1)\s+(?P<num6>\d+)[\s-]*gpu\s+(?:box|node|server|machine)\b"
        rf"|\bbudget\s+for\s+(?P<num7>{NUMBER})\s+(?:\w+\s+)?(?:gpus?|cards?)\b"
        # a cap before a GPU's name: "we can get up to 64 H100s", "at most 16x A100"
        rf"|\b(?:up\s+to|at\s+most|no\s+more\s+than|max(?:imum)?(?:\s+of)?)\s+(?P<num5>{NUMBER})\s*(?:x\s*|×\s*)?"
        r"(?=(?:nvidia\s+)?(?:[ahlbv]\d{2,3}|rtx|gh200|gb200|mi\d{3})\w*s?\b)"
        # rd15, the other ways a cap is written: a refusal verb ("we can't use more than 2 GPUs", "must not
        # exceed 8 GPUs"), an abbreviation or sign ("max. 4 gpus", "≤ 8 GPUs"), a cap noun ("a hard cap of
        # 32 GPUs"), a key and its value ("GPU limit: 4", "max GPUs = 8"), room in a case ("we can only
        # fit 2 in the chassis"), money that caps the count ("budget caps us at 4x")
        rf"|(?:\b(?:(?:can(?:no|')?t|cannot|won'?t|must\s+not|shouldn'?t|don'?t\s+want\s+to)\s+(?:use|get|have"
        rf"|rent|run\s+on|go\s+(?:above|beyond|over|past)|exceed)(?:\s+more\s+than)?|(?:room|space|slots)\s+for"
        rf"|anything\s+(?:more\s+than|above|beyond|over)|(?:not|never)\s+(?:exceed"
        rf"|more\s+than)|max\.|(?:a\s+)?(?:hard|firm|strict)\s+(?:cap|limit|ceiling)\s+of|(?:limit|ceiling)\s+of)"
        rf"|≤|<=|=<)\s*(?P<num8>{NUMBER})\s+(?:\w+\s+)?(?:gpus?|cards?|accelerators?)\b"
        rf"|\b(?:(?:max(?:imum)?|total)\s+(?:number\s+of\s+)?(?:gpus?|cards?)|(?:gpus?|cards?)\s+(?:limit|cap"
        # "GPU quota on our account is 4 max" (evals v15): whose quota may stand between
        rf"|ceiling|quota|max(?:imum)?)(?:\s+(?:on|for|in)\s+(?:our|the|my|this)\s+\w+)?)\s*(?::|=|is|of)\s*"
        rf"(?:max\s+|≤\s*|<=\s*|up\s+to\s+)?(?P<num9>\d+)\b"
        rf"(?!\s*(?:%|gb|gib|h|hours?|per\s+node))"
        rf"|\b(?:only\s+)?fit\s+(?P<num10>{NUMBER})\s+(?:\w+\s+)?(?:(?:gpus?|cards?)\s+)?(?:in(?:to)?|inside)\s+"
        rf"(?:the|our|a|this|that|my)\s+(?:\w+\s+)?(?:chassis|case|box|workstation|tower|server|machine)\b"
        rf"|\b(?:caps?|limits?|restricts?)\s+us\s+(?:at|to)\s+(?P<num11>\d+)\s*(?:x\b|×|gpus?\b|cards?\b)"
        # a box of N as the cap ("no bigger than a 4-GPU box", "limited to a single 8xH100 node"); a cap
        # after a GPU count ("ideally 1 GPU, at most 2")
        rf"|\b(?:no\s+(?:bigger|larger|more)\s+than|at\s+most|up\s+to|limited\s+to|only)\s+(?:an?\s+|one\s+)?"
        rf"(?:single\s+)?(?P<num12>\d+)\s*(?:[\s-]*gpu|[x×]\s*[a-z]+\d+\w*)\s+(?:box|node|server|machine)\b"
        # ... or after a GPU's name, the count alone (evals v18): "H100 only, at most 32 at once"; also after
        # what the count is per (evals v15 Makefile comment): "one GPU per job, never more than 1"
        rf"|\b(?:gpus?|cards?|(?:[ahlb]\d{{2,3}}|rtx\s*\d{{4}})s?(?:\s+only)?)"
        rf"(?:\s+(?:per|a|each)\s+(?:job|run|user|experiment|task|person))?\s*,?\s*(?:but\s+)?(?:at\s+(?:the\s+very\s+)?most"
        rf"|max(?:imum)?|no\s+more\s+than|(?:never|not)\s+more\s+than)\s+(?P<num13>\d+)\b(?:\s+(?:at\s+once|at\s+a\s+time|in\s+total"
        rf"|concurrently|simultaneously))?(?!\s*\w)"
        # a count word before "at the (very) most" after a GPU count: "one GPU, two at the very most"
        rf"|\b(?:gpus?|cards?)\b[^.;?!]{{0,30}}?,\s*(?P<num14>{NUMBER})\s+at\s+(?:the\s+)?(?:very\s+)?most\b"
        # a setting whose comment calls it the cap (evals v18 Snakefile): "gpus=8    # upper bound: the quota"
        rf"|\bgpus?\s*[:=]\s*(?P<num15>\d+)\s*(?:#|//)\s*(?:an?\s+|the\s+)?(?:upper\s+bound|max(?:imum)?|cap|limit"
        rf"|ceiling|quota|at\s+most)\b"
        # a form's count row with its cap (evals v18): "GPU count: at most 8", "GPU-Anzahl: höchstens 8"
        rf"|\b(?:gpus?|cards?)[\s-]+(?:count|number|anzahl)\s*:\s*[^\n.;:]{{0,30}}?(?:at\s+most|max(?:imum)?\.?"
        rf"|no\s+more\s+than|up\s+to|höchstens|maximal)\s+(?P<num16>\d+)\b",
        I,
    ),
    "gpu", "card", "accelerator", "max", "up to", "at most", "no more", "budget for", "≤", "<=", "=<", "fit",
    "caps us", "limits us", "node", "box", "server", "machine",
)  # fmt: skip
