"""The figures of a balance study, from its merged :class:`~roles.balance.study.Aggregate`:
rates with their 95% intervals (roles/balance/stats.py), and the comparison of two variants
with its plain-language sentence. Plain data, the same for the command and the site."""

from __future__ import annotations

from typing import Any

from roles.balance.stats import mean_interval, newcombe, wilson
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
                "difference": d,
                "low": low,
                "high": high,
                "significant": low > 0 or high < 0,
            }
        )
    return rows


SENTENCES = {
    "it": {
        "more": "{name} vince {points} ± {margin} punti più spesso",
        "less": "{name} vince {points} ± {margin} punti meno spesso",
        "same": "{name} vince altrettanto spesso (differenza entro ± {margin} punti)",
    },
    "en": {
        "more": "{name} wins {points} ± {margin} points more often",
        "less": "{name} wins {points} ± {margin} points less often",
        "same": "{name} wins as often (difference within ± {margin} points)",
    },
}


def sentence(row: dict[str, Any], lang: str = "it") -> str:
    """'la Legge vince 7 ± 1 punti più spesso': the difference in percentage points, the
    margin half the interval's width; "as often" when the interval holds zero."""
    words = SENTENCES.get(lang, SENTENCES["en"])
    points = round(abs(row["difference"]) * 100)
    margin = max(round((row["high"] - row["low"]) * 50), 1) if row["high"] > row["low"] else 0
    kind = "same" if not row["significant"] else ("more" if row["difference"] > 0 else "less")
    return words[kind].format(name=row["name"], points=points, margin=margin)
