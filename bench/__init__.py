"""Benchmarks: ``make bench`` runs every ``bench/bench_*.py`` and prints one table (also written to
``bench/out/results.json``)."""
