"""Builds the modules named in ``mypyc.ini`` (Gladiator Chess's move generation, the
engine's state, Superhero Gladiators' rules and bots) as compiled modules with mypyc,
from the same typed sources; the package works the same without them (a missing
compiler leaves the pure Python modules in use)."""

from __future__ import annotations

import sys
from configparser import ConfigParser

from setuptools import setup


def compiled_sources() -> list[str]:
    """The modules compiled, each a typed source that stays importable as it is
    (``files`` in mypyc.ini)."""
    config = ConfigParser()
    config.read("mypyc.ini")
    return [name.strip() for name in config["mypy"]["files"].split(",") if name.strip()]


#: the commands that build the modules (pip also runs this file for the package's
#: metadata and build requirements, which need no compiling: mypyc takes a minute)
BUILDS = {"build", "build_ext", "bdist_wheel", "editable_wheel", "develop", "install"}


def compiled_modules() -> list[object]:
    if BUILDS.isdisjoint(sys.argv[1:]):
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:  # built without mypy: pure Python
        return []
    # the modules are type-checked again by their own annotations, without the project's
    # mypy settings (whose pydantic plugin the build does not install)
    flags = ["--config-file", "mypyc.ini", "--ignore-missing-imports"]
    modules = mypycify([*flags, *compiled_sources()], opt_level="3")
    for module in modules:
        module.optional = True  # no C compiler: pure Python
    return modules


setup(ext_modules=compiled_modules())
