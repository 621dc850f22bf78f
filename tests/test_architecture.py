"""The code's shape: dependencies point one way (import-linter's contracts in pyproject.toml,
run by `make lint`), no import hides inside a function to dodge a cycle, and an API view typed
as receiving a person (mypy takes the type's word for it) only ever does."""

from __future__ import annotations

import ast
import inspect
import subprocess
import sys
from pathlib import Path

from rest_framework.permissions import IsAuthenticated

from config.api_urls import urlpatterns as api_urlpatterns
from memory.scheduling import COORDINATION_COLUMNS

ROOT = Path(__file__).resolve().parent.parent
OURS = {"config", "accounts", "chat", "memory", "llm", "core"}

# The only places where our code is imported inside a function, each for a reason that is not a
# cycle: Django asks that modules using models be imported once the app registry is ready
# (``AppConfig.ready``); gunicorn's and Celery's hooks run before Django is set up; litellm's
# provider is imported only when litellm is (seconds of import, paid on first use).
ALLOWED = {
    ("accounts/apps.py", "ready"),
    ("chat/apps.py", "ready"),
    ("memory/apps.py", "ready"),
    ("config/celery.py", "_import_litellm_before_forking"),
    ("config/celery.py", "_warm_up_pool_process"),
    ("config/gunicorn.py", "when_ready"),
    ("config/gunicorn.py", "post_worker_init"),
    ("llm/client.py", "litellm"),
}


def _imports_inside_functions(path: Path) -> list[tuple[str, str]]:
    found = []
    tree = ast.parse(path.read_text())
    for function in ast.walk(tree):
        if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        for node in ast.walk(function):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module or ""]
            else:
                continue
            found.extend((function.name, name) for name in names if name.split(".")[0] in OURS)
    return found


def test_no_module_of_ours_is_imported_inside_a_function_to_dodge_a_cycle():
    hidden = []
    for package in sorted(OURS):
        for path in sorted((ROOT / package).rglob("*.py")):
            relative = path.relative_to(ROOT).as_posix()
            if "/migrations/" in relative:
                continue
            for function, name in _imports_inside_functions(path):
                if (relative, function) not in ALLOWED:
                    hidden.append(f"{relative}: {function}() imports {name}")
    assert hidden == []


def test_the_dependency_contracts_hold():
    lint_imports = Path(sys.executable).parent / "lint-imports"
    result = subprocess.run(
        [str(lint_imports)], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stdout[-3000:]
    assert "0 broken" in result.stdout


# The columns that coordinate passes (memory/scheduling.py owns every transition of them).
COORDINATION = set(COORDINATION_COLUMNS)


def test_only_pass_scheduling_writes_the_coordination_columns():
    writers = []
    for package in sorted(OURS):
        for path in sorted((ROOT / package).rglob("*.py")):
            relative = path.relative_to(ROOT).as_posix()
            if "/migrations/" in relative or relative == "memory/scheduling.py":
                continue
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                    if node.func.attr not in {"update", "create", "update_or_create", "save"}:
                        continue
                    written = {k.arg for k in node.keywords} & COORDINATION
                    if written:
                        writers.append(f"{relative}:{node.lineno} writes {sorted(written)}")
                    # Fields spliced in with ** could hide a write too (the trace's rows aside).
                    spliced = any(k.arg is None for k in node.keywords)
                    trace = ast.unparse(node.func).startswith("MemoryEvent.")
                    if spliced and not trace and relative.startswith("memory/"):
                        writers.append(f"{relative}:{node.lineno} writes fields spliced in")
    assert writers == []


# The request types that say authentication let only a person through (``core.people`` for the
# apps below accounts, ``accounts.api.views`` for accounts).
PERSON_REQUESTS = {"PersonRequest", "AccountRequest"}


def _flat(patterns):
    for pattern in patterns:
        yield from _flat(pattern.url_patterns) if hasattr(pattern, "url_patterns") else [pattern]


def test_an_api_view_typed_as_receiving_a_person_lets_only_people_in():
    typed, unguarded = [], []
    for pattern in _flat(api_urlpatterns):
        view = getattr(pattern.callback, "cls", None)
        for method in view.http_method_names if view else []:
            handler = getattr(view, method, None)
            if handler is None or inspect.get_annotations(handler).get("request") not in (
                PERSON_REQUESTS
            ):
                continue
            typed.append(f"{view.__name__}.{method}")
            if IsAuthenticated not in view.permission_classes:
                unguarded.append(f"{view.__name__}.{method}")
    assert len(typed) > 20
    assert unguarded == []


def _taken_from_the_facade(path: Path) -> set[str]:
    """The names a module takes from ``memory.facade``: imported by name, or read off the module
    under whatever name it was imported as."""
    tree = ast.parse(path.read_text())
    names, aliases = set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "memory.facade":
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module == "memory":
            aliases.update(a.asname or a.name for a in node.names if a.name == "facade")
    for node in ast.walk(tree):
        is_name = isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
        if is_name and node.value.id in aliases:
            names.add(node.attr)
    return names


def test_the_other_apps_take_use_cases_from_memorys_front_door_never_a_module_behind_it():
    """import-linter sees imports, not attributes: ``facade.services.write_lines`` would reach
    around the front door unseen, so no caller may take a module off it."""
    from memory import facade

    taken, behind = set(), []
    for package in ("chat", "accounts", "config"):
        for path in sorted((ROOT / package).rglob("*.py")):
            for name in _taken_from_the_facade(path):
                taken.add(name)
                if inspect.ismodule(getattr(facade, name)):
                    behind.append(f"{path.relative_to(ROOT)}: facade.{name}")
    assert len(taken) > 20  # the scan sees the callers
    assert behind == []
