"""Web pages of the memory app: the Memory section of Settings and its actions."""

from django.urls import path

from memory.web import importing, views

app_name = "memory"

urlpatterns = [
    path("settings/memory", views.section, name="section"),
    path("settings/memory/clear", views.clear, name="clear"),
    path("settings/memory/lines/<int:index>/delete", views.delete_line, name="delete_line"),
    path("settings/memory/lines/add", views.add_line, name="add_line"),
    path("settings/memory/lines/<int:index>/edit", views.edit_line, name="edit_line"),
    path("settings/memory/switch", views.switch, name="switch"),
    path("settings/memory/history", views.history, name="history"),
    path("settings/memory/history/restore", views.restore, name="restore"),
    path("settings/memory/import", importing.import_page, name="import"),
    path("settings/memory/import/preview", importing.preview, name="import_preview"),
    path("settings/memory/import/save", importing.save, name="import_save"),
]
