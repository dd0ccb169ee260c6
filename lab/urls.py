from django.urls import path

from lab import views as balance_views

app_name = "balance"
urlpatterns = [
    path("", balance_views.balance_home, name="home"),
    path("<int:pk>/", balance_views.balance_detail, name="detail"),
    path("<int:pk>/annulla/", balance_views.balance_cancel, name="cancel"),
]
