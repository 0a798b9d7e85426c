"""Builds Gladiator Chess's position (its move generation) as a compiled module with
mypyc, from the same typed source; the package works the same without it (a missing
compiler leaves the pure Python module in use)."""

from __future__ import annotations

from setuptools import setup

#: the modules compiled, each a typed source that stays importable as it is
COMPILED = ["src/gladiatorium/games/gladiator_chess/position.py"]


def compiled_modules() -> list[object]:
    try:
        from mypyc.build import mypycify
    except ImportError:  # built without mypy: pure Python
        return []
    # the modules are type-checked again by their own annotations, without the project's
    # mypy settings (whose pydantic plugin the build does not install)
    flags = ["--config-file", "mypyc.ini", "--ignore-missing-imports"]
    modules = mypycify([*flags, *COMPILED], opt_level="3")
    for module in modules:
        module.optional = True  # no C compiler: pure Python
    return modules


setup(ext_modules=compiled_modules())
