"""Forms of the account pages."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth import password_validation
from django.core.exceptions import ValidationError
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

    def focus_first_error(self) -> None:
        """Autofocus the first field with an error; point screen readers at each error."""
        names = list(self.fields)
        for name in names:
            if name in self.errors:
                bound = self[name]
                said = [f"{bound.auto_id}_error"]
                if bound.help_text:
                    said.insert(0, f"{bound.auto_id}_helptext")
                self.fields[name].widget.attrs["aria-describedby"] = " ".join(said)
        wrong = next((name for name in names if name in self.errors), names[0])
        self.fields[wrong].widget.attrs["autofocus"] = True


class SignupForm(CredentialsForm):
    """Shows the password rules up front and a broken one under the field."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        password = self.fields["password"]
        password.widget.attrs["autocomplete"] = "new-password"
        password.help_text = password_validation.password_validators_help_text_html()

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        email, password = cleaned.get("email"), cleaned.get("password")
        if email and password is not None:
            try:
                password_validation.validate_password(password, User(username=email, email=email))
            except ValidationError as error:
                self.add_error("password", error)
        return cleaned


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
