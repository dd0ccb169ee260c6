"""Sorte's night order: one step (CT-R2), so no two adjacent steps to pin; the package
still ships its cases, empty, as every setup package does (roles/engine/night_cases.py)."""

from __future__ import annotations

from roles.engine.night_cases import NightCases

CASES = NightCases(players={"Ada": "prescelto", "Bea": "gregario", "Cid": "gregario"}, pairs={})
