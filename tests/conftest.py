"""Register every built-in game before any test runs."""

from gladiatorium.games import load

load()
