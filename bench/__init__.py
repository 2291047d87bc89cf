"""Benchmarks and calibration scripts (a package so that bench scripts can share modules, e.g.
bench.calibration_data, and mypy sees each file under one name)."""
