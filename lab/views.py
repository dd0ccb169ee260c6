"""The Bilanciamento pages (docs/balance.md): start a study, watch it, cancel it, read it."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from lab.forms import BalanceStudyForm
from lab.models import BalanceStudy
from lab.plots import plots
from lab.services import (
    StudyRefused,
    balance_progress,
    balance_study_cancel,
    balance_study_start,
)
from lab.words import compared_words, variant_words
from roles.engine.setups import SetupError, load_setup


def _setup_name(key: str) -> str:
    try:
        return load_setup(key).name
    except SetupError:  # a study of a setup since removed
        return key


@login_required
def balance_home(request: HttpRequest) -> HttpResponse:
    """The form and the GM's studies; a valid POST starts a study."""
    if request.method == "POST":
        form = BalanceStudyForm(request.POST)
        if form.is_valid():
            data = form.cleaned_data
            try:
                study = balance_study_start(
                    gm=request.user, variant=form.variant(), games=data["games"],
                    model=data["model"], seed=data["seed"], versus=form.second(),
                )  # fmt: skip
            except StudyRefused as refusal:
                form.add_error(None, str(refusal))
            else:
                if study.status == BalanceStudy.Status.FAILED:
                    messages.error(request, _("Studio non avviato: %(why)s.")
                                   % {"why": study.get_failure_display()})  # fmt: skip
                else:
                    messages.success(request, _("Studio avviato."))
                return redirect(study)
    else:
        setup_key = request.GET.get("setup")
        form = BalanceStudyForm(setup_key=setup_key, initial={"setup": setup_key})
    if request.htmx and request.method == "GET":
        return render(request, "games/balance.html#options", {"form": form})
    studies = [(s, _setup_name(s.setup), compared_words(s))
               for s in BalanceStudy.objects.filter(gm=request.user)[:50]]  # fmt: skip
    return render(request, "games/balance.html", {"form": form, "studies": studies})


def _study(request: HttpRequest, pk: int) -> BalanceStudy:
    return get_object_or_404(BalanceStudy, pk=pk, gm=request.user)


def _held(study: BalanceStudy) -> dict[str, int]:
    """The games a study's figures hold, per variant (a cancelled study keeps those)."""
    figures = study.figures or {}
    return {key: figures[key]["games"] for key in ("first", "second") if key in figures}


@login_required
def balance_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """A study: its progress while it runs (polled by htmx), then its figures and plots."""
    study = _study(request, pk)
    second = variant_words(study.setup, study.versus) if study.versus else ""
    context = {"study": study, "progress": balance_progress(study),
               "setup_name": _setup_name(study.setup),
               "first_words": variant_words(study.setup, study.variant), "second_words": second,
               "held": _held(study)}  # fmt: skip
    if request.htmx and study.status in BalanceStudy.ACTIVE:
        return render(request, "games/balance_detail.html#progress", context)
    if study.figures:
        context["plots"] = plots(study, get_language() or "it")
        context["sentences"] = study.figures.get("sentences", {}).get(
            "en" if (get_language() or "it").startswith("en") else "it", []
        )
    if request.htmx:
        response = HttpResponse()
        response["HX-Refresh"] = "true"  # the study ended: the whole page shows its figures
        return response
    return render(request, "games/balance_detail.html", context)


@login_required
@require_POST
def balance_cancel(request: HttpRequest, pk: int) -> HttpResponse:
    study = _study(request, pk)
    if balance_study_cancel(study=study):
        messages.success(request, _("Studio annullato."))
    return redirect(study)
