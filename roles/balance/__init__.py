"""The balance study (docs/balance.md): simulated games of a setup counted into win rates
with their intervals, and the informed player model. Pure Python like the engine, but
outside it: the rules version (``Ruleset.version``) digests roles/engine/ and the setup's
package only, so a change here is never a rules change."""
