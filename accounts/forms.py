"""Forms of the account pages. Signing up and in is done by ``accounts.services``, passwords
by ``accounts.passwords``."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from accounts.models import User


class CredentialsForm(forms.Form):
    email = forms.EmailField(
        label=_("Email"), max_length=254, widget=forms.EmailInput(attrs={"autocomplete": "email"})
    )
    password = forms.CharField(
        label=_("Password"),
        max_length=256,
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )


class SignupForm(CredentialsForm):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["password"].widget.attrs["autocomplete"] = "new-password"


class DeleteAccountForm(forms.Form):
    """Deleting an account asks for its password; a guest has none to give."""

    password = forms.CharField(
        label=_("Password"),
        required=False,
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )

    def __init__(self, user: User, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user = user

    def clean_password(self) -> str:
        password = self.cleaned_data.get("password") or ""
        if not self.user.is_guest and not self.user.check_password(password):
            raise forms.ValidationError(_("Wrong password. Nothing was deleted."))
        return password


class NewPasswordForm(forms.Form):
    """A new password, typed twice; ``accounts.passwords`` checks it against the validators."""

    new_password1 = forms.CharField(
        label=_("New password"),
        max_length=256,
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )
    new_password2 = forms.CharField(
        label=_("New password again"),
        max_length=256,
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )

    def clean_new_password2(self) -> str:
        first = self.cleaned_data.get("new_password1")
        second = self.cleaned_data.get("new_password2") or ""
        if first is not None and first != second:
            raise forms.ValidationError(_("The two passwords differ."))
        return second


class PasswordChangeForm(NewPasswordForm):
    old_password = forms.CharField(
        label=_("Current password"),
        max_length=256,
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )
    field_order = ["old_password", "new_password1", "new_password2"]


class PasswordResetForm(forms.Form):
    email = forms.EmailField(
        label=_("Email"), max_length=254, widget=forms.EmailInput(attrs={"autocomplete": "email"})
    )
