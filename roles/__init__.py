"""The rules: a pure-Python engine (no Django import), setups as data, role modules.

The engine's hot modules may run compiled (roles/native.py); a build older than its
sources is never loaded: the pure source runs instead."""

from roles.native import guard

guard()
