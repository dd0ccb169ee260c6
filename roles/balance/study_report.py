"""The figures of a balance study, from its merged :class:`~roles.balance.study.Aggregate`:
rates with their 95% intervals (roles/balance/stats.py), and the comparison of two variants
with its plain-language sentence. Plain data, the same for the command and the site."""

from __future__ import annotations

from typing import Any

from roles.balance.stats import mean_difference, mean_interval, newcombe, wilson
from roles.balance.study import Aggregate
from roles.engine.setups import load_setup


def _rate(k: int, n: int) -> dict[str, float | int]:
    low, high = wilson(k, n)
    return {"count": k, "of": n, "rate": k / n if n else 0.0, "low": low, "high": high}


def summary(aggregate: Aggregate, setup_key: str) -> dict[str, Any]:
    """Every figure of the study, JSON-ready."""
    setup = load_setup(setup_key)
    n = aggregate.games
    factions = [f for f in setup.factions]
    factions += sorted(f for f in aggregate.wins if f not in factions)
    mean, low, high = mean_interval(aggregate.days)
    last_day = max(aggregate.days, default=0)
    deaths: dict[str, list[float]] = {}
    for key, count in aggregate.deaths.items():
        cause, day = key.rsplit("|", 1)
        per_day = deaths.setdefault(cause, [0.0] * (last_day + 1))
        per_day[int(day)] += count / n
    survival: dict[str, list[float]] = {}
    for card, dealt in sorted(aggregate.dealt.items()):
        alive, curve = dealt, []
        for day in range(last_day + 1):
            alive -= aggregate.role_deaths.get(f"{card}|{day}", 0)
            curve.append(alive / dealt)
        survival[card] = curve
    powers = []
    for key, count in sorted(aggregate.powers.items()):
        kind, card = key.split("|", 1)
        powers.append({"kind": kind, "card": card, **_rate(count, n)})
    return {
        "games": n,
        "factions": [
            {
                "faction": f,
                "name": setup.faction_names.get(f, f.capitalize()),
                **_rate(aggregate.wins.get(f, 0), n),
            }
            for f in factions
        ],
        "loners": [
            {
                "card": card,
                "name": setup.cards[card].name,
                **_rate(aggregate.loner_wins.get(card, 0), dealt),
            }
            for card, dealt in sorted(aggregate.loner_games.items())
        ],
        "length": {
            "mean": mean,
            "low": low,
            "high": high,
            "days": {d: aggregate.days[d] for d in sorted(aggregate.days)},
        },
        "deaths": deaths,
        "survival": survival,
        "powers": powers,
    }


def compare(a: Aggregate, b: Aggregate, setup_key: str) -> list[dict[str, Any]]:
    """Per faction: B's win rate minus A's, with Newcombe's 95% interval."""
    setup = load_setup(setup_key)
    factions = list(setup.factions) + sorted(
        f for f in {*a.wins, *b.wins} if f not in setup.factions
    )
    rows = []
    for f in factions:
        d, low, high = newcombe(b.wins.get(f, 0), b.games, a.wins.get(f, 0), a.games)
        rows.append(
            {
                "faction": f,
                "name": setup.faction_names.get(f, f.capitalize()),
                "first": _share(a.wins.get(f, 0), a.games),
                "second": _share(b.wins.get(f, 0), b.games),
                "difference": d,
                "low": low,
                "high": high,
                "significant": low > 0 or high < 0,
            }
        )
    return rows


WORDS = {
    "it": {
        "changed": "{name}: vittorie {a}% → {b}% delle partite ({d} punti percentuali; IC 95% "
        "da {low} a {high})",
        "same": "{name}: vittorie invariate, {a}% e {b}% delle partite (la differenza, IC 95% "
        "da {low} a {high} punti percentuali, comprende lo zero)",
        "loner": "{name} (solitario): vittorie {a}% → {b}% delle partite in cui è in gioco "
        "({d} punti percentuali; IC 95% da {low} a {high})",
        "loner_first": "{name} (solitario) è in gioco solo nella prima variante: vi vince il "
        "{a}% delle partite (IC 95% da {low}% a {high}%)",
        "loner_second": "{name} (solitario) è in gioco solo nella seconda variante: vi vince "
        "il {b}% delle partite (IC 95% da {low}% a {high}%)",
        "length": "Durata media: {a} → {b} giorni ({d}; IC 95% da {low} a {high})",
        "found": "{card} ha trovato un sospetto",
        "saved": "{card}: il bersaglio dell'attacco notturno è sopravvissuto",
        "power": "«{name}»: {a}% → {b}% delle partite ({d} punti percentuali; IC 95% da {low} "
        "a {high})",
        "nothing_else": "Nessun altro risultato cambia oltre il suo intervallo al 95%.",
    },
    "en": {
        "changed": "{name}: wins {a}% → {b}% of the games ({d} percentage points; 95% CI "
        "{low} to {high})",
        "same": "{name}: wins unchanged, {a}% and {b}% of the games (the difference, 95% CI "
        "{low} to {high} percentage points, includes zero)",
        "loner": "{name} (loner): wins {a}% → {b}% of the games he is dealt in ({d} "
        "percentage points; 95% CI {low} to {high})",
        "loner_first": "{name} (loner) is dealt in the first variant only: there he wins "
        "{a}% of the games (95% CI {low}% to {high}%)",
        "loner_second": "{name} (loner) is dealt in the second variant only: there he wins "
        "{b}% of the games (95% CI {low}% to {high}%)",
        "length": "Mean length: {a} → {b} days ({d}; 95% CI {low} to {high})",
        "found": "{card} found a suspect",
        "saved": "{card}: the night attack's target survived",
        "power": "“{name}”: {a}% → {b}% of the games ({d} percentage points; 95% CI {low} to "
        "{high})",
        "nothing_else": "No other result changed beyond its 95% interval.",
    },
}


