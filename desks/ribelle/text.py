"""What the BANG! referee says, in words: its message ids rendered through the catalogues
(Italian first, English in locale/), each ruling in one line citing its rule, the role
cards (the Italian text), and the forum posts in BBCode and Markdown."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from roles.engine.markup import escape

ROLE_NAMES = {
    "sceriffo": gettext_lazy("Sceriffo"),
    "vice": gettext_lazy("Vice"),
    "fuorilegge": gettext_lazy("Fuorilegge"),
    "rinnegato": gettext_lazy("Rinnegato"),
    "ribelle": gettext_lazy("Ribelle!"),
}
CARD_NAMES = {
    "bang": "Bang!", "duello": gettext_lazy("Duello"), "gatling": "Gatling",
    "indiani": gettext_lazy("Indiani!"), "howitzer": "Howitzer",
    "dinamite": gettext_lazy("Dinamite"), "altro": gettext_lazy("altro"),
}  # fmt: skip
VIA_NAMES = {"ghost_town": gettext_lazy("Città Fantasma"), "dead_man": "Dead Man"}
SIDE_WINS = {  # the verb agrees with the side: "vince la Legge", "vincono i Fuorilegge"
    "legge": gettext_lazy("vince la Legge"),
    "fuorilegge": gettext_lazy("vincono i Fuorilegge"),
    "rinnegato": gettext_lazy("vince il Rinnegato"),
}
ELIMINATION_POSTED = (  # the rulings of an elimination the table hears (BANG-B7: roles shown)
    "rib.eliminated", "rib.reward_outlaw", "rib.no_reward_rebel", "rib.penalty.discard",
    "rib.penalty.suspended", "rib.no_penalty_not_yet_sheriff",
)  # fmt: skip
DECK_NAMES = {
    "none": gettext_lazy("nessuno"),
    "high_noon": gettext_lazy("Mezzogiorno di Fuoco"),
    "fistful_of_cards": gettext_lazy("Per un Pugno di Carte"),
}

MESSAGES = {
    # rulings
    "rib.eliminated": gettext_lazy("Eliminazione di %(player)s: era %(role)s."),
    "rib.reward_outlaw": gettext_lazy("%(player)s ha eliminato un Fuorilegge: pesca 3 carte."),
    "rib.no_reward_rebel": gettext_lazy("%(player)s ha eliminato il Ribelle!: nessuna ricompensa."),
    "rib.penalty.discard": gettext_lazy(
        "Lo Sceriffo %(sheriff)s ha eliminato il Vice %(deputies)s: scarta tutte le carte "
        "che ha in mano e in gioco."
    ),
    "rib.penalty.suspended": gettext_lazy(
        "Lo Sceriffo %(sheriff)s ha eliminato il Vice %(deputies)s ma il Ribelle! è a ruolo "
        "scoperto: non scarta le sue carte."
    ),
    "rib.no_penalty_not_yet_sheriff": gettext_lazy(
        "%(player)s ha eliminato il Vice %(deputy)s con la stessa carta, prima di diventare "
        "Sceriffo: nessuna penalità."
    ),
    "rib.penalty_applies": gettext_lazy(
        "Se lo Sceriffo %(sheriff)s elimina un Vice, scarta tutte le sue carte."
    ),
    "rib.reveal": gettext_lazy("%(player)s scopre il suo ruolo: è il Ribelle!"),
    "rib.penalty_suspended": gettext_lazy(
        "Finché il Ribelle! è scoperto, lo Sceriffo %(sheriff)s non perde le carte se elimina "
        "un Vice."
    ),
    "rib.revolution": gettext_lazy(
        "Rivoluzione! %(rebel)s ha eliminato lo Sceriffo %(sheriff)s durante il suo turno e "
        "diventa il nuovo Sceriffo."
    ),
    "rib.revolution_after_card": gettext_lazy(
        "L'effetto della carta %(card)s è stato portato a termine prima della Rivoluzione."
    ),
    "rib.ghost_returns_for_good": gettext_lazy(
        "%(player)s torna in vita definitivamente con 1 punto vita e inizia un nuovo turno "
        "senza la Città Fantasma."
    ),
    "rib.dethroned": gettext_lazy(
        "%(player)s non è più lo Sceriffo: se rientra in gioco, gioca come Ribelle!."
    ),
    "rib.deputies_lost": gettext_lazy(
        "Eliminati prima della Rivoluzione, hanno perso (salvo che rientrino in gioco): "
        "%(players)s."
    ),
    "rib.game_over.sheriff": gettext_lazy(
        "Lo Sceriffo %(sheriff)s è eliminato senza Rivoluzione: la partita finisce con le "
        "regole tradizionali: %(side)s (%(winners)s)."
    ),
    "rib.rebel_loses": gettext_lazy("Il Ribelle! %(player)s ha perso."),
    "rib.game_over.law": gettext_lazy(
        "Fuorilegge e Rinnegati sono tutti eliminati: vince la Legge (%(winners)s)."
    ),
    "rib.rebel_defeated": gettext_lazy(
        "La Rivoluzione non è più possibile: il Ribelle! %(player)s è sconfitto."
    ),
    "rib.dethroned_loses": gettext_lazy(
        "%(player)s, lo Sceriffo eliminato dal Ribelle!, non è rientrato: ha perso."
    ),
    "rib.returns": gettext_lazy("%(player)s rientra in gioco con %(via)s."),
    "rib.returns_as_rebel": gettext_lazy(
        "%(player)s rientra in gioco con %(via)s e gioca come Ribelle!."
    ),
    "rib.returns_face_up": gettext_lazy(
        "%(player)s rientra con %(via)s ed è considerato a ruolo scoperto."
    ),
    "rib.ghost_revolution_possible": gettext_lazy(
        "Se %(player)s elimina lo Sceriffo durante questo turno, torna in vita definitivamente."
    ),
    "rib.deputy_back_after_revolution": gettext_lazy(
        "Il Vice %(player)s rientra dopo la Rivoluzione con %(via)s: vince se vince la Legge."
    ),
    "rib.ghost_leaves": gettext_lazy("Il fantasma %(player)s lascia il gioco."),
    # the Revolution's checklist
    "rib.revolution.step1": gettext_lazy(
        "%(rebel)s mostra la carta ruolo, interrompe il turno nella fase 2 e diventa lo "
        "Sceriffo: +1 punto vita e +1 al massimo; se ha una Prigione davanti, la scarta; da "
        "ora perde tutte le carte se elimina un Vice."
    ),
    "rib.revolution.step2": gettext_lazy(
        "%(rebel)s prende il mazzo di %(deck)s e gira la carta seguente: è quella in vigore "
        "nel nuovo turno."
    ),
    "rib.revolution.step2.none": gettext_lazy(
        "Non si gioca con Mezzogiorno di Fuoco né con Per un Pugno di Carte: passo saltato."
    ),
    "rib.revolution.step3": gettext_lazy(
        "%(rebel)s comincia subito un nuovo turno dalla fase 1, senza la fase 3: tiene tutte "
        "le carte anche se sono più dei punti vita."
    ),
    "rib.revolution.step3.checks": gettext_lazy(
        "I controlli prima della fase 1 (per esempio la Dinamite) non si fanno in questo turno."
    ),
    "rib.revolution.step4": gettext_lazy(
        "Il gioco continua: ognuno conserva ruolo, carte e punti vita."
    ),
    "rib.revolution.ends": gettext_lazy(
        "La stessa carta ha eliminato gli ultimi Fuorilegge e Rinnegati: la partita finisce "
        "qui, senza un nuovo turno."
    ),
    "rib.revolution.moot": gettext_lazy("Non serve: la partita è finita."),
    # refusals
    "rib.error.player_count": gettext_lazy(
        "Il Ribelle! si gioca in %(allowed)s giocatori, non in %(count)s."
    ),
    "rib.error.unknown_role": gettext_lazy("Ruolo sconosciuto: %(role)s."),
    "rib.error.role_counts": gettext_lazy("In %(count)s giocatori i ruoli sono: %(needed)s."),
    "rib.error.unknown_option": gettext_lazy("Opzione sconosciuta: %(option)s."),
    "rib.error.card_not_in_deck": gettext_lazy(
        "%(player)s non può rientrare con %(via)s: la carta è del mazzo %(deck)s, che non è in "
        "gioco."
    ),
    "rib.error.not_first_eliminated": gettext_lazy(
        "%(player)s non può rientrare con Dead Man: rientra solo il primo eliminato (%(first)s)."
    ),
    "rib.error.bad_option": gettext_lazy("L'opzione %(option)s non può valere %(value)s."),
    "rib.error.unknown_player": gettext_lazy("%(player)s non è al tavolo."),
    "rib.error.out_of_play": gettext_lazy("%(player)s è fuori dal gioco e non può agire."),
    "rib.error.turn_over": gettext_lazy("%(player)s è fuori dal gioco: il suo turno è finito."),
    "rib.error.not_rebel": gettext_lazy(
        "%(player)s non è il Ribelle!: solo il Ribelle! può scoprire il suo ruolo."
    ),
    "rib.error.already_face_up": gettext_lazy("%(player)s è già a ruolo scoperto."),
    "rib.error.reveal_time": gettext_lazy(
        "%(player)s può scoprire il ruolo solo alla fine della fase 1 del proprio turno."
    ),
    "rib.error.not_his_turn": gettext_lazy(
        "Il registro dice che è il turno di %(turn)s, non di %(player)s."
    ),
    "rib.error.no_turn": gettext_lazy("Registra prima di chi è il turno."),
    "rib.error.bad_phase": gettext_lazy("Un turno ha le fasi 1, 2 e 3."),
    "rib.error.phase_back": gettext_lazy(
        "%(player)s è già nella fase %(phase)s: le fasi vanno in ordine 1, 2, 3."
    ),
    "rib.error.ghost": gettext_lazy("%(player)s è un fantasma e non può essere eliminato."),
    "rib.error.in_play": gettext_lazy(
        "%(player)s è in gioco: rientra solo un giocatore eliminato."
    ),
    "rib.error.twice": gettext_lazy("%(player)s compare due volte nella stessa eliminazione."),
    "rib.error.game_over": gettext_lazy("La partita è finita."),
}

ROLE_CARDS = {  # each role card's text (the expansion's for the Rebel!), Italian the original
    "sceriffo": gettext_lazy(
        "Sceriffo. Gioca a carte scoperte e ha un punto vita in più. Vince se elimina tutti "
        "i Fuorilegge e il Rinnegato. Se elimina un Vice perde tutte le sue carte (salvo che "
        "il Ribelle! sia a ruolo scoperto)."
    ),
    "vice": gettext_lazy(
        "Vice. Aiuta e protegge lo Sceriffo: vince se vengono eliminati tutti i "
        "Fuorilegge e il Rinnegato."
    ),
    "fuorilegge": gettext_lazy("Fuorilegge. Vince se lo Sceriffo viene eliminato."),
    "rinnegato": gettext_lazy(
        "Rinnegato. Vuole diventare il nuovo Sceriffo: vince se resta l'ultimo "
        "personaggio in gioco."
    ),
    "ribelle": gettext_lazy(
        "Il Ribelle!. Lo scopo del Ribelle! è eliminare lo Sceriffo in prima persona: "
        "l'eliminazione deve avvenire durante il turno di gioco del Ribelle!. In questo caso "
        "la partita non termina, ma prosegue con il Ribelle! che assume il ruolo di Sceriffo "
        "e deve vincere la partita come tale (eliminare i Fuorilegge e il Rinnegato). I Vice "
        "ancora in gioco sono ora suoi alleati. Il Ribelle! non è un Fuorilegge né un "
        "Rinnegato. Al contrario di tutti gli altri ruoli, il Ribelle! può scoprire il proprio "
        "ruolo alla fine della fase 1 del proprio turno; lo svelamento non è obbligatorio."
    ),
}
GOALS = {
    "sceriffo": gettext_lazy("Elimina tutti i Fuorilegge e i Rinnegati."),
    "vice": gettext_lazy(
        "Proteggi lo Sceriffo (anche il Ribelle! diventato Sceriffo): vinci se vengono "
        "eliminati tutti i Fuorilegge e i Rinnegati."
    ),
    "fuorilegge": gettext_lazy("Elimina lo Sceriffo."),
    "rinnegato": gettext_lazy("Resta l'ultimo personaggio in gioco."),
    "ribelle": gettext_lazy(
        "Elimina lo Sceriffo durante il tuo turno: diventi lo Sceriffo e vinci con la Legge. "
        "Se Fuorilegge e Rinnegati vengono eliminati prima, hai perso."
    ),
}


def _value(key: str, value: Any) -> str:
    if isinstance(value, list | tuple):
        return ", ".join(_value(key, v) for v in value) or "—"
    names = {"role": ROLE_NAMES, "card": CARD_NAMES, "via": VIA_NAMES, "side": SIDE_WINS,
             "deck": DECK_NAMES}.get(key)  # fmt: skip
    if names and value in names:
        return str(names[value])
    return "—" if value is None else str(value)


def message(msg: str, params: Mapping[str, Any]) -> str:
    """A message id and its parameters, in the active language."""
    return str(MESSAGES[msg]) % {k: _value(k, v) for k, v in params.items()}


def ruling_line(ruling: Mapping[str, Any]) -> str:
    """One line citing its rule: 'Rivoluzione! ... [RIB-R11]'."""
    return f"{message(ruling['msg'], ruling['params'])} [{ruling['rule']}]"


def checklist(revolution: Mapping[str, Any], ends: bool = False) -> list[dict[str, Any]]:
    """The four steps of the Revolution (RIB-R11), each a line for the GM to tick. When the
    same card ended the game (RIB-R17), no new turn follows: the game does not go on."""
    params = {"rebel": revolution["rebel"]}
    steps = []
    for step in revolution["steps"]:
        if ends and step["step"] in (2, 3):
            steps.append({"step": step["step"], "text": message("rib.revolution.moot", {}),
                          "rule": "RIB-R17", "applies": False})  # fmt: skip
            continue
        if ends and step["step"] == 4:
            steps.append({"step": 4, "text": message("rib.revolution.ends", {}),
                          "rule": "RIB-R17", "applies": True})  # fmt: skip
            continue
        if step["step"] == 2 and not step["applies"]:
            text = message("rib.revolution.step2.none", {})
        else:
            text = message(step["msg"], {**params, "deck": step.get("deck")})
        if step["step"] == 3 and step.get("skips_pre_phase_checks"):
            text += " " + message("rib.revolution.step3.checks", {})
        steps.append({"step": step["step"], "text": text, "rule": step["rule"],
                      "applies": step["applies"]})  # fmt: skip
    return steps


def role_name(role: str) -> str:
    return str(ROLE_NAMES[role])


def _bold(text: str, markup: str) -> str:
    """``text`` escaped, in bold: the post's own markup around what a player typed."""
    text = escape(text, markup)
    return f"[b]{text}[/b]" if markup == "bbcode" else f"**{text}**"


