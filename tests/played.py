"""A whole Wild West Wolf game played on the site, for the spoiler and the backup tests:
night actions, votes with changes, a withdrawal and a GM entry with its reason, two wills
(one cut), a substitution, a GM correction with its reason, the Notaio's delivery, and the
end of the game by the GM's corrections (the next night stays open and empty)."""

from __future__ import annotations

from games.services.game import player_substitute
from games.services.phases import current_phase, override_add, phase_commit
from games.services.submissions import action_submit, vote_cast, will_save
from tests.factories import LONG_WILL, SHORT_WILL, make_game


def played_game(gm, *, finish: bool = True):
    game = make_game(gm)
    role = {p.role: p for p in game.players.order_by("-seat")}  # the first holder wins
    first, second, third = game.players.filter(role="cowboy").order_by("seat")
    night = current_phase(game)  # N0: the Maresciallo investigates an Indian
    action_submit(phase=night, player=role["maresciallo"], target=second)
    action_submit(phase=night, player=role["maresciallo"], target=role["indiano"])
    phase_commit(phase=night, user=gm)
    day = current_phase(game)  # D1: changes, a withdrawal, a GM entry
    vote_cast(phase=day, player=role["sceriffo"], target=second)
    vote_cast(phase=day, player=role["sceriffo"], target=first)
    vote_cast(phase=day, player=role["maresciallo"], target=first)
    vote_cast(phase=day, player=third, target=first)
    vote_cast(phase=day, player=third, target=None)
    vote_cast(phase=day, player=role["notaio"], target=first, entered_by=gm,
              reason="votato nel thread alle 21:58")  # fmt: skip
    phase_commit(phase=day, user=gm)  # the first cowboy is executed
    will_save(player=first, text=LONG_WILL)
    player_substitute(player=third, new_name="Subentrato", user=gm)
    night = current_phase(game)  # N1: the Indians kill the second cowboy
    action_submit(phase=night, player=role["indiano"], target=second)
    phase_commit(phase=night, user=gm)
    will_save(player=second, text=SHORT_WILL)
    day = current_phase(game)  # D2: nobody votes; the GM removes a player who left
    override_add(phase=day, user=gm, kind="kill", player=role["pastore"],
                 reason="ha abbandonato la partita")  # fmt: skip
    phase_commit(phase=day, user=gm)
    night = current_phase(game)  # N2: the Notaio delivers both wills
    action_submit(phase=night, player=role["notaio"], target=third)
    phase_commit(phase=night, user=gm)
    if finish:
        day = current_phase(game)  # D3: the GM's corrections end the game
        for indian in game.players.filter(role__in=["capo_indiano", "sciamano", "indiano"]):
            override_add(phase=day, user=gm, kind="kill", player=indian, reason="fine")
        phase_commit(phase=day, user=gm)
    game.refresh_from_db()
    return game
