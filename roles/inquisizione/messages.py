"""What Inquisizione says to a person, as message ids (roles/engine/messages.py): the
refusals, the explanation trace and the private results of this setup, in English; the
Italian is in this package's locale/it/LC_MESSAGES/django.po."""

from __future__ import annotations

from roles.engine.messages import (
    FACTION,
    VERB,
    VERB_TO,
    Message,
    ResultKind,
    _,
    declare,
    listed,
    msg,
    words,
)
from roles.engine.messages import RESULTS as GENERIC_RESULTS

declare({
    # refusals
    "inq.protect_guard": _("cannot protect %(target)s, a Guard"),
    "inq.maul_wolf": _("cannot maul %(target)s, a wolf"),
    "inq.guard_alone": _("lost the protection power when the other Guard died"),
    "inq.grumpy_not_alone": _("does not take part in the maul while another wolf is alive"),
    "inq.maul_blocked": _("the wolves cannot maul tonight: they mauled the Martyr last night"),
    "inq.secret_withdraw": _("cannot withdraw his secret vote"),
    # the night's steps, where a GM correction may act (setup.yaml's night_order)
    "inq.step.templare": _("the Templar's designation"),
    "inq.step.postino": _("the Postman's phase"),
    "inq.step.veggente": _("the Seer's phase"),
    "inq.step.inquisitore": _("the Inquisitor's phase"),
    "inq.step.guardie_gemelle": _("the Guards' phase"),
    "inq.step.lupi": _("the wolves' attack"),
    "inq.step.scorbutico": _("the Grumpy Wolf's visitors"),
    # the explanation trace
    "inq.trace.redirected": _("%(recipient)s receives the Seer's answer on %(target)s instead "
                              "of the Seer"),
    "inq.trace.protected": _("the wolves choose %(target)s, protected by the Guards: nobody "
                             "dies"),
    "inq.trace.maul": _("the wolves maul %(target)s"),
    "inq.trace.maul_by": _("the wolves maul %(target)s (by %(wolf)s)"),
    "inq.trace.martire": _("the Martyr was mauled: he wins with the winners, and the wolves "
                           "cannot maul tomorrow night"),
    "inq.trace.templare_last": _("the Templar was the last Inquisition member: his "
                                 "designation has no effect"),
    "inq.trace.templare": _("the Templar designated %(target)s, a Heretic, who dies at once"),
    "inq.trace.last_wolf": _("%(wolf)s (%(role)s) is the only wolf left and mauls alone from "
                             "now on"),
})  # fmt: skip

# the abilities' verbs (abilities.py), as the refusals use them
VERBS = ("probe", "send the Seer's answer to", "test", "protect", "maul", "designate")
words(VERB, *VERBS)
words(VERB_TO, *VERBS)
words(FACTION, "Heresy", "Inquisition", "Pack")  # the sides (setup.yaml)

# -- the private results: each kind's sentence (docs/spec/scenarios.md's table) ----------

declare({
    "inq.value.innocente": _("INNOCENT"),
    "inq.value.losco": _("SHADY"),
    "inq.value.eretico": _("HERETIC"),
    "inq.value.non_eretico": _("not HERETIC"),
    "inq.result.is": _("%(name)s is %(value)s."),
    "inq.result.seer": _("The Seer's answer: %(value)s."),
    "inq.result.visitors": _("Tonight these players targeted you: %(names)s."),
    "inq.result.no_visitors": _("Nobody targeted you tonight."),
    "inq.result.last_wolf": _("You are the last wolf: from tonight you choose whom to maul."),
})  # fmt: skip


def _value(value: object) -> Message:
    return msg(f"inq.value.{value}")


RESULTS: dict[str, ResultKind] = {
    **GENERIC_RESULTS,
    "investigation": ResultKind(  # without a name: the Postman's recipient (INQ-D9)
        lambda about, value: (
            msg("inq.result.is", name=about, value=_value(value))
            if about
            else msg("inq.result.seer", value=_value(value))
        )
    ),
    "visitors": ResultKind(
        lambda about, value: (
            msg("inq.result.visitors", names=listed(value))
            if value
            else msg("inq.result.no_visitors")
        ),
        names=True,
    ),
    "last_wolf": ResultKind(lambda about, value: msg("inq.result.last_wolf")),
}
