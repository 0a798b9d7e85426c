"""Gladiatorium: one engine for five hero and gladiator tabletop games."""

__version__ = "0.1.0"
