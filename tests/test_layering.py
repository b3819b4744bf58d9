"""Dependencies point one way: rules and evaluator never load discord, sqlmodel or docker,
and no module of the bot imports its way back to itself; the evaluator's and the
solver's own commands (`evaluator.cli`, `solver.cli`) import nothing of the bot either."""

from __future__ import annotations

import ast
import os
import socket
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from tests.support.paths import ROOT


def test_rules_and_evaluator_import_nothing_of_the_bot() -> None:
    code = (
        "import sys, rules, evaluator, evaluator.check, evaluator.cli\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in "
        "{'discord', 'sqlmodel', 'sqlalchemy', 'docker', 'bot'})\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_rules_import_nothing_of_the_evaluator() -> None:
    code = "import sys, rules\nprint(any(m.startswith('evaluator') for m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_the_solver_imports_nothing_of_the_bot_the_evaluator_or_storage() -> None:
    code = (
        "import sys, solver, solver.solve, solver.search, solver.process, solver.practice\n"
        "import solver.cli\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in "
        "{'discord', 'sqlmodel', 'sqlalchemy', 'docker', 'bot', 'evaluator'})\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_holding_solver_results_does_not_load_numpy() -> None:
    """The bot keeps Solutions and talks to SolverProcess; the engine stays in its process."""
    code = "import sys, solver, solver.result, solver.process\nprint('numpy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


FLOW = "bot.play"
"""The game flow: it runs games without Discord, so a second front end (the web, the
terminal) can drive it, and its Discord face (`bot.games`) is one of its users."""


def test_the_game_flow_loads_no_discord() -> None:
    root = Path(__file__).resolve().parents[1] / FLOW.replace(".", "/")
    modules = sorted(
        ".".join([*FLOW.split("."), path.stem]).removesuffix(".__init__")
        for path in root.glob("*.py")
    )
    code = (
        f"import sys, {', '.join(modules)}\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in {'discord', 'aiohttp'}))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_no_game_flow_module_imports_discord() -> None:
    """Not even under TYPE_CHECKING, nor its Discord face: a Discord-shaped need is a
    Protocol of the flow's own (`GameEvents`, `Via`), implemented in `bot.games`."""
    root = Path(__file__).resolve().parents[1] / FLOW.replace(".", "/")
    bad = []
    for path in sorted(root.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
                if isinstance(node, ast.ImportFrom)
                else []
            )
            bad += [
                f"{path.name}: {n}"
                for n in names
                if n.split(".")[0] in {"discord", "aiohttp"} or n.startswith("bot.games")
            ]
    assert bad == []


def _service_parts() -> set[str]:
    """What `GameService.__init__` keeps as `self.<name>`: its store and collaborators
    (the clock is the games' time, which the Discord side reads to time an answer)."""
    source = (Path(__file__).resolve().parents[1] / "bot/play/_service.py").read_text("utf-8")
    init = next(
        node
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name == "__init__"
    )
    return {
        target.attr
        for node in ast.walk(init)
        if isinstance(node, ast.Assign | ast.AnnAssign)
        for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
        if isinstance(target, ast.Attribute)
    } - {"clock"}


def test_the_discord_side_reaches_the_games_only_through_the_service() -> None:
    """`service.store.…` or `service.challenges.…` from a cog is a second door into the
    games: whatever a cog needs (decline, cancel, load a challenge, un-share) is a
    `GameService` method. Only the flow itself and the bot's assembly (`bot/app.py` and
    `bot/process.py`, which load and count the running games) hold the parts."""
    parts = _service_parts()
    assert {"store", "challenges", "sets", "flow", "active"} <= parts
    root = Path(__file__).resolve().parents[1]
    reached = []
    for path in sorted((root / "bot").rglob("*.py")):
        if "play" in path.relative_to(root).parts or path.name in ("app.py", "process.py"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Attribute) and node.attr in parts):
                continue
            owner = node.value
            name = owner.attr if isinstance(owner, ast.Attribute) else getattr(owner, "id", "")
            if name in {"service", "games"}:  # the names a GameService goes by
                reached.append(f"{path.relative_to(root)}:{node.lineno}: service.{node.attr}")
    assert reached == []


def _package_imports(package: str) -> dict[str, set[str]]:
    """Module -> the modules of the same package it imports, TYPE_CHECKING and function-level
    imports included (an import inside `if TYPE_CHECKING:` still ties the two modules)."""
    root = Path(__file__).resolve().parents[1]
    modules = {
        ".".join(path.relative_to(root).with_suffix("").parts).removesuffix(".__init__"): path
        for path in (root / package).rglob("*.py")
        if "migrations" not in path.parts
    }
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        edges: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                edges.update(a.name for a in node.names if a.name in modules)
            elif isinstance(node, ast.ImportFrom) and node.module in modules:
                for alias in node.names:
                    sub = f"{node.module}.{alias.name}"
                    edges.add(sub if sub in modules else node.module)
        graph[name] = edges - {name}
    return graph


def _circles(graph: dict[str, set[str]]) -> list[str]:
    """Every way a module imports its way back to itself (a package's own __init__
    importing its modules is an edge like any other: a module importing its package's
    __init__ back closes a circle)."""
    circles = []
    for start in sorted(graph):
        stack, seen = [(start, [start])], set()
        while stack:
            node, trail = stack.pop()
            for nxt in sorted(graph.get(node, ())):
                if nxt == start:
                    circles.append(" -> ".join([*trail, nxt]))
                elif nxt not in seen:
                    seen.add(nxt)
                    stack.append((nxt, [*trail, nxt]))
    return circles


@pytest.mark.parametrize("package", ["rules", "evaluator", "solver", "bot"])
def test_no_import_circle_among_a_packages_modules(package: str) -> None:
    """A package's own __init__ may import its modules; nothing may import its way back."""
    graph = _package_imports(package)
    assert len(graph) > 3  # the package was found
    assert _circles(graph) == []


def test_the_circle_check_sees_a_circle_through_type_checking() -> None:
    """The solver's old circle (search -> toplevel under TYPE_CHECKING -> search) is one."""
    graph = {"solver.search": {"solver.toplevel"}, "solver.toplevel": {"solver.search"}}
    assert _circles(graph) == [
        "solver.search -> solver.toplevel -> solver.search",
        "solver.toplevel -> solver.search -> solver.toplevel",
    ]


WEB_SERVES_A_PAGE = """
import asyncio, sys, tempfile
import aiohttp
from bot.cli import _web
from bot.settings import BotSettings
from bot.storage import open_store
from bot.web import create_app, serve

async def main():
    with tempfile.TemporaryDirectory() as tmp:
        store = await open_store(f"sqlite+aiosqlite:///{tmp}/web.sqlite3")
        async with serve(create_app(store), "127.0.0.1", 0) as runner:
            port = runner.addresses[0][1]
            async with aiohttp.ClientSession() as session:
                for path in ("/rules", "/s/AAAAAAAAAAAAAAAAAAAA/", "/s/AAAAAAAAAAAAAAAAAAAA/p/1"):
                    async with session.get(f"http://127.0.0.1:{port}{path}") as answer:
                        print(path, answer.status)
        await store.close()

asyncio.run(main())
print(sorted({m.split('.')[0] for m in sys.modules} & {'discord'}))
"""


def test_the_web_face_loads_no_discord() -> None:
    """`formula-darts web` runs as a process of its own: its command, the store and the
    pages it serves (the query layer `bot.views` included) import nothing of discord."""
    out = subprocess.run(
        [sys.executable, "-c", WEB_SERVES_A_PAGE], capture_output=True, text=True, check=True
    )
    lines = out.stdout.strip().splitlines()
    assert lines[:3] == [
        "/rules 200",
        "/s/AAAAAAAAAAAAAAAAAAAA/ 404",
        "/s/AAAAAAAAAAAAAAAAAAAA/p/1 404",
    ]
    assert lines[-1] == "[]"


CORE = ("bot.play", "bot.views", "bot.storage", "bot.i18n", "bot.cli.engine")
"""The core of the house (docs/ARCHITECTURE.md): the game flow, the query layer, storage,
i18n and the engine's assembly. Loads no discord, aiohttp or Jinja."""
FACES = ("bot.games", "bot.rooms", "bot.web", "bot.terminal", "bot.app", "bot.process", "discord")
"""What the core never imports: the faces (Discord's, the web, the terminal) and discord."""
DISCORDS_OWN = {"bot/i18n/translator.py"}
"""Modules of Discord's face that live in a core package: the catalog's translator for
discord.py's command tree (`bot.i18n` does not import it; `bot.app` does). Each must
still be there and still import discord, so the list only shrinks."""
NO_DISCORD = "import sys\nsys.modules['discord'] = None  # any import of discord fails\n"


@pytest.mark.parametrize("module", [*CORE, "bot.terminal"])
def test_the_core_and_the_terminal_load_no_discord_aiohttp_or_jinja(module: str) -> None:
    code = (
        f"import sys, {module}\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'discord', 'aiohttp', 'jinja2'}))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_nothing_in_a_face_is_imported_by_the_core() -> None:
    """Not even under TYPE_CHECKING or inside a function: the core is told what happened
    through its own Protocols (`GameEvents`, `Via`), which the faces implement."""
    root = Path(__file__).resolve().parents[1]
    bad = []
    for package in ("bot/play", "bot/views", "bot/storage", "bot/i18n"):
        for path in sorted((root / package).rglob("*.py")):
            if str(path.relative_to(root)) in DISCORDS_OWN:
                assert "from discord" in path.read_text(encoding="utf-8")
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Import):
                    names = [a.name for a in node.names]
                elif isinstance(node, ast.ImportFrom) and not node.level:
                    names = [node.module or ""]
                else:
                    continue
                bad += [
                    f"{path.relative_to(root)}: {n}"
                    for n in names
                    if any(n == face or n.startswith(face + ".") for face in FACES)
                ]
    assert bad == []


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_formula_darts_web_runs_without_discord(tmp_path: Path) -> None:
    """The real command, in a process where importing discord fails: it serves a page."""
    port = _free_port()
    url = f"sqlite+aiosqlite:///{tmp_path}/web.sqlite3"
    subprocess.run(
        [sys.executable, "-m", "bot.cli", "db", "upgrade", "--url", url],
        capture_output=True, text=True, check=True, cwd=ROOT,
    )  # fmt: skip
    code = NO_DISCORD + (
        "from bot.cli import main\n"
        f"main(['web', '--url', {url!r}, '--host', '127.0.0.1', '--port', '{port}'])\n"
    )
    web = subprocess.Popen(
        [sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True, cwd=ROOT,
    )  # fmt: skip
    try:
        assert web.stdout is not None
        first = web.stdout.readline()  # printed once the pages are served
        assert f"http://127.0.0.1:{port}/" in first, web.stderr.read() if web.stderr else ""
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/rules", timeout=60) as page:
            assert page.status == 200
    finally:
        web.terminate()
        web.wait(timeout=60)


def test_formula_darts_play_runs_without_discord(tmp_path: Path) -> None:
    """The terminal face plays on the game engine, a process where discord cannot load."""
    code = NO_DISCORD + "from bot.cli import main\nraise SystemExit(main(['play']))\n"
    env = {**os.environ, "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path}/play.sqlite3"}
    out = subprocess.run(
        [sys.executable, "-c", code], input=":q\n", capture_output=True, text=True,
        timeout=120, check=False, cwd=ROOT, env=env,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    assert "Round 1/7" in out.stdout and "You resigned" in out.stdout
