from django.contrib import admin

from games.models import Game, Player


class PlayerInline(admin.TabularInline):
    model = Player
    extra = 0


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ["name", "setup", "status", "gm", "created_at"]
    list_filter = ["setup", "status"]
    inlines = [PlayerInline]
