"""Hostile input through the real command: every case runs ``gladiatorium`` in a child
process with limits on time and memory and must end with a clean error (no traceback)
naming the problem, or, at a prompt, with the hostile text shown as typed.

The cases run concurrently (each child is mostly start-up time) and are checked one by
one; a hang shows as a timeout, unbounded memory as the child killed by its limit.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gladiatorium.cli import main
from gladiatorium.core import GladiatoriumError, IllegalAction, games, get_game
from gladiatorium.core.match import MatchTooLong
from gladiatorium.games.electron_gladiators.setups import setup_text
from gladiatorium.games.hero_battle.options import theme_heroes
from preloaded import command_line_preloader

#: limits of each child: wall-clock seconds, CPU seconds and address space
WALL_SECONDS = 90
CPU_SECONDS = 60
MEMORY_BYTES = 2 * 1024**3


@dataclass(frozen=True)
class Case:
    """``args`` to the command (``{dir}`` is the case folder), text typed at its prompts,
    the words the output must hold on one line, and the exit status expected."""

    args: tuple[str, ...]
    expect: str
    typed: str = ""
    exit_code: int = 2
    files: dict[str, bytes] = field(default_factory=dict)


def record(**changes: object) -> bytes:
    base: dict[str, object] = {
        "game": "pig",
        "version": "1",
        "options": {},
        "players": 2,
        "seed": 1,
        "actions": [],
    }
    return json.dumps({**base, **changes}).encode()


BINARY = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\xff\xfe"
BOMB = b"a: &a [x,x,x,x,x,x,x,x,x]\n" + b"".join(
    b"%c: &%c [*%c,*%c,*%c,*%c,*%c,*%c,*%c,*%c,*%c]\n" % ((c, c) + (c - 1,) * 9)
    for c in range(ord("b"), ord("k"))
)
HEROES = theme_heroes()
BIG_MOVE = f"1: hit {', '.join(HEROES[1:6])} heal {HEROES[7]}\nquit\n"
MARKUP_SETUP = setup_text("basic-1").replace("name Basic Set Up 1", "name [/] [bold]").encode()
MENU_NUMBER = [g.info.slug for g in games()].index("hero-battle") + 1
BOTS = ("--seat", "1=random", "--seat", "2=random")

CASES: dict[str, Case] = {
    # ----- markup: printed as typed, never interpreted ---------------------------------
    "markup typed at a prompt": Case(
        ("play", "pig", "--seat", "1=human", "--seat", "2=random", "--seed", "1"),
        "'[/]' is not a legal action",
        typed="[/]\n[bold]x[/bold]\nquit\n",
        exit_code=0,
    ),
    "markup in a hero's name": Case(
        ("hero", "check", "{dir}/h.yaml"),
        "[/]",
        files={"h.yaml": b"name: '[/] [bold]'\nattributes: {strength: 1}\n"},
        exit_code=1,
    ),
    "markup in a moderator's line": Case(
        ("hero-battle", "moderate", "--seed", "1"), "'[/]'", typed="[/]\nquit\n", exit_code=0
    ),
    "markup in a hero name flag": Case(
        ("play", "super-dice-heroes", "--name", "1=[/]x", "--seat", "1=human", "--seed", "1"),
        "[/]x",
        typed="quit\n",
        exit_code=0,
    ),
    "markup in a set-up's name": Case(
        ("play", "electron-gladiators", "--setup", "{dir}/s.txt", "--seat", "1=human"),
        "[/] [bold]",
        typed="quit\n",
        exit_code=0,
        files={"s.txt": MARKUP_SETUP},
    ),
    # ----- digits other than 0-9 --------------------------------------------------------
    "unicode digits typed": Case(
        ("play", "electron-gladiators", "--seat", "1=human", "--seat", "2=random"),
        "'A²' is not a square",
        typed="A² fwd 1\nfire A² at B²\nA²\nquit\n",
        exit_code=0,
    ),
    "unicode digits in reach": Case(("electron-gladiators", "reach", "K1٣"), "is not a square"),
    "unicode team number": Case(
        ("play", "superhero-gladiators", "--team", "²=cowboy"), "write --team N=HERO.yaml"
    ),
    # ----- readers ----------------------------------------------------------------------
    "5,000-digit number": Case(
        ("replay", "{dir}/r.json"),
        "r.json:1: a number longer than",
        files={"r.json": record(seed=int("7" * 4000))},
    ),
    "3,000-deep nesting": Case(
        ("replay", "{dir}/r.json"), "nested deeper", files={"r.json": b"[" * 3000 + b"]" * 3000}
    ),
    "YAML alias bomb": Case(
        ("hero", "check", "{dir}/bomb.yaml"), "aliases", files={"bomb.yaml": BOMB}
    ),
    "binary record": Case(
        ("replay", "{dir}/b.json"), "b.json:3: a binary file", files={"b.json": BINARY}
    ),
    "binary post": Case(
        ("hero-battle", "post", "{dir}/b.json"), "b.json:3: a binary file", files={"b.json": BINARY}
    ),
    "binary map": Case(
        ("play", "superhero-gladiators", "--map", "{dir}/m.txt"),
        "m.txt:3: a binary file",
        files={"m.txt": BINARY},
    ),
    "binary sheet": Case(
        ("play", "super-dice-heroes", "--sheet", "{dir}/s.yaml"),
        "s.yaml:2: not UTF-8",
        files={"s.yaml": b"name: x\n\xff\xfe\n"},
    ),
    "binary set-up": Case(
        ("play", "electron-gladiators", "--setup", "{dir}/s.txt"),
        "s.txt:3: a binary file",
        files={"s.txt": BINARY},
    ),
    "binary hero": Case(
        ("hero", "check", "{dir}/b.yaml"), "a binary file", files={"b.yaml": BINARY}
    ),
    "/dev/zero record": Case(("replay", "/dev/zero"), "/dev/zero: not a regular file"),
    "/dev/zero legal": Case(("legal", "pig", "--record", "/dev/zero"), "not a regular file"),
    "/dev/zero hero": Case(("hero", "check", "/dev/zero"), "not a regular file"),
    "/dev/zero map": Case(("play", "superhero-gladiators", "--map", "/dev/zero"), "not a regular"),
    "/dev/zero sheet": Case(("play", "super-dice-heroes", "--sheet", "/dev/zero"), "not a regular"),
    "/dev/zero set-up": Case(
        ("play", "electron-gladiators", "--setup", "/dev/zero"), "not a regular"
    ),
    "a folder as a record": Case(("replay", "{dir}"), "is a folder"),
    # ----- options and arguments --------------------------------------------------------
    "huge attack bonus": Case(
        ("simulate", "gladiator-chess", "-o", "attack_bonus_dice=1000000000"),
        "attack_bonus_dice: Input should be less than or equal to 20",
    ),
    "3,000-deep option": Case(
        ("play", "pig", "-o", "target=" + "[" * 3000 + "]" * 3000), "option value"
    ),
    "5,000-digit option": Case(("play", "pig", "-o", "target=" + "9" * 5000), "option value"),
    "huge --jobs": Case(("simulate", "pig", "--jobs", "100000"), "less than or equal to 64"),
    "huge --seed": Case(("play", "pig", "--seed", "9" * 30), "less than or equal to 922337"),
    "a team of 27": Case(
        (
            "play",
            "superhero-gladiators",
            "--team",
            "1=" + ",".join(["cowboy"] * 27),
            "--team",
            "2=fred",
        ),
        "at most 26 items",
    ),
    "huge --name seat": Case(
        ("play", "super-dice-heroes", "--name", "1000000000=X"), "seats are 1 to 100"
    ),
    "a map of 200,000 rows": Case(
        ("play", "superhero-gladiators", "--map", "{dir}/big.txt"),
        "larger than",
        files={"big.txt": b"1......2\n" * 200_000},
    ),
    "a map of 150 short rows": Case(
        ("play", "superhero-gladiators", "--map", "{dir}/tall.txt"),
        "150 rows; at most 99",
        files={"tall.txt": b"1......2\n" * 150},
    ),
    "40 players, 5 hits, one typed move": Case(
        ("hero-battle", "moderate", "--players", "40", "-o", "hits_per_round=5", "--seed", "1"),
        "seat 1: ok",
        typed=BIG_MOVE,
        exit_code=0,
    ),
    "101 players": Case(
        ("play", "hero-battle", "--players", "101"), "Hero Battle takes 8 to 100 players"
    ),
    "menu with -1 hits a round": Case(
        (),
        "hits_per_round: Input should be greater",
        typed=f"{MENU_NUMBER}\n8\n\nhits_per_round=-1\n8\n\n1\nquit\nq\n",  # players, seed, options
        exit_code=0,
    ),
    "a seat given twice": Case(
        ("play", "pig", "--seat", "1=human", "--seat", "1=random"), "1 is given twice"
    ),
    # ----- paths to write ---------------------------------------------------------------
    "--save into a missing folder": Case(
        ("play", "pig", "--save", "{dir}/no/such/folder/m.json"), "does not exist"
    ),
    "--save over a file": Case(
        ("play", "pig", *BOTS, "--save", "{dir}/old.json"),
        "the file exists; add --force",
        files={"old.json": b"precious"},
    ),
    "hero new into a missing folder": Case(
        ("hero", "new", "-o", "{dir}/no/such/h.yaml"), "does not exist", typed="Ace\n"
    ),
    "simulate --save onto a file": Case(
        ("simulate", "pig", "--games", "1", "--save", "{dir}/f"),
        "a file of that name is in the way",
        files={"f": b""},
    ),
    "simulate --save over earlier records": Case(
        ("simulate", "pig", "--games", "1", "--save", "{dir}"),
        "earlier batch; add --force",
        files={"pig-00000.json": b"precious"},
    ),
    # ----- records ----------------------------------------------------------------------
    "a record with a forged digest": Case(
        ("legal", "pig", "--record", "{dir}/r.json"),
        "r.json: does not reproduce",
        files={"r.json": record(digest="0" * 64)},
    ),
    "a record with an unknown seat": Case(
        ("replay", "{dir}/r.json"),
        "r.json: seats: no seat '9'",
        files={"r.json": record(seats={"9": "random"})},
    ),
}


#: the environment of every run (the commands' consoles are made at import: the
#: preloading process is started with it)
RUN_ENV = {"COLUMNS": "200", "PATH": "/usr/bin:/bin", "NO_COLOR": "1"}


def run_case(name: str, case: Case, root: Path) -> subprocess.CompletedProcess[str]:
    """The command of ``case`` in a process of its own, forked from a process that has
    imported the command line (tests/preloaded.py), under the limits above; its output
    (standard output and error, interleaved as written) in ``stdout``."""
    folder = root / str(list(CASES).index(name))
    folder.mkdir()
    for file, content in case.files.items():
        (folder / file).write_bytes(content)
    args = [a.replace("{dir}", str(folder)) for a in case.args]
    typed, log = root / f"{folder.name}.typed", root / f"{folder.name}.out"
    typed.write_text(case.typed, encoding="utf-8")
    limits = {"RLIMIT_CPU": CPU_SECONDS, "RLIMIT_AS": MEMORY_BYTES}
    process = command_line_preloader(RUN_ENV).spawn(args, RUN_ENV, folder, log, typed, limits)
    try:
        code = process.wait(WALL_SECONDS)
    finally:
        process.kill()
    output = log.read_text(encoding="utf-8", errors="replace")
    return subprocess.CompletedProcess(args, code, output, "")


@pytest.fixture(scope="module")
def results(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[dict[str, subprocess.CompletedProcess[str]]]:
    root = tmp_path_factory.mktemp("hostile")
    with ThreadPoolExecutor(max_workers=4) as pool:
        futures = {name: pool.submit(run_case, name, case, root) for name, case in CASES.items()}
        yield {name: future.result() for name, future in futures.items()}


@pytest.mark.parametrize("name", list(CASES))
def test_hostile_input_is_refused_cleanly(
    name: str, results: dict[str, subprocess.CompletedProcess[str]]
) -> None:
    case, done = CASES[name], results[name]
    output = done.stdout + done.stderr
    assert "Traceback" not in output, output[-3000:]
    assert done.returncode == case.exit_code, output[-3000:]
    assert any(case.expect in line for line in output.splitlines()), output[-3000:]


def test_action_json_with_other_digits_is_refused() -> None:
    """``action_from_json`` (the machines' way in) refuses digits other than 0-9 and
    over-long texts before any parser sees them."""
    game = get_game("electron-gladiators")
    state = game.start(None, None, 1)
    for data in (
        {"type": "drive", "at": "A²", "direction": "fwd", "squares": 1},
        {"type": "drive", "at": "K1", "direction": "fwd", "squares": "٣"},
        {"type": "fire", "at": "K1", "target": "K" * 5000},
        {"type": ["drive"], "at": "K1"},
        {"type": {"x": 1}},
    ):
        with pytest.raises(IllegalAction):
            game.action_from_json(data)
    action = game.action_from_json({"type": "fire", "at": "A2", "target": "B2"})
    before = state.fingerprint()
    with pytest.raises(IllegalAction):
        state.apply("1", action)
    assert state.fingerprint() == before


def test_simulate_reports_a_match_too_long_in_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """A batch whose match never ends (an unreachable target) ends with a clean error."""

    def endless(*args: object, **kwargs: object) -> None:
        raise MatchTooLong("no result after 1000000 actions")

    monkeypatch.setattr(main, "run_batch", endless)
    result = CliRunner().invoke(main.app, ["simulate", "pig", "--games", "1"])
    assert result.exit_code == 2
    assert "error: no result after 1000000 actions" in result.output


#: texts no position reader may answer with anything but its own clear refusal
HOSTILE_POSITIONS = [
    "",
    "x",
    "round: [",
    "- 1\n- 2",
    "turn: -1",
    "\x00",
    "a: !!python/object/apply:os.system [echo]",
    "[[[[",
    "9" * 5000,
    "turn: 99999999999999999999999",
    "a: &x [1]\nb: *x",
    "round: 1e400",
    "dice: [1, 2, x]",
]


@pytest.mark.parametrize("text", HOSTILE_POSITIONS, ids=range(len(HOSTILE_POSITIONS)))
def test_every_position_reader_refuses_hostile_text_with_its_own_error(text: str) -> None:
    """A position comes from anyone (a file, the server's creation form): a reader
    refuses what it cannot read with the game's error, never another exception."""
    for game in games():
        with pytest.raises(GladiatoriumError):
            game.start(None, None, 1, text, "position")
