"""The mobile JSON API, version 1 (SPEC §10)."""

from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView

from accounts.api import views as accounts
from chat.api import views as chat

urlpatterns = [
    path("auth/guest", accounts.GuestView.as_view()),
    path("auth/signup", accounts.SignupView.as_view()),
    path("auth/login", accounts.LoginView.as_view()),
    path("auth/logout", accounts.LogoutView.as_view()),
    path("auth/logout-all", accounts.LogoutAllView.as_view()),
    path("auth/password", accounts.PasswordView.as_view()),
    path("auth/password-reset", accounts.PasswordResetView.as_view()),
    path("auth/password-reset/confirm", accounts.PasswordResetConfirmView.as_view()),
    path("account", accounts.AccountView.as_view()),
    path("account/export", accounts.ExportView.as_view()),
    path("models", chat.ModelsView.as_view()),
    path("conversations", chat.ConversationListView.as_view()),
    path("conversations/<int:pk>", chat.ConversationDetailView.as_view()),
    path("conversations/<int:pk>/messages", chat.MessageCreateView.as_view()),
    path(
        "conversations/<int:pk>/messages/<int:message_id>/stream",
        chat.MessageStreamView.as_view(),
    ),
    path("conversations/<int:pk>/regenerate", chat.RegenerateView.as_view()),
    path("conversations/<int:pk>/stop", chat.StopView.as_view()),
    path("projects", chat.ProjectListView.as_view()),
    path("projects/<int:pk>", chat.ProjectDetailView.as_view()),
    path("voice/sessions", chat.VoiceSessionCreateView.as_view()),
    path("voice/sessions/<int:pk>/end", chat.VoiceSessionEndView.as_view()),
    path("memory/changes", chat.MemoryChangesView.as_view()),
    path("", include("memory.web.api.urls")),
    path("schema", SpectacularAPIView.as_view(), name="schema"),
]
