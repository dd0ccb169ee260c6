from django.urls import path

from desks.automobile import views as automobile
from desks.ribelle import views as ribelle

app_name = "desks"
urlpatterns = [
    path("partite/nuova/bang/", ribelle.ribelle_new, name="ribelle_new"),
    path("partite/<int:pk>/bang/evento/", ribelle.ribelle_event, name="ribelle_event"),
    path("partite/<int:pk>/bang/annulla/", ribelle.ribelle_undo, name="ribelle_undo"),
    path("partite/nuova/automobile/", automobile.adt_new, name="adt_new"),
    path("partite/<int:pk>/automobile/evento/", automobile.adt_event, name="adt_event"),
    path("partite/<int:pk>/automobile/annulla/", automobile.adt_undo, name="adt_undo"),
    path("io/rivela/", ribelle.player_reveal, name="player_reveal"),
    path("io/nascondiglio/", automobile.player_hide, name="player_hide"),
]
