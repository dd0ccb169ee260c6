"""Sorte: a three-player setup for the balance study's tests, whose win rates are known."""
