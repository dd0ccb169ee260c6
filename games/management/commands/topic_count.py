"""python manage.py topic_count GAME (--url URL | --file PAGE) [--json]: the count the
site would post for the game's current day from a page of its thread (issue 32), so a day
can be checked from the command line. Nothing is stored."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone
from django.utils.translation import gettext as _

from games.forum import PARSERS
from games.models import Game
from games.services.follow import follow_reason
from games.services.follow_http import FORMS, FetchError
from games.services.phases import current_phase
from games.services.topic_count import topic_count


class Command(BaseCommand):
    help = "Print the count of a game's current day from a page of its forum thread."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("game_id", type=int)
        source = parser.add_mutually_exclusive_group(required=True)
        source.add_argument("--url", help="the thread's address (fetched like a followed thread)")
        source.add_argument("--file", help="a page of the thread: copied text or saved HTML")
        parser.add_argument("--form", choices=FORMS, default="page", help="the readable form")
        parser.add_argument("--format", dest="fmt", choices=["", *PARSERS], default="",
                            help="the forum (default: recognised)")  # fmt: skip
        parser.add_argument("--json", action="store_true", help="print JSON")

    def handle(self, *args: Any, **options: Any) -> None:
        game = Game.objects.filter(pk=options["game_id"]).first()
        if game is None:
            raise CommandError(_("Nessuna partita con id %(id)s.") % {"id": options["game_id"]})
        phase = current_phase(game)
        if phase is None or phase.is_night:
            raise CommandError(_("La partita non ha un giorno da contare adesso."))
        text = ""
        if options["file"]:
            text = Path(options["file"]).read_text(encoding="utf-8", errors="replace")
        try:
            report = topic_count(phase=phase, text=text, url=options["url"] or "",
                                 form=options["form"], fmt=options["fmt"],
                                 now=timezone.now())  # fmt: skip
        except FetchError as exc:
            raise CommandError(f"{follow_reason(exc.code, exc.detail)} [{exc.code}]") from exc
        except ValidationError as exc:
            raise CommandError(" ".join(exc.messages)) from exc
        if options["json"]:
            self.stdout.write(json.dumps(report.as_dict(), ensure_ascii=False, indent=2))
            return
        zone = ZoneInfo(game.time_zone)

        def at(moment: Any) -> str:
            return moment.astimezone(zone).strftime("%d/%m %H:%M:%S") if moment else "?"

        posts = _("%(n)d messaggi letti") % {"n": report.posts}
        out = [f"{report.phase} · {report.fmt or '?'} · {posts}"]
        out += [f"{t} {len(v)}: {', '.join(v)}" for t, v in report.count.items()]
        out.append("")
        out += [f"  {at(v.at)}  {v.author} -> {v.target or _('(ritirato)')}" for v in report.votes]
        if report.ignored:
            out += ["", _("non contati:")]
            out += [f"  {at(t)}  {a}: {x}  [{w}]" for a, t, x, w in report.ignored]
        if report.late:
            out += ["", _("dopo la scadenza:")]
            out += [f"  {at(t)}  {a}: {x}" for a, t, x in report.late]
        self.stdout.write("\n".join(out))
