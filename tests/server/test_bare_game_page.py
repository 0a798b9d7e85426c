"""A game that names no presenter is served by the generic match page: its view as
text, the legal actions as buttons, played through the form to the end."""

from __future__ import annotations

from test_pages_forms import create, csrf, match_id_of, pages_app, signed_in

from bare_game import BarePig, bare_game

__all__ = ["bare_game", "pages_app"]


def test_the_generic_page_plays_a_game_without_presenters(
    pages_app: object, bare_game: BarePig
) -> None:
    client = signed_in(pages_app, "barefan")
    location = create(client, game="bare-pig", players="2", **{"seat.1": "me", "seat.2": "me"})
    match_id = match_id_of(location)
    page = client.get(f"/matches/{match_id}?seat=1").text
    assert "Your move (seat 1)" in page and 'id="webpic"' not in page
    assert '<button type="submit" name="action" value="roll"' in page
    assert "&#34;turn_total&#34;: 0," in page  # the view as text, escaped
    service = pages_app.state.service  # type: ignore[attr-defined]
    for _ in range(400):
        live = service.store.live(match_id)
        if live.over:
            break
        seat = live.state.awaiting()[0]
        action = "hold" if live.state.turn_total >= 10 else "roll"
        played = client.post(
            f"/matches/{match_id}/act",
            data={"csrf": csrf(client), "seat": seat, "action": action},
            follow_redirects=False,
        )
        assert played.status_code == 303, played.text
    outcome = service.store.live(match_id).state.outcome()
    assert outcome is not None and outcome.reason == "reached the target"
    end = client.get(f"/matches/{match_id}?seat=1").text
    assert "Match over" in end and "reached the target" in end
