"""The floors of the import graph (docs/architecture.md, "The floors"): every module
under ``src/gladiatorium`` is read with ``ast`` and each of its gladiatorium imports
(at the top, inside a function, under ``TYPE_CHECKING``, or by
``importlib.import_module("...")``) must go to its own floor or a lower one:

- ``core``: the ground; imports nothing above core;
- ``bots`` (the generic bots): core only;
- a game (``games/<game>/``): core and its own package, no other game;
- ``games`` itself, the registry's loader: core, the generic bots and the games;
- ``lab``: core, the bots and the loader (a game's own reports live in its folder and
  are found through the registry, so the lab names no game);
- ``cli``: core, the bots, the loader, the lab and the server (``serve`` starts it);
  it names no game either (a game's commands are found through the registry);
- ``server``: core and the loader ``gladiatorium.games`` alone (never a game module).

And the server stays split by feature: no module under ``src/gladiatorium/server`` is
longer than :data:`SERVER_LINES` lines.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src"
PACKAGE = SRC / "gladiatorium"
#: the most lines a module of the server may have: a feature that outgrows it is split
SERVER_LINES = 600


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def is_module(name: str) -> bool:
    """Whether ``name`` is a module or package under ``src``."""
    path = SRC.joinpath(*name.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def imports_of(path: Path) -> list[tuple[int, str]]:
    """(line, module) for every gladiatorium module that ``path`` imports."""
    here = module_name(path)
    package = here if path.name == "__init__.py" else here.rpartition(".")[0]
    return imports_in(path.read_text(encoding="utf-8"), package)


def imports_in(source: str, package: str) -> list[tuple[int, str]]:
    """(line, module) for every gladiatorium module that ``source``, a module of
    ``package``, imports; ``from X import Y`` counts as an import of ``X.Y`` where that
    is a module."""
    tree = ast.parse(source)
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, *([base] if base else [])])
            for alias in node.names:
                target = f"{base}.{alias.name}"
                found.append((node.lineno, target if is_module(target) else base))
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute | ast.Name)
            and (node.func.attr if isinstance(node.func, ast.Attribute) else node.func.id)
            in ("import_module", "__import__")
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            found.append((node.lineno, node.args[0].value))
    return [(line, name) for line, name in found if name.split(".")[0] == "gladiatorium"]


def within(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def allowed(module: str, target: str) -> bool:
    """Whether ``module`` may import ``target`` (both gladiatorium modules)."""
    lower = ("gladiatorium.core",)
    if within(module, "gladiatorium.core"):
        return within(target, "gladiatorium.core")
    if within(module, "gladiatorium.bots"):
        return any(within(target, p) for p in (*lower, "gladiatorium.bots"))
    if module == "gladiatorium.games":  # the registry's loader
        return any(within(target, p) for p in (*lower, "gladiatorium.bots", "gladiatorium.games"))
    if within(module, "gladiatorium.games"):
        own = ".".join(module.split(".")[:3])
        return any(within(target, p) for p in (*lower, own))
    if within(module, "gladiatorium.server"):
        return target == "gladiatorium.games" or any(
            within(target, p) for p in (*lower, "gladiatorium.server")
        )
    # above the games, a game is found through the registry: only the loader is named
    above_games = (*lower, "gladiatorium.bots")
    if within(module, "gladiatorium.lab"):
        return target == "gladiatorium.games" or any(
            within(target, p) for p in (*above_games, "gladiatorium.lab")
        )
    if within(module, "gladiatorium.cli"):
        top = ("gladiatorium.lab", "gladiatorium.server", "gladiatorium.cli")
        return target == "gladiatorium.games" or any(
            within(target, p) for p in (*above_games, *top)
        )
    return module == "gladiatorium" and target == "gladiatorium"


def arrows_up() -> list[str]:
    """Every import that goes from a floor to a higher one (or to another game)."""
    wrong = []
    for path in sorted(PACKAGE.rglob("*.py")):
        module = module_name(path)
        for line, target in sorted(set(imports_of(path))):
            if not allowed(module, target):
                where = path.relative_to(SRC.parent)
                wrong.append(f"{where}:{line}: {module} imports {target}")
    return wrong


def test_no_import_goes_up_a_floor() -> None:
    wrong = arrows_up()
    assert not wrong, "imports against the floors:\n" + "\n".join(wrong)


@pytest.mark.parametrize(
    ("module", "target", "expected"),
    [
        ("gladiatorium.core.match", "gladiatorium.core.state", True),
        ("gladiatorium.core.match", "gladiatorium.games", False),
        ("gladiatorium.games.pig.game", "gladiatorium.core", True),
        ("gladiatorium.games.pig.game", "gladiatorium.games.pig.state", True),
        ("gladiatorium.games.pig.game", "gladiatorium.games.hero_battle.game", False),
        ("gladiatorium.games.pig.game", "gladiatorium.games", False),
        ("gladiatorium.games.pig.game", "gladiatorium.cli.main", False),
        ("gladiatorium.games.pig.game", "gladiatorium.lab.sweep", False),
        ("gladiatorium.games.pig.game", "gladiatorium.bots", False),
        ("gladiatorium.games", "gladiatorium.bots", True),
        ("gladiatorium.lab.sweep", "gladiatorium.games", True),
        ("gladiatorium.lab.sweep", "gladiatorium.games.pig", False),
        ("gladiatorium.cli.lab", "gladiatorium.games.superhero_gladiators.heroes", False),
        ("gladiatorium.lab.sweep", "gladiatorium.cli.main", False),
        ("gladiatorium.server.app", "gladiatorium.games", True),
        ("gladiatorium.server.app", "gladiatorium.games.pig", False),
        ("gladiatorium.server.app", "gladiatorium.lab.sweep", False),
        ("gladiatorium.cli.main", "gladiatorium.server.app", True),
        ("gladiatorium.bots.mcts", "gladiatorium.games", False),
    ],
)
def test_the_floor_rules(module: str, target: str, expected: bool) -> None:
    assert allowed(module, target) is expected


def test_every_kind_of_import_is_read() -> None:
    """Imports in functions, relative ones, ``from X import module`` and
    ``importlib.import_module("...")`` are all found, and each is judged."""
    source = (
        "import importlib\n"
        "from . import rng\n"
        "def f():\n"
        "    from gladiatorium.cli.common import x\n"
        "    importlib.import_module('gladiatorium.bots')\n"
        "from gladiatorium.games import pig\n"
    )
    found = sorted(name for _, name in imports_in(source, "gladiatorium.core"))
    assert found == [
        "gladiatorium.bots",
        "gladiatorium.cli.common",
        "gladiatorium.core.rng",
        "gladiatorium.games.pig",
    ]
    judged = [allowed("gladiatorium.core.state", name) for name in found]
    assert judged == [False, False, True, False]


def long_modules(folder: Path, limit: int) -> list[str]:
    """Every Python module under ``folder`` longer than ``limit`` lines, with its length."""
    found = []
    for path in sorted(folder.rglob("*.py")):
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > limit:
            found.append(f"{path.relative_to(folder.parent)}: {lines} lines")
    return found


def test_no_server_module_is_over_the_limit() -> None:
    long = long_modules(PACKAGE / "server", SERVER_LINES)
    assert not long, f"server modules over {SERVER_LINES} lines:\n" + "\n".join(long)


def test_a_long_module_is_found(tmp_path: Path) -> None:
    """The length check counts lines, in sub-packages too, and lets the limit itself pass."""
    folder = tmp_path / "server"
    (folder / "pages").mkdir(parents=True)
    (folder / "short.py").write_text("x = 1\n" * 600, encoding="utf-8")
    (folder / "pages" / "long.py").write_text("x = 1\n" * 601, encoding="utf-8")
    (folder / "notes.txt").write_text("x\n" * 900, encoding="utf-8")
    assert long_modules(folder, 600) == ["server/pages/long.py: 601 lines"]
