"""Several writes as one round trip, all or nothing.

On PostgreSQL, outside a transaction, the writes go as one statement of data-modifying ``WITH``
queries. It first locks the rows of each update that expects a number of rows, the first
update's before the others (``core.db``'s lock order), and writes only if every count is as
expected: every other write is gated on the first. So a miss writes nothing and raises nothing.
Its values travel apart from the SQL (server-side binding): what the server shows or logs of a
batch, even one that fails, holds no user text.

Elsewhere (SQLite, or inside the caller's transaction) the same writes run one by one and stop
at the first miss; inside the caller's transaction, the caller rolls back what came before it.

The ORM compiles every write, so a batch says nothing its querysets do not.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, TypeVar, cast

from django.db import connection, transaction
from django.db.backends.postgresql.base import ServerBindingCursor
from django.db.models import BooleanField, Model, QuerySet
from django.db.models.expressions import RawSQL
from django.db.models.sql import InsertQuery, UpdateQuery


@dataclass(frozen=True)
class Update:
    """``rows.update(**values)``; ``expect``: how many rows it must change, or the batch misses."""

    rows: QuerySet[Any, Any]
    values: Mapping[str, Any]
    expect: int | None = None


@dataclass(frozen=True)
class Insert:
    """``row.save(force_insert=True)``."""

    row: Model


@dataclass(frozen=True)
class Inserted:
    """A value to update with: the id of the row that step ``step`` of the batch inserts."""

    step: int


Write = Update | Insert
M = TypeVar("M", bound=Model)


def write(*writes: Write, lazy: bool = False) -> bool:
    """Apply ``writes`` in order, the first an update that expects its rows; False when an
    update missed its ``expect`` (then nothing is written, unless inside the caller's
    transaction: see the module).

    ``lazy``: commit without waiting for the disk (``synchronous_commit = off``), for writes a
    crash may lose because they are redone (a memory pass's)."""
    first = writes[0]
    assert isinstance(first, Update) and first.expect is not None
    if connection.in_atomic_block:
        return _one_by_one(writes)
    if connection.vendor != "postgresql":
        with transaction.atomic():
            written = _one_by_one(writes)
            transaction.set_rollback(not written)
            return written
    steps, params = _steps(writes, lazy=lazy)
    with _bound_cursor() as cursor:
        cursor.execute(f"WITH {steps} SELECT count(*) FROM w0", params)  # noqa: S608 - ours
        (written,) = cursor.fetchone()
    return bool(written)


def write_then_read(first: Update, rows: QuerySet[M, M], *, lazy: bool = False) -> list[M] | None:
    """``first`` (which changes one row), then ``rows`` if it did (else None): one round trip
    on PostgreSQL outside a transaction. ``rows`` must hold the row ``first`` changes, and read
    it as ``first`` left it."""
    assert first.expect == 1
    if connection.vendor != "postgresql" or connection.in_atomic_block:
        return list(rows) if write(first) else None
    steps, params = _steps([first], lazy=lazy, returning="*")
    # The query reads the updated row: a WITH query of the table's name hides the table.
    # A plain read would see the row as the statement found it, before a write it waited for.
    table = connection.ops.quote_name(rows.model._meta.db_table)
    select, select_params = rows.query.sql_with_params()
    sql = f"WITH {steps}, {table} AS (SELECT * FROM w0) {select}"  # noqa: S608 - our names
    return list(rows.model._default_manager.raw(sql, [*params, *select_params])) or None


# Django's psycopg cursor with server-side binding (untyped in the stubs).
_ServerBinding: Any = ServerBindingCursor


class _BoundCursor(_ServerBinding):
    """Values sent apart from the statement, which is never prepared: a pooler in transaction
    mode (PgBouncer) may hand the next statement another server."""

    def execute(self, query: Any, params: Any = None, **options: Any) -> Any:
        return super().execute(query, params, **{**options, "prepare": False})


@contextmanager
def _bound_cursor() -> Iterator[Any]:
    """A cursor that sends the values apart from the statement (server-side binding): a batch
    that fails, say in a deadlock, leaves the server's log its SQL, never a line of memory."""
    connection.close_if_health_check_failed()
    connection.ensure_connection()
    with connection.wrap_database_errors:
        # Django's own wrapping (its execute wrappers: the stall guard, the test's counters).
        cursor = cast(Any, connection)._prepare_cursor(_BoundCursor(connection.connection))
    with cursor:
        yield cursor


def _one_by_one(writes: Sequence[Write]) -> bool:
    ids: dict[int, Any] = {}
    for step, item in enumerate(writes):
        if isinstance(item, Insert):
            item.row.save(force_insert=True)
            ids[step] = item.row.pk
            continue
        values = {
            name: ids[value.step] if isinstance(value, Inserted) else value
            for name, value in item.values.items()
        }
        changed = item.rows.update(**values)
        if item.expect is not None and changed != item.expect:
            return False
    return True


def _steps(writes: Sequence[Write], *, lazy: bool, returning: str = "") -> tuple[str, list[Any]]:
    """The ``WITH`` list: ``l<i>`` locks the rows of each update that expects a count (the
    first's before any other), ``w<i>`` writes. ``w0`` runs only if every count is met, and
    every other write only if ``w0`` ran."""
    locks: list[str] = []
    parts: list[str] = []
    params: list[Any] = []
    counts: list[str] = []
    for step, item in enumerate(writes):
        if isinstance(item, Update) and item.expect is not None:
            rows = item.rows if step == 0 else _gated(item.rows, "EXISTS (SELECT 1 FROM l0)")
            sql, values = rows.order_by("pk").values("pk").query.sql_with_params()
            # What the update itself takes: a new row may still reference these (a reply's
            # foreign key takes KEY SHARE), so locking them harder could deadlock.
            locks.append(f"l{step}(pk) AS ({sql} FOR NO KEY UPDATE)")
            params.extend(values)
            count = f"(SELECT count(*) FROM l{step})"  # noqa: S608 - a step's name
            counts.append(f"{count} = {int(item.expect)}")
    if lazy:  # for this statement's own transaction only
        locks.append("lazy AS (SELECT set_config('synchronous_commit', 'off', true))")
        counts.append("EXISTS (SELECT 1 FROM lazy)")
    for step, item in enumerate(writes):
        if isinstance(item, Insert):
            sql, written = _insert(item.row)
        else:
            sql, written = _update(item, step, writes, counts if step == 0 else [], returning)
        parts.append(f"w{step} AS ({sql})")
        params.extend(written)
    return ", ".join(locks + parts), params


def _gated(rows: QuerySet[Any, Any], *conditions: str) -> QuerySet[Any, Any]:
    if not conditions:
        return rows
    gate = " AND ".join(conditions)
    return rows.filter(RawSQL(gate, (), BooleanField()))  # noqa: S611 - our SQL


def _update(
    item: Update, step: int, writes: Sequence[Write], counts: list[str], returning: str = ""
) -> tuple[str, list[Any]]:
    pk = _pk(item.rows.model)
    rows, conditions = item.rows, list(counts)
    if item.expect is not None:
        # Its rows were locked (and checked) in ``l<step>``: no need to check them again.
        rows = rows.model._base_manager.all()
        conditions.append(f"{pk} IN (SELECT pk FROM l{step})")  # noqa: S608 - our names
    if step:
        conditions.append("EXISTS (SELECT 1 FROM w0)")
    query = cast(UpdateQuery, _gated(rows, *conditions).query.chain(UpdateQuery))
    values: dict[str, Any] = {}
    for name, value in item.values.items():
        if isinstance(value, Inserted):
            inserted = writes[value.step]
            assert isinstance(inserted, Insert)
            inserted_id = f"(SELECT {_pk(type(inserted.row))} FROM w{value.step})"  # noqa: S608
            value = RawSQL(inserted_id, ())  # noqa: S611 - our SQL
        values[name] = value
    query.add_update_values(values)
    if len([alias for alias, count in query.alias_refcount.items() if count]) > 1:
        raise ValueError("a batched update writes one table, with no join")
    sql, sql_params = query.get_compiler(connection.alias).as_sql()
    return f"{sql} RETURNING {returning or pk}", list(sql_params)


def _insert(row: Model) -> tuple[str, list[Any]]:
    """``INSERT ... SELECT values WHERE EXISTS (w0)``, returning the new id."""
    meta = row._meta
    fields = [f for f in meta.local_concrete_fields if f is not meta.auto_field and not f.generated]
    query = InsertQuery(type(row))
    query.insert_values(fields, [row])
    [(sql, sql_params)] = query.get_compiler(connection.alias).as_sql()
    head, _, values = sql.partition(" VALUES ")
    assert values.startswith("(") and values.endswith(")"), sql
    gate = "WHERE EXISTS (SELECT 1 FROM w0)"
    return f"{head} SELECT {values[1:-1]} {gate} RETURNING {_pk(type(row))}", list(sql_params)


def _pk(model: type[Model]) -> str:
    column = model._meta.pk.column if model._meta.pk else None
    assert column is not None
    return str(connection.ops.quote_name(column))
