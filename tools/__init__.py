"""Deterministic calculators, catalogs and the recommender.

Pure functions only: no network, no LLM, no global mutable state. Keyword arguments in, frozen
pydantic results out, each carrying a trace of formulas and the assumptions it used.
"""
