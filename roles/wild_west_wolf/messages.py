"""What Wild West Wolf says to a person, as message ids (roles/engine/messages.py):
the refusals, the explanation trace and the private results of this setup, in English;
the Italian is in this package's locale/it/LC_MESSAGES/django.po."""

from __future__ import annotations

from roles.engine.messages import (
    FACTION,
    VERB,
    VERB_TO,
    Message,
    ResultKind,
    Role,
    _,
    declare,
    listed,
    msg,
    words,
)
from roles.engine.messages import RESULTS as GENERIC_RESULTS

declare({
    # refusals
    "www.bounty_target": _("the bounty must be on a Law character other than the Sheriff "
                           "and the Notary, not %(target)s"),
    "www.no_vision": _("has no vision"),
    "www.fake_role_n0": _("chooses his fake role only on N0"),
    "www.attack_n0": _("cannot attack on N0"),
    "www.attack_blocked": _("the Indians cannot attack tonight: the Pianist was shot last "
                            "night"),
    "www.law_phase": _("must act during the phase of one of %(phases)s, not %(during)s"),
    "www.attack_indian": _("cannot attack %(target)s, an Indian"),
    "www.choose_role": _("must choose a role"),
    "www.fake_role": _("cannot pass himself off as %(choice)s: he may choose any other role of "
                       "this game"),
    "www.loner_will": _("cannot write a will: loners have already won or lost"),
    # the night's steps, where a GM correction may act (setup.yaml's night_order)
    "www.step.pianista": _("the Pianist's choice"),
    "www.step.pastore": _("the Pastor's phase"),
    "www.step.notaio": _("the Notary's phase"),
    "www.step.maresciallo": _("the Marshal's phase"),
    "www.step.maestrina": _("the Teacher's phase"),
    "www.step.indiani": _("the Indians' attack"),
    "www.step.guilt": _("the death of guilt"),
    "www.step.bounty": _("the bounty's change"),
    "www.step.vip": _("the Indian Chief's news"),
    # the explanation trace
    "www.trace.bounty": _("%(hunter)s (%(role)s) draws the bounty on %(target)s"),
    "www.trace.wills": _("%(notary)s (%(role)s) delivers the wills of %(authors)s to "
                         "%(recipient)s"),
    "www.trace.bandit_caught": _("%(bandit)s (%(role)s) acts in the %(phase)s's phase while "
                                 "%(owner)s is alive: discovered, they recognize each other"),
    "www.trace.bandit_shot": _("%(target)s shoots %(bandit)s (%(role)s) on the spot"),
    "www.trace.recruit_failed": _("%(bandit)s (%(role)s) fails to recruit %(target)s"),
    "www.trace.recruited": _("%(bandit)s (%(role)s) recruits %(target)s: now an Outlaw"),
    "www.trace.gunman_caught": _("%(gunman)s (%(role)s) acts in the %(phase)s's phase while "
                                 "%(owner)s is alive: he shoots %(owner)s instead"),
    "www.trace.immune": _("%(target)s is immune to night attacks"),
    "www.trace.shot": _("%(gunman)s (%(role)s) shoots %(target)s"),
    "www.trace.attack_immune": _("the Indians attack %(target)s, immune to night attacks"),
    "www.trace.deputy": _("the Indians attack %(target)s; %(deputy)s (%(role)s) dies in his "
                          "place"),
    "www.trace.attack": _("the Indians kill %(target)s"),
    "www.trace.pianista": _("the Pianist was shot by the Indians: he wins with the winners, "
                            "and the Indians cannot shoot tomorrow night"),
    "www.trace.guilt": _("%(player)s dies of guilt"),
    "www.trace.rinnegato": _("%(bounty)s died tonight: %(hunter)s becomes the Renegade"),
    "www.trace.collects": _("%(hunter)s's bounty %(target)s was executed: he collects it and "
                            "leaves the village"),
    "www.trace.capo_executed": _("the Indian Chief was executed: the Indians may attack two "
                                 "victims tonight"),
    "www.trace.capo_decisive": _("the Indian Chief cast the decisive vote on the Renegade: "
                                 "nobody dies of guilt"),
    "www.trace.guilty_vote": _("%(voter)s cast the decisive vote on the Renegade and will die "
                               "of guilt tonight"),
})  # fmt: skip

# the abilities' verbs (abilities.py), as the refusals use them
VERBS = ("investigate", "accompany", "deliver the wills to", "recruit", "shoot",
         "ask the spirits about", "attack", "choose a fake role")  # fmt: skip
