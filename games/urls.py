from django.urls import path

from games import views

app_name = "games"
urlpatterns = [
    path("nuova/", views.game_new, name="new"),
    path("<int:pk>/", views.game_detail, name="detail"),
    path("<int:pk>/giocatori/<int:player_pk>/link/", views.player_link_rotate, name="rotate"),
]