def _post(lines: Sequence[str], title: str, markup: str) -> str:
    """A post: ``lines`` are plain text, escaped here (names are players' own: issue 27 §7)."""
    return "\n".join([_bold(title, markup), "", *(escape(line, markup) for line in lines)])


def reveal_post(player: str, sheriff: str, markup: str, language: str) -> str:
    with translation.override(language):
        title = _("%(player)s scopre la sua carta: è il Ribelle!") % {"player": player}
        return _post([message("rib.penalty_suspended", {"sheriff": sheriff}) + " (RIB-R10)"],
                     title, markup)  # fmt: skip


def revolution_post(
    revolution: Mapping[str, Any], markup: str, language: str, ends: bool = False
) -> str:
    """The Revolution and its steps; when it ended the game (RIB-R17), the steps that no
    longer apply are left out and the post says the game ends."""
    with translation.override(language):
        title = _("Rivoluzione! %(rebel)s è il nuovo Sceriffo") % {"rebel": revolution["rebel"]}
        lines = [message("rib.revolution", revolution) + " (RIB-R11)"]
        lines += [f"{s['step']}. {s['text']} ({s['rule']})"
                  for s in checklist(revolution, ends) if s["applies"]]  # fmt: skip
        return _post(lines, title, markup)


def elimination_post(
    players: Sequence[str], rulings: Sequence[Mapping[str, Any]], markup: str, language: str
) -> str:
    """An elimination for the thread: who, his role (shown, BANG-B7), and what follows at
    the table (the reward, the Deputy penalty), each citing its rule."""
    with translation.override(language):
        title = _("Eliminazione: %(players)s") % {"players": ", ".join(players)}
        lines = [f"{message(r['msg'], r['params'])} ({r['rule']})" for r in rulings
                 if r["msg"] in ELIMINATION_POSTED]  # fmt: skip
        return _post(lines, title, markup)


def final_post(side: str, players: Sequence[Mapping[str, Any]], markup: str, language: str) -> str:
    """The winners and every player's role (dealt, and played at the end when different)."""
    with translation.override(language):
        title = _("Fine della partita: %(side)s") % {"side": _value("side", side)}
        lines = []
        for p in players:
            role = role_name(p["role"])
            if p["plays_as"] != p["role"]:
                role = _("%(role)s, poi %(now)s") % {"role": role, "now": role_name(p["plays_as"])}
            outcome = _("vince") if p["won"] else _("perde")
            shown = _bold(outcome, markup) if p["won"] else outcome
            lines.append(f"{escape(p['name'] + ': ' + role, markup)} — {shown}")
        return "\n".join([_bold(title, markup), "", *lines])
