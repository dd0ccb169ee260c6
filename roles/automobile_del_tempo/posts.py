"""The public posts of the Time Car: a Bandit vanishes (not where: ADT-R14, R15), the reveal
(ADT-R16) and the end of the game (ADT-R17, D6, D7). Message ids and parameters; the
site and the replay's ``--text`` render them (``messages.render``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from roles.automobile_del_tempo.messages import render
from roles.engine.markup import escape

FORMATS = ("bbcode", "markdown")


@dataclass(frozen=True, slots=True)
class Post:
    title: str  # a message id
    line: str  # a message id
    params: dict[str, Any] = field(default_factory=dict)
    rule: str = ""

    def text(self, lang: str = "it") -> str:
        return render(self.line, self.params, lang)

    def render(self, fmt: str, lang: str = "it") -> str:
        """The post in BBCode (the forums' default) or Markdown."""
        title = escape(render(self.title, {}, lang), fmt)
        bold = f"[b]{title}[/b]" if fmt == "bbcode" else f"**{title}**"
        return f"{bold}\n{escape(self.text(lang), fmt)}"  # names as typed (issue 27 §7)


def hid_post(round_number: int, bandit: str) -> Post:
    return Post("post.title_hid", "post.hid", {"round": round_number, "bandit": bandit}, "ADT-R15")


def reveal_post(round_number: int, bandit: str, at: str) -> Post:
    params = {"round": round_number, "bandit": bandit, "at": at}
    return Post("post.title_reveal", "post.reveal", params, "ADT-R16")


def end_post(end: dict[str, Any]) -> Post:
    bonus = end["bonus"]
    if bonus is not None:
        params = {"bandit": bonus["bandit"], "loot": bonus["loot"], "value": bonus["value"]}
        return Post("post.title_end", "post.end_bonus", params, "ADT-R17")
    if end["time_car"]:
        return Post("post.title_end", "post.end_crowded", {"bandits": end["time_car"]}, "ADT-D6")
    return Post("post.title_end", "post.end_empty", {}, "ADT-R17")
