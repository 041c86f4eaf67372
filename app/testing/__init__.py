"""Helpers for the project's tests and benchmarks (never imported by the server itself)."""
