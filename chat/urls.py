"""Web pages of the chat app."""

from django.urls import path

from chat import views

app_name = "chat"

urlpatterns = [
    path("", views.home, name="home"),
    path("c/new", views.new, name="new"),
    path("c/<int:pk>/", views.conversation, name="conversation"),
    path("c/<int:pk>/messages", views.send, name="send"),
    path("c/<int:pk>/model", views.switch_model, name="switch_model"),
    path("c/<int:pk>/regenerate", views.regenerate, name="regenerate"),
    path("c/<int:pk>/stop", views.stop, name="stop"),
    path("c/<int:pk>/edit/<int:message_pk>", views.edit, name="edit"),
    path("c/<int:pk>/memory-receipts", views.memory_receipts, name="memory_receipts"),
    path("c/<int:pk>/memory/undo", views.undo_memory, name="undo_memory"),
    path("c/<int:pk>/rename", views.rename, name="rename"),
    path("c/<int:pk>/delete", views.delete, name="delete"),
    path("c/search", views.search, name="search"),
    path("projects/", views.projects, name="projects"),
    path("projects/<int:pk>/", views.project, name="project"),
    path("projects/<int:pk>/delete", views.delete_project, name="delete_project"),
]
