"""Account pages: sign up, log in and out, Settings, passwords. A guest signing up or logging
in is merged by ``accounts.services``; the views pass it along."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth import login, logout, update_session_auth_hash
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _
from django.views.decorators.cache import never_cache
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts import passwords, services
from accounts.forms import (
    CredentialsForm,
    DeleteAccountForm,
    NewPasswordForm,
    PasswordChangeForm,
    PasswordResetForm,
    SignupForm,
)
from accounts.middleware import MODEL_BACKEND
from accounts.models import User
from accounts.web import account_of, guest_of
from core import throttling
from core.error_pages import shown_on_page
from core.people import person_optional
from memory.facade import section_context


def _next_url(request: HttpRequest) -> str:
    target = request.POST.get("next") or request.GET.get("next") or ""
    safe = url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return target if safe else "/"


def _enter(request: HttpRequest, account: User) -> HttpResponse:
    login(request, account, backend=MODEL_BACKEND)
    return redirect(_next_url(request))


def _credentials_page(request: HttpRequest, template: str, form: CredentialsForm) -> HttpResponse:
    context = {"form": form, "next": _next_url(request), "guest": guest_of(request)}
    if form.errors:
        form.focus_first_error()
    return render(request, template, context, status=400 if form.errors else 200)


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if request.method == "POST" and (
        refused := throttling.refuse_page(request, *throttling.SIGNUP)
    ):
        return refused
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        with shown_on_page(request, form=form):
            account = services.sign_up(**form.cleaned_data, guest=guest_of(request))
            messages.success(request, _("Welcome! Your chats and memory are kept in your account."))
            return _enter(request, account)
    return _credentials_page(request, "accounts/signup.html", form)


@require_http_methods(["GET", "POST"])
def login_view(request: HttpRequest) -> HttpResponse:
    if request.method == "POST" and (refused := throttling.refuse_page(request, *throttling.LOGIN)):
        return refused
    form = CredentialsForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        with shown_on_page(request, form=form):
            return _enter(request, services.log_in(**form.cleaned_data, guest=guest_of(request)))
    return _credentials_page(request, "accounts/login.html", form)


@require_POST
def logout_view(request: HttpRequest) -> HttpResponse:
    logout(request)
    messages.success(request, _("You're logged out."))
    return redirect("chat:home")


def _settings_page(
    request: HttpRequest, delete_form: DeleteAccountForm | None, status: int = 200
) -> HttpResponse:
    expanded = request.GET.get("memory") == "open"
    context = {"delete_form": delete_form, **section_context(request, expanded=expanded)}
    return render(request, "accounts/settings.html", context, status=status)


@require_GET
@person_optional
def settings_view(request: HttpRequest) -> HttpResponse:
    account = account_of(request)
    return _settings_page(request, DeleteAccountForm(account) if account else None)


@require_GET
@never_cache
@person_optional
def export(request: HttpRequest) -> HttpResponse:
    account = account_of(request)
    if account is None:  # a visitor who has not acted yet has nothing saved
        return redirect("accounts:settings")
    data = services.export_account(user=account)
    response = JsonResponse(data, json_dumps_params={"ensure_ascii": False, "indent": 2})
    response["Content-Disposition"] = f'attachment; filename="{services.EXPORT_FILENAME}"'
    return response


@require_http_methods(["GET", "POST"])
@person_optional
def delete(request: HttpRequest) -> HttpResponse:
    account = account_of(request)
    if account is None:  # nothing saved, nothing to delete
        return redirect("accounts:settings")
    if request.method == "GET":
        # The confirmation dialog, without JavaScript.
        form = DeleteAccountForm(account)
        return render(request, "accounts/delete_confirm.html", {"delete_form": form})
    if refused := throttling.refuse_page(request, *throttling.PASSWORD_CHECK):
        return refused
    form = DeleteAccountForm(account, request.POST)
    if not form.is_valid():
        return _settings_page(request, form, status=400)
    services.delete_account(user=account)
    logout(request)
    messages.success(request, _("Deleted. Your chats, projects and memory are gone."))
    return redirect("chat:home")


def _form_page(request: HttpRequest, template: str, form: forms.Form) -> HttpResponse:
    return render(request, template, {"form": form}, status=400 if form.errors else 200)


@require_http_methods(["GET", "POST"])
@sensitive_post_parameters()
@person_optional
def password_change(request: HttpRequest) -> HttpResponse:
    account = account_of(request)
    if account is None or account.is_guest:  # no password to change
        return redirect("accounts:settings")
    if request.method == "POST" and (
        refused := throttling.refuse_page(request, *throttling.PASSWORD_CHECK)
    ):
        return refused
    form = PasswordChangeForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        with shown_on_page(request, form=form):
            passwords.change_password(
                user=account,
                old_password=form.cleaned_data["old_password"],
                new_password=form.cleaned_data["new_password1"],
            )
            update_session_auth_hash(request, account)  # this session stays; the others end
            messages.success(request, _("Password changed. Your other devices are logged out."))
            return redirect("accounts:settings")
    return _form_page(request, "accounts/password_change.html", form)


@require_http_methods(["GET", "POST"])
def password_reset(request: HttpRequest) -> HttpResponse:
    if request.method == "POST" and (
        refused := throttling.refuse_page(request, *throttling.PASSWORD_RESET)
    ):
        return refused
    form = PasswordResetForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        with shown_on_page(request, form=form):
            passwords.request_password_reset(
                email=form.cleaned_data["email"], language=get_language()
            )
            # The same words whoever has the address.
            messages.success(
                request,
                _("If an account has this address, a link to reset its password is on its way."),
            )
            return redirect("accounts:login")
    return _form_page(request, "accounts/password_reset.html", form)


# The key stays in this page's address: nothing loads from another origin and Referrer-Policy
# is same-origin, so no Referer carries it away.
@require_http_methods(["GET", "POST"])
@never_cache
@sensitive_post_parameters()
def password_reset_confirm(request: HttpRequest, key: str) -> HttpResponse:
    if request.method == "POST" and (
        refused := throttling.refuse_page(request, throttling.LoginThrottle)
    ):
        return refused
    if passwords.account_for_reset_key(key) is None:
        return render(request, "accounts/password_reset_confirm.html", {"form": None}, status=400)
    form = NewPasswordForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        with shown_on_page(request, form=form):
            passwords.reset_password(key=key, password=form.cleaned_data["new_password1"])
            messages.success(request, _("Your new password is set. Log in with it."))
            return redirect("accounts:login")
    return _form_page(request, "accounts/password_reset_confirm.html", form)
