"""`manage.py simulate SETUP --games N [--option key=value]… [--model random|informed]
[--jobs J] [--seed S] [--json]`: a balance study (docs/balance.md) on every core, pure
(no database, no broker): the chunks of roles/balance/study.py over a process pool
(roles/balance/parallel.py)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Sequence
from typing import Any, TextIO

from roles.balance.parallel import run_parallel
from roles.balance.study import MODELS, Study, Variant
from roles.balance.study_report import compare, sentences, summary
from roles.engine.setups import SetupError, load_setup

DESCRIPTION = "Simulate many games of a setup and print its balance with 95% intervals."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("setup", help="the setup's key")
    parser.add_argument("--games", type=int, default=20000, help="games to play (20000)")
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="an option of the setup (repeatable)",
    )
    parser.add_argument("--swap", metavar="CARD:CARD", help="deal one card less and one more")
    parser.add_argument(
        "--versus-option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="the second variant's option (repeatable)",
    )
    parser.add_argument("--versus-swap", metavar="CARD:CARD", help="the second variant's swap")
    parser.add_argument("--model", choices=list(MODELS), default="random")
    parser.add_argument("--jobs", type=int, default=1, help="processes (default 1)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--lang", choices=["it", "en"], default="it")


def parse_options(setup_key: str, pairs: Iterable[str]) -> dict[str, Any]:
    """``key=value`` pairs typed by the setup's defaults (the prefix may be left out)."""
    setup = load_setup(setup_key)
    prefix = next(iter(setup.options), ".").split(".")[0] + "."
    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, raw = pair.partition("=")
        if not sep:
            raise SetupError(f"Option {pair!r}: expected KEY=VALUE")
        name = key if key in setup.options else prefix + key
        if name not in setup.options:
            raise SetupError(f"Unknown option {key!r} for setup {setup_key!r}")
        options[name] = typed(setup.options[name], raw)
    return options


def typed(default: Any, raw: str) -> Any:
    """``raw`` as the type of ``default``."""
    if isinstance(default, bool):
        if raw.lower() not in ("true", "false", "1", "0", "yes", "no", "si", "sì"):
            raise SetupError(f"{raw!r} is not a yes/no value")
        return raw.lower() in ("true", "1", "yes", "si", "sì")
    if isinstance(default, int):
        return int(raw)
    return raw


def parse_swap(raw: str | None) -> tuple[str, str] | None:
    if not raw:
        return None
    less, sep, more = raw.partition(":")
    if not sep:
        raise SetupError(f"Swap {raw!r}: expected CARD:CARD")
    return less, more


LABELS = {
    "it": {
        "games": "partite",
        "model": "modello",
        "wins": "Vittorie per fazione",
        "loners": "Solitari (obiettivo raggiunto)",
        "length": "Durata media (giorni)",
        "powers": "Poteri decisivi (partite in cui è successo)",
        "found": "ha trovato un sospetto",
        "saved": "bersaglio dello sbrano sopravvissuto",
        "versus": "Seconda variante",
    },
    "en": {
        "games": "games",
        "model": "model",
        "wins": "Wins by faction",
        "loners": "Loners (goal reached)",
        "length": "Mean length (days)",
        "powers": "Powers that mattered (games where it happened)",
        "found": "found a suspect",
        "saved": "the pack's target survived",
        "versus": "Second variant",
    },
}


def _pct(row: dict) -> str:
    return f"{row['rate'] * 100:5.1f}% [{row['low'] * 100:.1f}, {row['high'] * 100:.1f}]"


def text_report(figures: dict[str, Any], lang: str = "it") -> str:
    words = LABELS[lang]
    lines = [
        f"{figures['setup']}: {figures['games']} {words['games']}, "
        f"{words['model']} {figures['model']}",
        words["wins"],
    ]
    lines += [f"  {row['name']:<16} {_pct(row)}" for row in figures["factions"]]
    if figures["loners"]:
        lines.append(words["loners"])
        lines += [f"  {row['name']:<16} {_pct(row)}" for row in figures["loners"]]
    length = figures["length"]
    lines.append(
        f"{words['length']}: {length['mean']:.2f} [{length['low']:.2f}, {length['high']:.2f}]"
    )
    lines.append(words["powers"])
    cards = load_setup(figures["setup"]).cards  # the cards by name, as the setup calls them
    lines += [f"  {cards[row['card']].name} {words[row['kind']]}: {_pct(row)}"
              for row in figures["powers"]]  # fmt: skip
    if "versus" in figures:
        lines.append(words["versus"])
        lines += [f"  {row['name']:<16} {_pct(row)}" for row in figures["versus"]["factions"]]
        lines += [f"  {line}" for line in figures["comparison_sentences"][lang]]
    return "\n".join(lines)


def simulate(args: argparse.Namespace, out: TextIO = sys.stdout) -> dict[str, Any]:
    """Run the study (and its second variant) and print the figures; returns them."""
    variant = Variant(args.setup, parse_options(args.setup, args.option), parse_swap(args.swap))
    study = Study(variant, args.games, args.model, args.seed)
    aggregate = run_parallel(study, args.jobs)
    figures = {
        "setup": args.setup,
        "model": args.model,
        "seed": args.seed,
        "variant": variant.as_dict(),
        **summary(aggregate, args.setup),
    }
    if args.versus_option or args.versus_swap:
        other = Variant(
            args.setup, parse_options(args.setup, args.versus_option), parse_swap(args.versus_swap)
        )
        second = run_parallel(Study(other, args.games, args.model, args.seed), args.jobs)
        rows = compare(aggregate, second, args.setup)
        figures["versus"] = {"variant": other.as_dict(), **summary(second, args.setup)}
        figures["comparison"] = rows
        figures["comparison_sentences"] = {
            lang: sentences(aggregate, second, args.setup, lang) for lang in ("it", "en")
        }
    out.write(json.dumps(figures, indent=1) if args.json else text_report(figures, args.lang))
    out.write("\n")
    return figures


def main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(prog="manage.py simulate", description=DESCRIPTION)
    add_arguments(parser)
    args = parser.parse_args(argv)
    try:
        simulate(args)
    except SetupError as exc:
        sys.stderr.write(f"{exc}\n")
        return 2
    return 0
