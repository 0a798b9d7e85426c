"""Talk channels: where the people of a match may read and post messages.

Which channels a seat has is the game's decision (``Game.channels``), made from what
the seat may know; the server keeps the messages and shows each seat only its
channels. A channel has a ``name`` as its reader calls it and a ``key`` that names the
conversation for everyone in it:

- ``all``: the match's public thread (players post, spectators read);
- ``spectators``: spectators' own talk, shown to players only once the match is over;
- ``team``: a side's channel (key ``team:SIDE``), where a side's seats know each other;
- ``seat:S``: a private conversation with seat S (key ``seat:A|B``, the two seats in
  order), such as a deal between two Hero Battle players or a word with the moderator.
"""

from __future__ import annotations

from dataclasses import dataclass

from gladiatorium.core.events import Seat

ALL = "all"
SPECTATORS = "spectators"
TEAM = "team"
#: the prefix of a private channel's name: ``seat:S`` is the conversation with seat S
PRIVATE = "seat:"


@dataclass(frozen=True)
class Channel:
    """A channel a seat may read; ``post``: it may write in it too."""

    #: as the reader calls it: ``all``, ``spectators``, ``team`` or ``seat:S``
    name: str
    #: whether the reader may post in it (else it only reads)
    post: bool
    #: the conversation, the same for every reader: ``all``, ``spectators``,
    #: ``team:SIDE``, ``seat:A|B``
    key: str
    #: the channel reads as the match's forum thread: the public moves and the round
    #: posts are shown among its messages, in time order (Hero Battle's ``all``)
    forum: bool = False

    @property
    def private_with(self) -> Seat | None:
        """The other seat of a private channel (None for the others)."""
        return self.name[len(PRIVATE) :] if self.name.startswith(PRIVATE) else None


def public_channels(seat: Seat | None, over: bool) -> list[Channel]:
    """``all`` and ``spectators`` as ``seat`` (None: a spectator) has them: players post
    in ``all`` and read ``spectators`` once the match is over; spectators read ``all``
    and post in ``spectators``."""
    if seat is None:
        return [Channel(ALL, False, ALL), Channel(SPECTATORS, True, SPECTATORS)]
    found = [Channel(ALL, True, ALL)]
    if over:
        found.append(Channel(SPECTATORS, False, SPECTATORS))
    return found


def team_channel(side: str) -> Channel:
    """The channel of the side named ``side`` (a Gladiator Chess colour)."""
    return Channel(TEAM, True, f"{TEAM}:{side}")


def private_channel(seat: Seat, other: Seat) -> Channel:
    """The private conversation of ``seat`` with ``other``, as ``seat`` has it."""
    first, second = sorted((seat, other))
    return Channel(f"{PRIVATE}{other}", True, f"{PRIVATE}{first}|{second}")
