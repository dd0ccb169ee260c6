"""Wild West Wolf: the setup's package (its YAML, rules, night steps and words)."""

# The modules compiled with mypyc (roles/native.py reads this list; messages stay pure).
NATIVE = ("abilities", "statuses", "indians", "night", "rules")
