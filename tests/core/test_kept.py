"""The tables the process keeps (core/kept.py): one registry with each table's name,
owner and bound; a table that keeps, counts and starts again; scopes that empty the
tables (a lab batch) or set them aside; the report; and the games play the same with
the tables warm, emptied, set aside or shared by threads."""

from __future__ import annotations

import ast
import json
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from gladiatorium.cli.main import app
from gladiatorium.core import get_game, kept
from gladiatorium.core.batches import Batch, run_batch
from gladiatorium.core.kept import KeptByIdentity, Table
from gladiatorium.core.match import make_bots, run_match
from gladiatorium.core.record import record_of
from gladiatorium.games.superhero_gladiators.commands.duel import duel_options

SRC = Path(__file__).resolve().parents[2] / "src" / "gladiatorium"
SG = "superhero-gladiators"


@pytest.fixture
def test_tables() -> Iterator[list[str]]:
    """Names of tables a test registers, taken out of the registry afterwards."""
    names: list[str] = []
    yield names
    for name in names:
        kept.unregister(name)


def test_a_value_is_made_once_per_owner_and_key(test_tables: list[str]) -> None:
    table: KeptByIdentity[int, str] = KeptByIdentity("tests.identity", "tests", 4)
    test_tables.append(table.name)
    owner, made = object(), []

    def make() -> str:
        made.append(1)
        return f"value {len(made)}"

    assert table.made(1, owner, make) == "value 1"
    assert table.made(1, owner, make) == "value 1"
    assert len(made) == 1
    other = object()  # the same key, another owner (an id taken again): made afresh
    assert table.made(1, other, make) == "value 2"
    assert table.made(1, other, make) == "value 2"
    assert len(made) == 2
    assert table.counts() == (2, 2)


def test_a_full_table_starts_again(test_tables: list[str]) -> None:
    table: Table[int, int] = Table("tests.full", "tests", 3)
    test_tables.append(table.name)
    for key in range(3):
        assert table.get(key) is None
        table.keep(key, key * 10)
    assert len(table) == 3
    assert table.get(3) is None and table.keep(3, 30) == 30
    assert table.entries == {3: 30}  # emptied, then the new entry
    assert table.get(3) == 30
    assert table.counts() == (1, 4)  # found once; four entries made after a miss


def test_a_table_may_let_its_oldest_entry_go(test_tables: list[str]) -> None:
    table: Table[str, int] = Table("tests.oldest", "tests", 3, oldest_out=True)
    test_tables.append(table.name)
    for number, key in enumerate("abc"):
        table.keep(key, number)
    table.keep("a", 9)  # kept again: now the newest
    table.keep("d", 3)
    assert list(table.entries.items()) == [("c", 2), ("a", 9), ("d", 3)]


def test_a_table_bounded_at_nothing_keeps_nothing(test_tables: list[str]) -> None:
    table: Table[str, int] = Table("tests.nothing", "tests", 0)
    test_tables.append(table.name)
    assert table.keep("a", 1) == 1
    assert table.get("a") is None and len(table) == 0


def test_every_table_is_registered_with_its_owner_and_bound() -> None:
    tables = {t.name: t for t in kept.registered()}
    for name in (
        "core.rng.remembered",
        "core.observation.world_seeds",
        "core.jobs.options_text",
        "superhero_gladiators.bots.expected",
        "superhero_gladiators.bots.chosen",
        "superhero_gladiators.bots.last",
        "superhero_gladiators.bots.placed",
        "superhero_gladiators.state.turns",
        "electron_gladiators.arena.sights",
        "electron_gladiators.sightlines.shadows",
        "gladiator_chess.state.shared",
        "hero_battle.enumerate.known",
        "super_dice_heroes.sheet.load_sheet",
    ):
        assert name in tables, name
    owners = {"core", "electron-gladiators", "gladiator-chess", "hero-battle"}
    owners |= {"super-dice-heroes", SG}
    assert {t.owner for t in tables.values()} == owners
    assert tables["superhero_gladiators.bots.chosen"].bound == 8192
    assert tables["electron_gladiators.state.drives"].bound is None  # the board's squares
    for table in tables.values():
        assert table.name.replace("_", "-").startswith(table.owner + "."), table.name


def _unregistered_tables(path: Path) -> list[str]:
    """The module-level tables of ``path`` that bypass the registry: an empty dict
    assigned at module level, or a function cached with functools."""
    found = []
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        value = node.value if isinstance(node, ast.Assign | ast.AnnAssign) else None
        empty = isinstance(value, ast.Dict) and not value.keys
        if isinstance(value, ast.Call) and ast.unparse(value.func) == "dict":
            empty = not value.args and not value.keywords
        if empty:
            found.append(f"{path.name}:{node.lineno}")
        if isinstance(node, ast.FunctionDef):
            for decorator in node.decorator_list:
                text = ast.unparse(decorator)
                if text.split("(")[0].split(".")[-1] in ("cache", "lru_cache"):
                    found.append(f"{path.name}:{node.lineno}")
    return found


#: module-level dicts that are registrations, not tables of things worked out
REGISTRIES = {"registry.py", "kept.py"}


def test_no_table_outside_the_registry() -> None:
    """Every table the engine, the games, the bots and the lab keep is registered (a
    plain dict or functools cache at module level would outlive the match unseen)."""
    found = []
    for folder in ("core", "games", "bots", "lab"):
        for path in sorted((SRC / folder).rglob("*.py")):
            if path.name not in REGISTRIES:
                found.extend(_unregistered_tables(path))
    assert found == []


