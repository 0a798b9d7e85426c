"""Superhero Gladiators' own terminal commands: ``hero`` (the designer) and ``duel``,
mounted by the main command through ``SuperheroGladiatorsTerminal.commands()``."""
