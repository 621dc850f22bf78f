"""URLs: the web pages, the mobile API under /api/v1/, the health check and the operators'
read-only admin under /admin/ (staff only)."""

from django.contrib import admin
from django.urls import include, path
from knox.models import AuthToken

from config.health import healthz

# A token row says who is logged in where: keep knox's tokens out of the admin.
if admin.site.is_registered(AuthToken):
    admin.site.unregister(AuthToken)

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/v1/", include("config.api_urls")),
    path("healthz", healthz, name="healthz"),
    path("", include("accounts.urls")),
    path("", include("memory.web.urls")),
    path("", include("chat.urls")),
]

handler404 = "core.api.not_found"
handler500 = "core.error_pages.server_error"
