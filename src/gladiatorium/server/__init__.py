"""The web server: accounts, lobby, matches that persist, per-seat views pushed live,
bots in seats and deadlines. Game-agnostic: it reaches games only through the registry
and the contract in :mod:`gladiatorium.core`."""
