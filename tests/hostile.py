"""Hostile input for the fuzzing tests (issue 9): hypothesis's settings, the strategies of
hostile text, ids and dates, and every POST form of the site with the strategy of each of
its fields."""

from __future__ import annotations

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

HYPOTHESIS = settings(max_examples=120, deadline=None, derandomize=True,
                      suppress_health_check=[HealthCheck.function_scoped_fixture,
                                             HealthCheck.too_slow])  # fmt: skip

BAD_CHARS = ["\x00", "\x01", "\x08", "\x0b", "\x1b", "\x7f", "\x85", "\u202e", "\u202d",
             "\u2066", "\u2069", "\u200e", "\u200b", "\u2028", "\ufeff", "\U000e0001"]  # fmt: skip
hostile_text = st.builds(  # inside the text: whitespace at its ends is merely stripped
    lambda head, bad, tail: f"{head}a{bad}a{tail}",
    st.text(max_size=30), st.sampled_from(BAD_CHARS), st.text(max_size=30),
)  # fmt: skip
hostile_id = st.one_of(
    st.integers(min_value=2**63, max_value=2**256).map(str),
    st.integers(max_value=0).map(str),
    st.sampled_from(["abc", "1e3", "0x10", "1.5", " ", "--1", "1;DROP TABLE games_game", "NaN",
                     "Infinity", "9" * 400, "%00", "1\x00"]),
    hostile_text,
)  # fmt: skip
hostile_date = st.one_of(
    st.sampled_from(["0001-01-01T00:00", "9999-12-31T23:59", "2024-02-30T10:00", "24:61",
                     "99:99", "-1", "T", "0000-00-00T00:00", "2026-03-29T02:30",
                     "10000-01-01T00:00", "1" * 300]),
    st.datetimes().map(lambda d: d.isoformat()),
    hostile_text,
)  # fmt: skip
hostile_any = st.one_of(hostile_text, hostile_id, hostile_date)

# every POST form of the site: its URL (by name, with the game's id) and its fields
GM_FORMS = {
    "games:new": {"name": hostile_text, "setup": hostile_any, "players": hostile_text,
                  "seed": hostile_id, "language": hostile_any, "vote_close_time": hostile_date,
                  "day_close_time": hostile_date, "powers_close_time": hostile_date},
    "games:substitute": {"name": hostile_text},
    "games:gm_vote": {"voter": hostile_id, "target": hostile_id, "secret": hostile_any,
                      "at": hostile_date, "reason": hostile_text},
    "games:gm_action": {"actor": hostile_id, "target": hostile_id, "during": hostile_text,
                        "fake_role": hostile_text, "vision": hostile_any,
                        "reason": hostile_text},
    "games:gm_override": {"player": hostile_id, "kind": hostile_any, "step": hostile_text,
                          "reason": hostile_text},
    "games:gm_commit": {"phase": hostile_id},
    "games:gm_deadline": {"phase": hostile_id, "action": hostile_text,
                          "closes_at": hostile_date, "reason": hostile_text},
    "games:gm_schedule": {"vote_close_time": hostile_date, "day_close_time": hostile_date,
                          "powers_close_time": hostile_date, "auto": hostile_any},
    # issue 12 §3: correct or remove a submission, take back an override, rename, undo
    "games:submission_edit": {"action": hostile_any, "target": hostile_id, "at": hostile_date,
                              "during": hostile_text, "fake_role": hostile_text,
                              "reason": hostile_text},
    "games:gm_override_remove": {"phase": hostile_id, "index": hostile_id, "seat": hostile_id,
                                 "kind": hostile_any, "reason": hostile_text},
    "games:rename": {"name": hostile_text},
    "games:gm_undo": {"phase": hostile_id, "players": hostile_any, "confirm": hostile_any},
    "login": {"username": hostile_text, "password": hostile_any},
    # the thread import: a preview stores nothing; a save is fuzzed on its own below (it
    # logs the attempt in the audit even when the paste holds no vote)
    "games:topic_import": {"text": hostile_text, "fmt": hostile_any,
                           "action": st.one_of(st.just("preview"), hostile_any),
                           "v0123456789ab": hostile_any, "t0123456789ab": hostile_any},
    "games:topic_settings": {"votes_from_topic": hostile_any, "vote_lines": hostile_text,
                             "withdraw_lines": hostile_text, "aliases": hostile_text,
                             "gm_names": hostile_text},
    "games:narration": {"post_before": hostile_text, "post_after": hostile_text},
    # issue 31 major 3 and 4: delete asks for the name typed again; a notice put away
    "games:delete": {"name": hostile_text},
    "games:clock_notice_seen": {"event": hostile_any, "back": hostile_any},
    # issue 32: follow a thread (or pause), and the decisions on its doubtful posts
    "games:follow_save": {"url": hostile_text, "form": hostile_any, "fmt": hostile_any,
                          "auto_commit": hostile_any, "action": hostile_any},
    "games:follow_decide": {"action": hostile_any, "v0123456789ab": hostile_any,
                            "t0123456789ab": hostile_any},
}  # fmt: skip
PLAYER_FORMS = {
    "player_vote": {"phase": hostile_id, "target": hostile_text, "secret": hostile_any,
                    "abstain": hostile_any},
    "player_action": {"phase": hostile_id, "target": hostile_text, "during": hostile_text,
                      "fake_role": hostile_text, "slot": hostile_text},
    "player_will": {"text": hostile_text},
    "player_withdraw": {"phase": hostile_id, "slot": hostile_text},
}  # fmt: skip
# the backup upload (tests/games/test_backup.py fuzzes its file itself)
IMPORT_FORMS = {"games:import": {"name": "hostile_text", "file": "hostile bytes"}}