def _number(value: float, lang: str, *, sign: bool = False, scale: float = 100) -> str:
    """``7.1`` (``+7.1`` with ``sign``) from a rate, with the language's decimal mark."""
    text = f"{value * scale:+.1f}" if sign else f"{value * scale:.1f}"
    return text.replace(".", ",") if lang == "it" else text


def _changed(kind: str, name: str, rates: tuple[float, float], diff: tuple, lang: str) -> str:
    words = WORDS.get(lang, WORDS["en"])
    scale = 1 if kind == "length" else 100
    d, low, high = diff
    return words[kind].format(
        name=name, a=_number(rates[0], lang, scale=scale), b=_number(rates[1], lang, scale=scale),
        d=_number(d, lang, sign=True, scale=scale), low=_number(low, lang, sign=True, scale=scale),
        high=_number(high, lang, sign=True, scale=scale),
    )  # fmt: skip


def sentence(row: dict[str, Any], lang: str = "it") -> str:
    """One faction's row of :func:`compare` in words: its win rates in both variants, the
    difference in percentage points with its 95% interval; "unchanged" when the interval
    holds zero."""
    kind = "changed" if row["significant"] else "same"
    return _changed(kind, row["name"], (row["first"], row["second"]),
                    (row["difference"], row["low"], row["high"]), lang)  # fmt: skip


def _share(k: int, n: int) -> float:
    return k / n if n else 0.0


def changes(a: Aggregate, b: Aggregate, setup_key: str, lang: str = "it") -> list[str]:
    """Every other result of the second variant that moved beyond its 95% interval, in
    words (issue 30, major 6): each loner's own win rate (a card swapped in or out is
    dealt in one variant only: its rate there), the mean length of a game, each power's
    decisive games; "nothing else" when none did."""
    setup = load_setup(setup_key)
    words = WORDS.get(lang, WORDS["en"])
    said = []
    for card in sorted({*a.loner_games, *b.loner_games}):
        name = setup.cards[card].name
        ka, na = a.loner_wins.get(card, 0), a.loner_games.get(card, 0)
        kb, nb = b.loner_wins.get(card, 0), b.loner_games.get(card, 0)
        if na and nb:
            diff = newcombe(kb, nb, ka, na)
            if diff[1] > 0 or diff[2] < 0:
                said.append(_changed("loner", name, (_share(ka, na), _share(kb, nb)), diff, lang))
            continue
        only = "loner_first" if na else "loner_second"
        low, high = wilson(ka, na) if na else wilson(kb, nb)
        said.append(words[only].format(
            name=name, a=_number(_share(ka, na), lang), b=_number(_share(kb, nb), lang),
            low=_number(low, lang), high=_number(high, lang),
        ))  # fmt: skip
    length = mean_difference(a.days, b.days)
    if length[1] > 0 or length[2] < 0:
        means = (mean_interval(a.days)[0], mean_interval(b.days)[0])
        said.append(_changed("length", "", means, length, lang))
    for key in sorted({*a.powers, *b.powers}):
        kind, card = key.split("|", 1)
        ka, kb = a.powers.get(key, 0), b.powers.get(key, 0)
        diff = newcombe(kb, b.games, ka, a.games)
        if diff[1] > 0 or diff[2] < 0:
            name = words[kind].format(card=setup.cards[card].name)
            said.append(_changed("power", name, (_share(ka, a.games), _share(kb, b.games)),
                                 diff, lang))  # fmt: skip
    return said or [words["nothing_else"]]


def sentences(a: Aggregate, b: Aggregate, setup_key: str, lang: str = "it") -> list[str]:
    """The comparison in words: every faction, then every other result that changed."""
    return [sentence(row, lang) for row in compare(a, b, setup_key)] + changes(
        a, b, setup_key, lang
    )
