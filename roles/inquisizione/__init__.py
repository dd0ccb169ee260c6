"""Inquisizione: the setup's package (its YAML, rules, night steps and words)."""
