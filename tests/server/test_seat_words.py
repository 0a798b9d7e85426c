"""The creation form names each seat kind in a player's words: a bot by its name and
what it is, a seat left to the server by what happens there (the game says)."""

from __future__ import annotations

import re
from html import unescape

from fastapi.testclient import TestClient
from server_helpers import register


def seat_options(client: TestClient, game: str, seat: str) -> dict[str, str]:
    html = client.get(f"/matches/new?game={game}").text
    select = html.split(f'<select name="seat.{seat}">', 1)[1].split("</select>", 1)[0]
    found = re.findall(r'<option value="([^"]+)"[^>]*>([^<]+)</option>', select)
    return {value: unescape(label) for value, label in found}


def test_bots_and_server_seats_read_as_words(sqlite_client: TestClient) -> None:
    register(sqlite_client, "ada")
    dice = seat_options(sqlite_client, "super-dice-heroes", "2")
    assert dice == {
        "me": "me",
        "invite": "invite someone (a link to send)",
        "open": "open (anyone may take it)",
        "bot:planner": "a bot: planner (the best)",
        "bot:greedy": "a bot: greedy",
        "bot:random": "a bot: random (plays any legal move at random)",
        "bot:mcts": "a bot: mcts (searches ahead; slow)",
        "server": "nobody: at each round's deadline the hero takes the first power offered, "
        "then the first spends until done",
    }
    chess = seat_options(sqlite_client, "gladiator-chess", "white-king")
    assert chess["bot:marshal"] == "a bot: marshal (the best)"
    assert chess["bot:bot"] == "a bot: bot (the same as marshal)"
    assert "server" not in chess
    moderator = seat_options(sqlite_client, "hero-battle", "moderator")
    assert moderator["server"] == "the server: closes each round at its deadline"
