"""docs/ARCHITECTURE.md names real code: every `Class.method`, `module.function`, `Class`
and `_private` name it puts in backticks resolves (imported and looked up), every
`table.column` is a column of the schema, and every file path is a file of the repo.

Names are resolved the way a reader looks them up, not by a fixed path: a class by its
name in any module of the four packages, a module by its last components
(`_render.round_embed`: any `..._render` module with a `round_embed`). So a module
moved to another package still resolves, and a name that is gone or renamed is listed.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
from functools import cache
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "ARCHITECTURE.md"
PACKAGES = ("rules", "evaluator", "solver", "bot")
IDENT = r"[A-Za-z_][A-Za-z0-9_]*"
NAME = re.compile(rf"{IDENT}(?:\.{IDENT})*")
PATH = re.compile(r"[\w./*-]+(?:/|\.(?:py|php|js|yaml))")
ALIASES: dict[str, object] = {}
"""Names a reader knows that are not ours (discord's `interaction`), filled on first use."""


def _aliases() -> dict[str, object]:
    if not ALIASES:
        import discord

        ALIASES["interaction.response"] = discord.InteractionResponse
        ALIASES["interaction"] = discord.Interaction
        # JavaScript's and Python's own names, quoted as the languages spell them
        ALIASES["String"] = str
        ALIASES["Math.cbrt"] = pow
        ALIASES["None"] = None
    return ALIASES


@cache
def modules() -> dict[str, ModuleType]:
    """Every module of the four packages (no Alembic migrations: they run on import)."""
    found: dict[str, ModuleType] = {}
    for package_name in PACKAGES:
        package = importlib.import_module(package_name)
        found[package_name] = package
        for info in pkgutil.walk_packages(package.__path__, f"{package_name}."):
            if ".migrations" in info.name or info.name.endswith("__main__"):
                continue
            found[info.name] = importlib.import_module(info.name)
    return found


@cache
def columns() -> dict[str, set[str]]:
    from sqlmodel import SQLModel

    import bot.storage._models  # noqa: F401  (the tables register on SQLModel's metadata)

    return {name: set(table.columns.keys()) for name, table in SQLModel.metadata.tables.items()}


def _ours(klass: type) -> bool:
    return klass.__module__.split(".")[0] in PACKAGES


def _has(owner: object, name: str) -> tuple[bool, object]:
    """Whether `owner` has `name`: an attribute, a dataclass field or annotation, or an
    attribute its class sets on `self` (then nothing deeper can be looked up). A class
    of ours must define it itself: `AnswerModal.on_submit` inherited from discord.py's
    Modal is a no-op, not the code the doc means."""
    if inspect.isclass(owner) and _ours(owner):
        for klass in owner.__mro__:
            if not _ours(klass):
                continue
            if name in vars(klass):
                return True, vars(klass)[name]
            if name in vars(klass).get("__annotations__", {}):
                return True, None
            try:
                source = inspect.getsource(klass)
            except (OSError, TypeError):
                continue
            if re.search(rf"self\.{name}\s*[:=]", source):
                return True, None
        return False, None
    if hasattr(owner, name):
        return True, getattr(owner, name)
    return False, None


def _walk(owner: object, rest: list[str]) -> bool:
    for index, part in enumerate(rest):
        found, value = _has(owner, part)
        if not found:
            return False
        if value is None:
            return index == len(rest) - 1
        owner = value
    return True


def resolves(name: str) -> bool:
    parts = name.split(".")
    aliases = _aliases()
    for cut in range(len(parts), 0, -1):
        head = ".".join(parts[:cut])
        if head in aliases and _walk(aliases[head], parts[cut:]):
            return True
    if len(parts) > 1 and parts[1] in columns().get(parts[0], set()):
        return True  # a table's column
    everything = modules()
    if parts[0] in PACKAGES or parts[0] in {"asyncio"}:
        for cut in range(len(parts), 0, -1):
            try:
                module = importlib.import_module(".".join(parts[:cut]))
            except ImportError:
                continue
            if _walk(module, parts[cut:]):
                return True
    for cut in range(1, len(parts) + 1):  # a module by its last components
        tail = "." + ".".join(parts[:cut])
        for module_name, module in everything.items():
            if ("." + module_name).endswith(tail) and _walk(module, parts[cut:]):
                return True
    for module in everything.values():  # a class or function by its own name
        if parts[0] in vars(module) and _walk(vars(module)[parts[0]], parts[1:]):
            return True
    return False


def named_in(text: str) -> tuple[list[str], list[str]]:
    """(code names, file paths) in the doc's backticks. A call's arguments are dropped
    (`rules.apply(Submit)` names `rules.apply`); plain lowercase words are not code
    names (tables, commands, words), unless dotted or `_private`."""
    names, paths = [], []
    for quoted in re.findall(r"`([^`\n]+)`", text):
        if quoted.startswith("/") or " " in quoted.split("(")[0]:
            continue  # a slash command, a phrase
        if PATH.fullmatch(quoted):
            paths.append(quoted)
            continue
        head = quoted.split("(")[0]
        if not NAME.fullmatch(head):
            continue
        if "." in head or (head[0].isupper() and not head.isupper()) or head.startswith("_"):
            names.append(head)
    return names, paths


def exists(path: str) -> bool:
    """A path from the root, or (a short one, `_views.py`) the end of a file's path."""
    if any(ROOT.glob(path)):
        return True
    return any(
        str(found.relative_to(ROOT)).endswith(path.rstrip("/"))
        for found in ROOT.rglob(Path(path.rstrip("/")).name)
        if ".venv" not in found.parts and ".git" not in found.parts
    )


def about_the_code() -> str:
    """The doc without its "A third language" sections: they name files and classes a
    third language would add (`evaluator/py_check.py`), which are not there on purpose."""
    kept, skipping = [], False
    for line in DOC.read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            skipping = "third language" in line.lower()
        if not skipping:
            kept.append(line)
    return "\n".join(kept)


def test_every_name_the_architecture_doc_gives_is_real_code() -> None:
    names, _ = named_in(about_the_code())
    assert len(names) > 50  # the doc was read
    missing = sorted({name for name in names if not resolves(name)})
    assert missing == [], f"docs/ARCHITECTURE.md names code that is not there: {missing}"


def test_every_file_the_architecture_doc_gives_exists() -> None:
    _, paths = named_in(about_the_code())
    assert paths
    missing = sorted({path for path in paths if not exists(path)})
    assert missing == [], f"docs/ARCHITECTURE.md names files that are not there: {missing}"


def test_the_resolver_tells_a_real_name_from_a_gone_one() -> None:
    assert resolves("RoundFlow.commit") and resolves("_render.round_embed")
    assert resolves("rules.apply") and resolves("games.meta") and resolves("Store.servers")
    assert not resolves("GamesCog.open_answer_modal")
    assert not resolves("AnswerModal.on_submit")
    assert not resolves("rules.no_such_thing") and not resolves("games.no_such_column")
    assert exists("bot/storage/_lane.py") and exists("_views.py") and not exists("_gone.py")


GLOSSARY = ROOT / "docs" / "GLOSSARY.md"
NAMED_ELSEWHERE = (
    "Faces", "Face", "Presence", "Via", "Posted", "Reveals", "PracticeOpponent", "Carriers",
    "Lane", "Bucket", "RestBudget", "Announcer", "TerminalFace", "ModeRules", "ServerDay", "Event",
    "LanguageRules", "Language", "FormulaTexts",
)  # fmt: skip
"""Collaborators the code below does not find by itself: the faces' parts, the windows."""


def _built_in_init(path: str, klass: str) -> set[str]:
    """The classes `klass.__init__` builds and keeps (`self.x = Name(...)`)."""
    import ast

    tree = ast.parse((ROOT / path).read_text("utf-8"))
    init = next(
        node
        for top in ast.walk(tree)
        if isinstance(top, ast.ClassDef) and top.name == klass
        for node in top.body
        if isinstance(node, ast.FunctionDef) and node.name == "__init__"
    )
    return {
        node.value.func.id
        for node in ast.walk(init)
        if isinstance(node, ast.Assign | ast.AnnAssign)
        and isinstance(node.value, ast.Call)
        and isinstance(node.value.func, ast.Name)
        and node.value.func.id[:1].isupper()
    }


def collaborators() -> set[str]:
    """Every collaborator of the engine: what `GameService` and `RoundFlow` build, the
    Protocols the flow speaks to its faces, and the faces' own parts."""
    import bot.play._types as types

    protocols = {
        name
        for name, value in vars(types).items()
        if inspect.isclass(value) and getattr(value, "_is_protocol", False)
        and value.__module__ == types.__name__
        and name not in {"Evaluating", "Revealer"}  # the evaluator's and solver's seams
    }  # fmt: skip
    built = _built_in_init("bot/play/_service.py", "GameService") | _built_in_init(
        "bot/play/_flow.py", "RoundFlow"
    )
    return (built | protocols | {"GameService", *NAMED_ELSEWHERE}) - {"SetsDirectory"}


def test_the_architecture_doc_and_the_glossary_name_every_collaborator() -> None:
    names = collaborators()
    assert {"Starts", "Shows", "RoundTimers", "GameEvents", "Via"} <= names  # found
    for doc in (DOC, GLOSSARY):
        text = doc.read_text("utf-8")
        missing = sorted(n for n in names if f"`{n}`" not in text)
        assert missing == [], f"{doc.name} does not name {missing}"
