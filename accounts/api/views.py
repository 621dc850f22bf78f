"""The account part of the mobile API: guests, sign up, log in and out (one device, or all),
passwords (change, reset by e-mail), export, deletion."""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser
from django.db import transaction
from django.utils.decorators import method_decorator
from django.utils.translation import get_language, gettext
from django.views.decorators.cache import never_cache
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import passwords, services
from accounts.api.authentication import TokenIfStillValid
from accounts.models import User
from accounts.tokens import token_answer
from core import throttling
from core.schema import errors


class TokenSerializer(serializers.Serializer):
    token = serializers.CharField()
    expires_at = serializers.DateTimeField(
        allow_null=True,
        help_text="When the token ends unless used: each use moves it on (30 days by default, "
        "up to a year after login). Null for a guest's, which ends with the guest.",
    )


class CredentialsSerializer(serializers.Serializer):
    email = serializers.CharField(max_length=254)
    password = serializers.CharField(max_length=256, trim_whitespace=False)


def _token(user: User) -> dict[str, object]:
    return TokenSerializer(token_answer(user)).data


def _guest_of(request: Request) -> User | None:
    """The guest whose token came with a signup or login, to be merged into the account."""
    user = request.user
    if user is None or isinstance(user, AnonymousUser) or not user.is_guest:
        return None
    return user


class AccountRequest(Request):
    """A request ``IsAuthenticated`` let through: only a User. A type, never built."""

    user: User


class PasswordSerializer(serializers.Serializer):
    password = serializers.CharField(
        max_length=256, required=False, allow_blank=True, trim_whitespace=False
    )


class GuestView(APIView):
    permission_classes = [AllowAny]
    authentication_classes: list = []
    throttle_classes = [throttling.GuestThrottle]

    @extend_schema(request=None, responses={201: TokenSerializer})
    def post(self, request: Request) -> Response:
        guest = services.create_guest()
        return Response(_token(guest), status=status.HTTP_201_CREATED)


class SignupView(APIView):
    permission_classes = [AllowAny]
    authentication_classes = [TokenIfStillValid]
    throttle_classes = list(throttling.SIGNUP)

    @extend_schema(
        request=CredentialsSerializer,
        responses={
            201: TokenSerializer,
            400: errors("invalid_email", "weak_password", "email_taken"),
        },
    )
    def post(self, request: Request) -> Response:
        data = CredentialsSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        # Together: an outage must not leave an account the app has no token for.
        with transaction.atomic():
            account = services.sign_up(**data.validated_data, guest=_guest_of(request))
            answer = _token(account)
        return Response(answer, status=status.HTTP_201_CREATED)


class LoginView(APIView):
    permission_classes = [AllowAny]
    authentication_classes = [TokenIfStillValid]
    throttle_classes = list(throttling.LOGIN)

    @extend_schema(
        request=CredentialsSerializer,
        responses={200: TokenSerializer, 400: errors("invalid_credentials")},
    )
    def post(self, request: Request) -> Response:
        data = CredentialsSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        # A guest's token along merges the guest (and its tokens) away.
        with transaction.atomic():
            account = services.log_in(**data.validated_data, guest=_guest_of(request))
            answer = _token(account)
        return Response(answer)


class LogoutView(APIView):
    @extend_schema(request=None, responses={204: None})
    def post(self, request: AccountRequest) -> Response:
        """End this device's token; the person's other devices stay logged in."""
        services.log_out(token=request.auth)
        return Response(status=status.HTTP_204_NO_CONTENT)


class LogoutAllView(APIView):
    @extend_schema(request=None, responses={204: None})
    def post(self, request: AccountRequest) -> Response:
        """End every token of the person, this one included."""
        services.log_out_everywhere(user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class PasswordChangeSerializer(serializers.Serializer):
    old_password = serializers.CharField(max_length=256, trim_whitespace=False)
    new_password = serializers.CharField(max_length=256, trim_whitespace=False)


class PasswordView(APIView):
    throttle_classes = list(throttling.PASSWORD_CHECK)

    @extend_schema(
        request=PasswordChangeSerializer,
        responses={
            200: TokenSerializer,
            400: errors("wrong_old_password", "weak_password"),
            403: errors("not_an_account"),
        },
    )
    def post(self, request: AccountRequest) -> Response:
        """Change the password: every token and web session ends; this device gets a new token."""
        data = PasswordChangeSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        with transaction.atomic():
            passwords.change_password(user=request.user, **data.validated_data)
            answer = _token(request.user)
        return Response(answer)


class PasswordResetSerializer(serializers.Serializer):
    email = serializers.CharField(max_length=254)


class ResetRequestedSerializer(serializers.Serializer):
    detail = serializers.CharField()


class PasswordResetView(APIView):
    permission_classes = [AllowAny]
    authentication_classes: list = []
    throttle_classes = list(throttling.PASSWORD_RESET)

    @extend_schema(
        request=PasswordResetSerializer,
        responses={202: ResetRequestedSerializer, 400: errors("invalid_email")},
    )
    def post(self, request: Request) -> Response:
        """Mail a one-time reset link; the same 202 whether or not an account has the address."""
        data = PasswordResetSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        passwords.request_password_reset(**data.validated_data, language=get_language())
        detail = gettext(
            "If an account has this address, a link to reset its password is on its way."
        )
        return Response({"detail": detail}, status=status.HTTP_202_ACCEPTED)


class PasswordResetConfirmSerializer(serializers.Serializer):
    token = serializers.CharField(max_length=200, help_text="The key at the end of the link.")
    password = serializers.CharField(max_length=256, trim_whitespace=False)


class PasswordResetConfirmView(APIView):
    permission_classes = [AllowAny]
    authentication_classes: list = []
    throttle_classes = [throttling.LoginThrottle]

    @extend_schema(
        request=PasswordResetConfirmSerializer,
        responses={204: None, 400: errors("invalid_reset_token", "weak_password")},
    )
    def post(self, request: Request) -> Response:
        """Set the password a reset link was mailed for; the link is spent, every session ends."""
        data = PasswordResetConfirmSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        passwords.reset_password(
            key=data.validated_data["token"], password=data.validated_data["password"]
        )
        return Response(status=status.HTTP_204_NO_CONTENT)


class AccountView(APIView):
    throttle_classes = list(throttling.PASSWORD_CHECK)
    delete_takes_a_body = True  # the password (core.schema)

    @extend_schema(
        request=PasswordSerializer,
        responses={
            204: None,
            400: errors("password_required"),
            403: errors("wrong_password"),
        },
    )
    def delete(self, request: AccountRequest) -> Response:
        """Delete the account and all its data; an account confirms with its password."""
        data = PasswordSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.check_deletion_password(
            user=request.user, password=data.validated_data.get("password")
        )
        services.delete_account(user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


@method_decorator(never_cache, name="dispatch")  # never kept by a cache
class ExportView(APIView):
    @extend_schema(responses={200: dict})
    def get(self, request: AccountRequest) -> Response:
        response = Response(services.export_account(user=request.user))
        response["Content-Disposition"] = f'attachment; filename="{services.EXPORT_FILENAME}"'
        return response
