"""The memory part of the mobile API (SPEC §10), included by ``config/api_urls.py``."""

from django.urls import path

from memory.web.api import history, views

urlpatterns = [
    path("memory", views.MemoryView.as_view()),
    path("memory/lines", views.MemoryLinesView.as_view()),
    path("memory/import", views.MemoryImportView.as_view()),
    path("memory/lines/<int:index>", views.MemoryLineView.as_view()),
    path("memory/history", history.HistoryView.as_view()),
    path("memory/history/<int:version>", history.HistoryVersionView.as_view()),
    path("memory/restore", history.RestoreView.as_view()),
    path("memory/undo", history.UndoView.as_view()),
]
