"""Web pages of the accounts app, and Django's language switch under ``i18n/``."""

from django.urls import include, path

from accounts import views

app_name = "accounts"

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("login/", views.login_view, name="login"),
    path("logout/", views.logout_view, name="logout"),
    path("settings/", views.settings_view, name="settings"),
    path("settings/export", views.export, name="export"),
    path("settings/delete", views.delete, name="delete"),
    path("settings/password", views.password_change, name="password_change"),
    path("password-reset/", views.password_reset, name="password_reset"),
    path("password-reset/<str:key>/", views.password_reset_confirm, name="password_reset_confirm"),
    # The Preferences language form posts to Django's set_language ("accounts:set_language").
    path("i18n/", include("django.conf.urls.i18n")),
]