words(VERB, *VERBS)
words(VERB_TO, *VERBS)
words(FACTION, "Law", "Outlaws", "Indians")  # the sides (setup.yaml)

# -- the private results: each kind's sentence (docs/spec/scenarios.md's table) ----------

declare({
    "www.value.americano": _("American"),
    "www.value.indiano": _("Indian"),
    "www.value.vip": _("VIP"),
    "www.value.non_vip": _("not VIP"),
    "www.result.bounty": _("Your bounty is on %(name)s."),
    "www.result.bounty_role": _("Your bounty, %(name)s, is the %(role)s."),
    "www.result.role_of": _("%(name)s is the %(role)s."),
    "www.result.is": _("%(name)s is %(value)s."),
    "www.result.autopsy": _("Yesterday's executed player, %(name)s, was %(value)s."),
    "www.result.autopsy_none": _("Nobody was executed yesterday."),
    "www.result.vision": _("The spirits reveal that %(name)s is %(role)s."),
    "www.result.converted": _("The spirits reveal that %(name)s was recruited by the Outlaws."),
    "www.result.not_converted": _("The spirits reveal that %(name)s was not recruited by the "
                                  "Outlaws."),
    "www.result.vip": _("The victim %(name)s was: %(value)s."),
    "www.result.spotted_role": _("You recognized %(name)s: the %(role)s."),
    "www.result.spotted_by": _("%(name)s is the Schoolteacher."),
    "www.result.recruit.success": _("You recruited %(name)s: now an Outlaw."),
    "www.result.recruit.failed": _("Recruiting %(name)s failed."),
    "www.result.recruit.exposed": _("You were discovered while trying to recruit %(name)s."),
    "www.result.recognized": _("You and %(name)s recognized each other."),
    "www.result.recruited_by": _("You were recruited by %(name)s: you are now an Outlaw and "
                                 "keep your abilities."),
    "www.result.wills": _("The Notary hands you the wills of: %(names)s."),
    "www.result.rinnegato": _("Your target %(name)s died in the night: you are now the "
                              "Renegade."),
})  # fmt: skip

INDIANS = frozenset({"capo_indiano", "sciamano", "indiano"})


def _value(value: object) -> Message:
    return msg(f"www.value.{value}")


def _spotted(about: str | None, value: str) -> Message:
    """The Teacher's Indian by name ("X is Indian", as the Marshal's answer reads,
    WWW-D15); with www.teacher_learns_role his identity, name and role card (WWW-R36):
    ``about`` names him, ``value`` is his card."""
    if about is not None and value in INDIANS:
        return msg("www.result.spotted_role", name=about, role=Role(value))
    return msg("www.result.is", name=value, value=_value("indiano"))


RESULTS: dict[str, ResultKind] = {
    **GENERIC_RESULTS,
    "bounty": ResultKind(lambda about, value: msg("www.result.bounty", name=value), names=True),
    "bounty_role": ResultKind(
        lambda about, value: msg("www.result.bounty_role", name=about, role=Role(value))
    ),
    "role_of": ResultKind(
        lambda about, value: msg("www.result.role_of", name=about, role=Role(value))
    ),
    "investigation": ResultKind(
        lambda about, value: msg("www.result.is", name=about, value=_value(value))
    ),
    "autopsy": ResultKind(
        lambda about, value: (
            msg("www.result.autopsy", name=about, value=_value(value))
            if about
            else msg("www.result.autopsy_none")
        )
    ),
    "vision": ResultKind(
        lambda about, value: msg("www.result.vision", name=about, role=Role(value))
    ),
    "converted": ResultKind(
        lambda about, value: msg(
            "www.result.converted" if value else "www.result.not_converted", name=about
        )
    ),
    "vip": ResultKind(lambda about, value: msg("www.result.vip", name=about, value=_value(value))),
    "spotted": ResultKind(_spotted, names=True),
    "spotted_by": ResultKind(
        lambda about, value: msg("www.result.spotted_by", name=value), names=True
    ),
    "recruit": ResultKind(lambda about, value: msg(f"www.result.recruit.{value}", name=about)),
    "recognized": ResultKind(
        lambda about, value: msg("www.result.recognized", name=value), names=True
    ),
    "recruited_by": ResultKind(
        lambda about, value: msg("www.result.recruited_by", name=value), names=True
    ),
    "wills": ResultKind(
        lambda about, value: msg("www.result.wills", names=listed(value)), names=True
    ),
    "rinnegato": ResultKind(
        lambda about, value: msg("www.result.rinnegato", name=value), names=True
    ),
}
