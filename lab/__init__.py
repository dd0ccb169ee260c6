"""The balance lab: win rates estimated from simulated games (docs/balance.md)."""
