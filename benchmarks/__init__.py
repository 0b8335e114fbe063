"""Benchmarks: run each file as a script; they report figures, they are not timed tests."""
