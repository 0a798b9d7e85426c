"""Superhero Gladiators' own lab reports: ``balance`` (every pair of heroes on several
arenas) and ``cost`` (what a power is worth in points), run as ``gladiatorium lab
balance|cost`` (``commands.py``, named by the package's ``lab_commands()``)."""
