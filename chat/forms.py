"""Forms of the chat pages: parse and validate only; the services create."""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from chat import services
from chat.models import Project
from core.people import Person
from memory.facade import clean_text


def model_choices() -> list[tuple[str, str]]:
    return [(option.id, option.label) for option in services.available_models()]


class NewConversationForm(forms.Form):
    model = forms.ChoiceField(label=_("Model"))
    # An id: the view's access helper makes someone else's project a 404.
    project = forms.IntegerField(label=_("Project"), required=False, widget=forms.Select)
    temporary = forms.BooleanField(
        label=_("Temporary chat"),
        required=False,
        help_text=_("Not remembered: this chat neither uses nor adds to memory."),
    )
    content = forms.CharField(
        label=_("Message"),
        required=False,
        strip=False,
        widget=forms.Textarea(attrs={"rows": 3, "placeholder": _("Message"), "autofocus": True}),
    )

    def __init__(self, user: Person | None, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["model"]).choices = model_choices()
        self.fields["model"].initial = settings.DEFAULT_CHAT_MODEL
        projects = Project.objects.for_owner(user).values_list("pk", "name")
        self.fields["project"].widget.choices = [("", _("No project")), *projects]


class CleanTextField(forms.CharField):
    """Cleaned before the length checks, so ``max_length`` counts what is stored (NFC grows)."""

    def to_python(self, value: Any) -> str | None:
        return super().to_python(clean_text(value) if isinstance(value, str) else value)


class ProjectForm(forms.Form):
    name = CleanTextField(label=_("Name"), max_length=120)
    instructions = CleanTextField(
        label=_("Instructions"),
        required=False,
        max_length=8_000,
        help_text=_("Applied to every chat in this project. They are not memory."),
        widget=forms.Textarea(attrs={"rows": 4}),
    )


class RenameForm(forms.Form):
    # Blank and length are the service's (the API's rule).
    title = forms.CharField(label=_("Title"), required=False, strip=False)
