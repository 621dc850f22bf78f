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
    path("projects/", views.projects, name="projects"),
]
