from django.urls import path

from games.views import archive as archive_views
from games.views import backup as backup_views
from games.views import dashboard as dashboard_views
from games.views import fixes as fix_views
from games.views import follow as follow_views
from games.views import game as views
from games.views import narration as narration_views
from games.views import phase as gm_views
from games.views import rules as rules_views
from games.views import topic as import_views
from games.views import wills as will_views

app_name = "games"
urlpatterns = [
    path("nuova/", views.game_new, name="new"),
    path("importa/", backup_views.game_import_view, name="import"),
    path("<int:pk>/backup/", backup_views.game_backup, name="backup"),
    path("<int:pk>/", views.game_detail, name="detail"),
    path("<int:pk>/archivia/", archive_views.game_archive_view, name="archive"),
    path("<int:pk>/ripristina/", archive_views.game_restore_view, name="restore"),
    path("<int:pk>/elimina/", archive_views.game_delete_view, name="delete"),
    path("<int:pk>/avviso/", dashboard_views.clock_notice_seen, name="clock_notice_seen"),
    path("<int:pk>/giocatori/<int:player_pk>/link/", views.player_link_rotate, name="rotate"),
    path(
        "<int:pk>/giocatori/<int:player_pk>/sostituisci/",
        views.player_substitute_view,
        name="substitute",
    ),
    path("<int:pk>/registro/", views.game_audit, name="audit"),
    path("<int:pk>/regolamento/", rules_views.game_rulebook, name="rulebook"),
    path("<int:pk>/spoiler/", views.game_spoiler, name="spoiler"),
    path("<int:pk>/testamenti/", will_views.game_wills, name="wills"),
    path("<int:pk>/fase/", gm_views.phase_page, name="phase"),
    path("<int:pk>/fase/voto/", gm_views.gm_vote, name="gm_vote"),
    path("<int:pk>/fase/azione/", gm_views.gm_action, name="gm_action"),
    path("<int:pk>/fase/correzione/", gm_views.gm_override, name="gm_override"),
    path("<int:pk>/fase/risolvi/", gm_views.gm_commit, name="gm_commit"),
    path("<int:pk>/fase/annulla/", gm_views.gm_undo, name="gm_undo"),
    path("<int:pk>/annunci/", gm_views.game_posts, name="posts"),
    path(
        "<int:pk>/annunci/<int:phase_pk>/testo/",
        narration_views.phase_narration,
        name="narration",
    ),
    path("<int:pk>/fase/scadenza/", gm_views.gm_deadline, name="gm_deadline"),
    path("<int:pk>/scadenze/", gm_views.gm_schedule, name="gm_schedule"),
    path("<int:pk>/fase/topic/", import_views.topic_import, name="topic_import"),
    path("<int:pk>/topic/", import_views.topic_settings_save, name="topic_settings"),
    path("<int:pk>/fase/conteggio/", import_views.vote_count_now, name="count_now"),
    path("<int:pk>/topic/segui/", follow_views.follow_save, name="follow_save"),
    path("<int:pk>/topic/seguito/", follow_views.follow_panel, name="follow_panel"),
    path("<int:pk>/topic/seguito/decidi/", follow_views.follow_decide, name="follow_decide"),
    path("<int:pk>/fase/invio/<int:sub_pk>/", fix_views.submission_edit, name="submission_edit"),
    path(
        "<int:pk>/fase/correzione/togli/", fix_views.gm_override_remove, name="gm_override_remove"
    ),
    path("<int:pk>/fase/annulla/conferma/", fix_views.undo_confirm, name="gm_undo_confirm"),
    path(
        "<int:pk>/giocatori/<int:player_pk>/rinomina/", fix_views.player_rename_view, name="rename"
    ),
]
