"""Test helpers for ragtui: fakes that let tests and benchmarks run without real endpoints."""
