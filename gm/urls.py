from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.templatetags.static import static
from django.urls import include, path
from django.views.generic import RedirectView

from games.views import dashboard
from games.views import fixes as fix_views
from games.views import player as player_views
from games.views import rules as rules_views
from gm import views
from gm.forms import LoginForm


class FaviconView(RedirectView):
    """/favicon.ico, which browsers ask for on their own, to the site's icon; its hashed
    static URL is read per request (the manifest exists only after collectstatic)."""

    permanent = True

    def get_redirect_url(self, *args: object, **kwargs: object) -> str:
        return static("favicon.svg")


urlpatterns = [
    path("", dashboard.dashboard, name="dashboard"),
    path("healthz", views.healthz, name="healthz"),
    # what a browser asks for on its own, whatever the page's <link rel="icon"> (issue 31)
    path("favicon.ico", FaviconView.as_view()),
    path("accedi/", auth_views.LoginView.as_view(authentication_form=LoginForm), name="login"),
    path("esci/", auth_views.LogoutView.as_view(), name="logout"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("partite/", include("games.urls")),
    path("bilanciamento/", include("lab.urls")),
    path("p/<str:token>/", player_views.player_enter, name="player_enter"),
    path("io/", player_views.player_home, name="player_home"),
    path("io/azione/", player_views.player_action, name="player_action"),
    path("io/voto/", player_views.player_vote, name="player_vote"),
    path("io/testamento/", player_views.player_will, name="player_will"),
    path("io/ritira/", fix_views.player_withdraw, name="player_withdraw"),
    path("regolamento/<slug:setup>/", rules_views.rulebook_page, name="rulebook"),
    path("", include("desks.urls")),
    path("admin/", admin.site.urls),
]
