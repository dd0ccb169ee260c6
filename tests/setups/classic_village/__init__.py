"""A classic 8-player village (2 wolves, a seer, a guard, 4 villagers), used only by the
tests: it proves that a setup is one package (setup.yaml, rules.py) and that the site plays
it without knowing it. Its rules, numbered CV-R*, are in setup.yaml."""
