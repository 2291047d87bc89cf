"""Extraction evals: cases (evals/cases/*.yaml) and the harness that scores an extractor on them."""
