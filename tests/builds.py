"""Which build of the compiled modules (mypyc.ini, setup.py) the tests import, and whether
it is the one expected: the Makefile sets GLADIATORIUM_EXPECT_COMPILED=1 where a C compiler
is found (scripts/compiler-found), since setup.py marks the compiled modules optional and a
failed compilation would otherwise pass as the slower pure build, and `make pytest-pure`
sets GLADIATORIUM_EXPECT_PURE=1 on its copy of src/ without the .so files."""

import importlib
import importlib.util
from collections.abc import Mapping
from configparser import ConfigParser
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def imported_source() -> Path:
    """The folder holding the ``gladiatorium`` package imported (``src/``, or the copy of it
    that `make pytest-pure` makes), found without importing its modules."""
    spec = importlib.util.find_spec("gladiatorium")
    assert spec is not None and spec.origin is not None
    return Path(spec.origin).resolve().parents[1]


def compiled_names(ini: Path = ROOT / "mypyc.ini") -> list[str]:
    """The modules setup.py compiles (``files`` in mypyc.ini), by their import names."""
    config = ConfigParser()
    config.read(ini)
    paths = [name.strip() for name in config["mypy"]["files"].split(",") if name.strip()]
    return [path.removeprefix("src/").removesuffix(".py").replace("/", ".") for path in paths]


def imported_builds(names: list[str], src: Path) -> dict[str, bool]:
    """Whether each module, as imported, is its compiled build, with its compiled file
    beside its source under ``src`` (a module whose own file is missing can still be loaded
    from the compiled modules' shared library when another of them imports it first)."""
    compiled = {}
    for name in names:
        module = str(importlib.import_module(name).__file__)
        source = src.joinpath(*name.split("."))
        beside = any(
            source.with_name(source.name + suffix).exists() for suffix in EXTENSION_SUFFIXES
        )
        compiled[name] = module.endswith(tuple(EXTENSION_SUFFIXES)) and beside
    return compiled


def wrong_build(compiled: Mapping[str, bool], environ: Mapping[str, str], src: Path) -> str:
    """Why the build imported from ``src`` is not the one the environment expects ("" where
    it is, or where it expects none)."""
    pure = [name for name, done in compiled.items() if not done]
    done = [name for name, done in compiled.items() if done]
    if environ.get("GLADIATORIUM_EXPECT_COMPILED") == "1" and pure:
        return (
            f"a C compiler was found, but modules of mypyc.ini ({len(pure)} of "
            f"{len(compiled)}) are not compiled in {src}: {', '.join(pure)}. Their compilation "
            "failed (setup.py marks it optional) or the install did not run it: install "
            "again and read the compiler's error, `.venv/bin/pip install -v -e '.[dev]'` "
            "(or `make clean test` to start over); GLADIATORIUM_EXPECT_COMPILED=0 tests "
            "the pure build on purpose"
        )
    if environ.get("GLADIATORIUM_EXPECT_PURE") == "1" and done:
        return (
            f"the pure Python run imported {len(done)} compiled modules from {src}: "
            f"{', '.join(done)}. Point PYTHONPATH at a copy of src/ without the .so files, "
            "`scripts/pure-source build/pure/src` (as `make pytest-pure` does)"
        )
    return ""


def header(compiled: Mapping[str, bool], src: Path) -> str:
    """The build tested, for pytest's header."""
    done = sum(compiled.values())
    build = "pure Python" if not done else f"{done} of {len(compiled)} modules compiled"
    return f"gladiatorium: {build}, from {src}"
