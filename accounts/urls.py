"""Web pages of the accounts app."""

from django.urls import path

app_name = "accounts"

urlpatterns: list = []
