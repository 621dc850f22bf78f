"""Property-based run of the whole mobile API from its own OpenAPI document: no input the
schema allows (and none it does not) may make the server answer 5xx, and every answer is what
the document says: status, media type, headers and body."""

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from accounts.tokens import issue_token
from config.wsgi import application
from tests.conftest import make_account

schema = schemathesis.openapi.from_wsgi("/api/v1/schema", application)
# Logging out or deleting the account mid-run would only test the 401 path from then on.
schema = schema.exclude(path_regex=r"auth/logout|^/api/v1/account$")


@pytest.fixture
def token(db, scripted):
    # As Django's test client does: keep the test's connection (and its transaction) open
    # across the WSGI requests schemathesis makes.
    from django.core import signals
    from django.db import close_old_connections

    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    yield issue_token(make_account("fuzz@example.com"))
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)


@schema.parametrize()
@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
def test_no_request_makes_the_api_answer_5xx(case, token):
    response = case.call(headers={"Authorization": f"Token {token}"})
    case.validate_response(response, checks=[not_a_server_error])


CONFORMANCE = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
]


@schema.parametrize()
@settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))
def test_every_answer_is_what_the_schema_says(case, token):
    """Status, media type, headers and body: a generated client may trust every one."""
    # Uncompressed: the WSGI transport hands bodies over as sent, and gzip is HTTP's business.
    headers = {"Authorization": f"Token {token}", "Accept-Encoding": "identity"}
    response = case.call(headers=headers)
    case.validate_response(response, checks=CONFORMANCE)
