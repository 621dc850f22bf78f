"""Web pages of the memory app: the Memory section of Settings and its actions."""

from django.urls import path

from memory.web import views

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
]
