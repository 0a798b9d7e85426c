"""``gladiatorium ratings rebuild``: every rating of the server's database recomputed
from the stored results (each finished match's places), in the order the matches
ended: the results are the truth, the ratings follow from them."""

from __future__ import annotations

from typing import Annotated

import typer

app = typer.Typer(help="The server's ratings of people.", no_args_is_help=True)


@app.command("rebuild")
def rebuild_command(
    database_url: Annotated[
        str | None,
        typer.Option(
            help="SQLAlchemy URL (default: $GLADIATORIUM_DATABASE_URL, else gladiatorium.db here)."
        ),
    ] = None,
) -> None:
    """Recompute every rating from the stored results (the same numbers as played)."""
    from gladiatorium.server.config import Settings
    from gladiatorium.server.db import make_engine, make_sessions, migrate
    from gladiatorium.server.ratings import rebuild

    settings = Settings(database_url=database_url) if database_url else Settings()
    engine = make_engine(settings.database_url)
    try:
        migrate(engine)
        rated = rebuild(make_sessions(engine))
    finally:
        engine.dispose()
    print(f"ratings rebuilt from {rated} rated matches")
