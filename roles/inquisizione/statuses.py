"""The Inquisizione's statuses (GameState.statuses): each stands until replaced."""

from __future__ import annotations

from roles.engine.statuses import StatusKind


class InquisizioneStatus(StatusKind):
    DESIGNATION = "designation"  # the Templare's standing choice, read at his death (INQ-R50)
    LAST_WOLF = "last_wolf"  # the Lupo Scorbutico has been told he mauls alone (INQ-R58)
    MAULED_FARMERS = "mauled_farmers"  # the Farmers the pack mauled, in order (INQ-D4)


DESIGNATION = InquisizioneStatus.DESIGNATION
LAST_WOLF = InquisizioneStatus.LAST_WOLF
MAULED_FARMERS = InquisizioneStatus.MAULED_FARMERS