def _duel(seed: int, options: Any = None) -> dict[str, Any]:
    """A greedy duel's record (``options``: the duel's, made afresh if not given)."""
    game = get_game(SG)
    options = options or game.make_options(duel_options(["cowboy", "barbarian"], [], None))
    state = game.start(options, 2, seed)
    bots = {"1": "greedy", "2": "greedy"}
    run_match(state, make_bots(game, seed, bots))
    record: dict[str, Any] = record_of(game, state, bots).model_dump()
    return record


def test_the_report_counts_what_a_duel_kept() -> None:
    kept.empty()
    assert all(r.entries == r.hits == r.misses == 0 for r in kept.report(SG))
    options = get_game(SG).make_options(duel_options(["cowboy", "barbarian"], [], None))
    _duel(0, options)
    rows = {r.name: r for r in kept.report(SG)}
    assert {r.owner for r in rows.values()} == {"core", SG}
    read = rows["superhero_gladiators.options.read"]
    # the two hero files, read once as the options are checked and once by the match
    assert (read.entries, read.misses) == (4, 4)
    turns = rows["superhero_gladiators.state.turns"]
    assert turns.entries == turns.misses > 0
    for row in rows.values():
        assert (row.bytes > sys.getsizeof({})) == (row.entries > 0), row.name
    _duel(0, options)  # the same duel again: every turn is found
    again = {r.name: r for r in kept.report(SG)}["superhero_gladiators.state.turns"]
    assert again.entries == turns.entries and again.hits >= turns.entries


def test_a_batch_starts_with_empty_tables_unless_within_a_scope() -> None:
    seeds = kept.registered()
    table = next(t for t in seeds if t.name == "core.observation.world_seeds")
    assert isinstance(table, Table)
    batch = Batch("pig", {}, 2, 0, {"1": "random", "2": "random"})
    table.keep(("marker", -1), 7)
    run_batch(batch, 2)
    assert table.get(("marker", -1)) is None
    with kept.scope():  # the batch within shares the scope's tables
        table.keep(("marker", -1), 7)
        run_batch(batch, 2)
        assert table.get(("marker", -1)) == 7


def test_isolated_work_neither_reads_nor_changes_the_tables() -> None:
    _duel(1)
    before = {r.name: r.entries for r in kept.report(SG)}
    with kept.isolated():
        assert all(r.entries == 0 for r in kept.report(SG))
        _duel(2)
        assert any(r.entries for r in kept.report(SG))
    after = {r.name: r.entries for r in kept.report(SG)}
    tables = {t.name: t for t in kept.registered()}
    for name, entries in before.items():  # the functools caches start again instead
        if isinstance(tables[name], Table):
            assert after[name] == entries, name


#: every game with random bots, and the bots that use the tables most
PLAYS = [(slug, "random", seed) for slug in sorted({"pig", SG}) for seed in range(2)]
PLAYS += [
    ("electron-gladiators", "random", 0),
    ("gladiator-chess", "random", 0),
    ("hero-battle", "random", 0),
    ("hero-battle", "inferrer", 0),
    ("super-dice-heroes", "random", 0),
]


def _records() -> list[dict[str, Any]]:
    records = [_duel(seed) for seed in range(4)]
    for slug, bot, seed in PLAYS:
        game = get_game(slug)
        state = game.start(None, None, seed)
        bots = dict.fromkeys(state.seats, bot)
        run_match(state, make_bots(game, seed, bots))
        records.append(record_of(game, state, bots).model_dump())
    return records


def test_the_same_seeds_play_the_same_with_the_tables_warm_emptied_or_set_aside() -> None:
    kept.empty()
    cold = _records()
    warm = _records()  # every table filled by the same games
    kept.empty()
    emptied = _records()
    with kept.isolated():
        isolated = _records()
    assert cold == warm == emptied == isolated


def test_threads_share_the_tables_and_play_the_same() -> None:
    """Four threads play the same duels at once, switching as often as the interpreter
    can, against one table set: each plays what one thread alone plays."""
    kept.empty()
    alone = [_duel(seed) for seed in range(6)]
    kept.empty()
    found: list[list[dict[str, Any]]] = []
    failed: list[BaseException] = []

    def play() -> None:
        try:
            found.append([_duel(seed) for seed in range(6)])
        except BaseException as err:  # reported below
            failed.append(err)

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        threads = [threading.Thread(target=play) for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(interval)
    assert failed == []
    assert found == [alone] * 4


def test_duel_and_simulate_show_what_the_process_kept() -> None:
    runner = CliRunner()
    args = ["duel", "cowboy", "barbarian", "--games", "4", "--kept", "--json"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    rows = {row["table"]: row for row in json.loads(result.stdout)["kept"]}
    assert rows["superhero_gladiators.options.read"]["entries"] == 4
    assert rows["superhero_gladiators.state.turns"]["misses"] > 0
    assert not any(name.startswith("electron") for name in rows)
    shown = runner.invoke(app, ["simulate", "pig", "--games", "3", "--kept"])
    assert shown.exit_code == 0 and "match.people" in shown.stdout
    refused = runner.invoke(app, [*args[:-1], "--jobs", "2"])
    assert refused.exit_code == 2
    assert "--kept shows what this process kept: give --jobs 1" in refused.output
