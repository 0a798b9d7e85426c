"""The check of the build tested (tests/builds.py): it names the modules of the wrong
build, for each build the Makefile expects, and reads the modules that setup.py compiles."""

from pathlib import Path

from builds import ROOT, compiled_names, wrong_build

SRC = Path("/somewhere/src")
MIXED = {"gladiatorium.core.state": True, "gladiatorium.core.rng": False}


def test_the_modules_compiled_are_those_of_mypyc_ini() -> None:
    names = compiled_names()
    assert "gladiatorium.core.state" in names
    assert "gladiatorium.games.gladiator_chess.position" in names
    for name in names:
        assert ROOT.joinpath("src", *name.split(".")).with_suffix(".py").exists()


def test_expecting_the_compiled_build_names_the_modules_left_pure() -> None:
    said = wrong_build(MIXED, {"GLADIATORIUM_EXPECT_COMPILED": "1"}, SRC)
    assert "(1 of 2)" in said and "gladiatorium.core.rng" in said
    assert "gladiatorium.core.state" not in said and "pip install -v" in said
    assert wrong_build(dict.fromkeys(MIXED, True), {"GLADIATORIUM_EXPECT_COMPILED": "1"}, SRC) == ""


def test_expecting_the_pure_build_names_the_compiled_modules() -> None:
    said = wrong_build(MIXED, {"GLADIATORIUM_EXPECT_PURE": "1"}, SRC)
    assert "1 compiled modules" in said and "gladiatorium.core.state" in said
    assert "gladiatorium.core.rng" not in said and "scripts/pure-source" in said
    assert wrong_build(dict.fromkeys(MIXED, False), {"GLADIATORIUM_EXPECT_PURE": "1"}, SRC) == ""


def test_expecting_nothing_accepts_either_build() -> None:
    assert wrong_build(MIXED, {}, SRC) == ""
    assert wrong_build(MIXED, {"GLADIATORIUM_EXPECT_COMPILED": "0"}, SRC) == ""
