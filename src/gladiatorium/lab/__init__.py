"""The lab: tournaments and ratings, rule-option sweeps, the reinforcement-learning
environment. The runner and the batches it plays are the engine's (``core/jobs.py``,
``core/batches.py``); a game's own reports live in its folder, found through the
registry."""
