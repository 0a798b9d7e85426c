"""The ``gladiatorium`` command line."""
