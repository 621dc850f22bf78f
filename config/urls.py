"""URLs: the web pages, the mobile API under /api/v1/, and the health check."""

from django.urls import include, path

from config.health import healthz

urlpatterns = [
    path("api/v1/", include("config.api_urls")),
    path("healthz", healthz, name="healthz"),
    path("", include("accounts.urls")),
    path("", include("memory.urls")),
    path("", include("chat.urls")),
]

handler404 = "core.api.not_found"
handler500 = "core.error_pages.server_error"
