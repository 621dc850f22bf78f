"""A deadlock or a serialization failure is a race, not an outage (issue 16): a use-case that
locks several rows runs again a bounded number of times (``core.db``), and one lost after every
retry answers 409 ``busy`` on the API and on the web, never 503. The deadlocks here are real:
two connections lock two rows in opposite orders and PostgreSQL rolls one of them back.
"""

from __future__ import annotations

import json
import threading

import pytest
from django.db import OperationalError, transaction
from django.http import HttpResponse
from django.test import RequestFactory

from accounts.models import User
from core import db
from core.api import exception_handler
from core.db import is_lock_conflict, retry_on_lock_conflict
from core.error_pages import OutageMiddleware
from tests.conftest import make_account
from tests.races import in_background
from tests.test_outages import database_unreachable

pytestmark = pytest.mark.django_db(transaction=True)


def crossing(*, attempts: list[int], cross_on: int = 2):
    """Two people's rows locked in the order given; the first ``cross_on`` attempts of all
    callers meet at a barrier between their two locks, so callers in opposite orders deadlock."""
    barrier = threading.Barrier(2, timeout=20)

    def lock_both(first: int, second: int) -> str:
        attempts.append(first)
        with transaction.atomic():
            db.lock(User.objects.filter(pk=first))
            if len(attempts) <= cross_on:
                barrier.wait()
            db.lock(User.objects.filter(pk=second))
        return "locked"

    return lock_both


def in_opposite_orders(lock_both) -> list[object]:
    anna, bea = make_account("anna@example.com"), make_account("bea@example.com")
    one, first = in_background(lambda: lock_both(anna.pk, bea.pk))
    two, second = in_background(lambda: lock_both(bea.pk, anna.pk))
    one.join()
    two.join()
    return [*first, *second]


def a_real_deadlock() -> OperationalError:
    """The error PostgreSQL's deadlock detector raises, as Django hands it over."""
    results = in_opposite_orders(crossing(attempts=[]))
    lost = [r for r in results if isinstance(r, Exception)]
    assert len(lost) == 1, results
    assert isinstance(lost[0], OperationalError)
    return lost[0]


def test_a_deadlock_is_a_lock_conflict_and_an_unreachable_database_is_not() -> None:
    assert is_lock_conflict(a_real_deadlock())
    with database_unreachable(), pytest.raises(OperationalError) as outage:
        User.objects.count()
    assert not is_lock_conflict(outage.value)


def test_a_use_case_that_loses_a_deadlock_runs_again_and_both_sides_succeed() -> None:
    attempts: list[int] = []
    results = in_opposite_orders(retry_on_lock_conflict(crossing(attempts=attempts)))
    assert results == ["locked", "locked"]
    assert len(attempts) > 2  # the side PostgreSQL rolled back ran again (once, usually)


def always_losing(deadlock: OperationalError, attempts: list[int]):
    """A use-case that loses ``deadlock`` every time it runs."""

    @retry_on_lock_conflict
    def loses() -> None:
        attempts.append(1)
        raise deadlock

    return loses


def test_a_use_case_that_keeps_losing_gives_up_after_three_attempts() -> None:
    attempts: list[int] = []
    with pytest.raises(OperationalError):
        always_losing(a_real_deadlock(), attempts)()
    assert len(attempts) == db.LOCK_CONFLICT_ATTEMPTS == 3


def test_inside_a_callers_transaction_a_use_case_runs_once() -> None:
    attempts: list[int] = []
    loses = always_losing(a_real_deadlock(), attempts)
    with pytest.raises(OperationalError), transaction.atomic():
        loses()
    assert attempts == [1]  # the caller's transaction is lost too: only the caller can retry


def test_an_outage_is_not_retried() -> None:
    attempts = []

    @retry_on_lock_conflict
    def reads() -> int:
        attempts.append(1)
        return User.objects.count()

    with database_unreachable(), pytest.raises(OperationalError):
        reads()
    assert attempts == [1]


def test_a_deadlock_lost_after_its_retries_answers_409_busy_on_the_api() -> None:
    response = exception_handler(a_real_deadlock(), {})
    assert response is not None
    assert response.status_code == 409
    assert response.data["code"] == "busy"
    assert response.data["detail"]


@pytest.mark.parametrize("path", ["/api/v1/memory", "/settings/memory/clear"])
def test_a_deadlock_lost_after_its_retries_answers_409_busy_on_the_web(path) -> None:
    deadlock = a_real_deadlock()
    request = RequestFactory().post(path, HTTP_ACCEPT="application/json")
    response = OutageMiddleware(lambda request: HttpResponse()).process_exception(request, deadlock)
    assert response is not None
    assert response.status_code == 409
    assert json.loads(response.content)["code"] == "busy"
    page = OutageMiddleware(lambda request: HttpResponse()).process_exception(
        RequestFactory().post(path), deadlock
    )
    assert page is not None
    assert page.status_code == 409
