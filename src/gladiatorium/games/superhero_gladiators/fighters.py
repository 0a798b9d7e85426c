"""A hero in the arena: its card, its derived numbers and what happened to it."""

from __future__ import annotations

from dataclasses import dataclass, field

from gladiatorium.games.superhero_gladiators.arena import Square
from gladiatorium.games.superhero_gladiators.heroes import (
    INFINITE,
    Gizmo,
    Hero,
    Power,
    PowerType,
    Style,
    Traits,
    damage,
)

#: the key of a hero's usable attacks among its usable powers by type
ATTACK = "attack"
#: the key of its usable attacks that do direct damage (C20)
HARMFUL = "harmful"
#: the key of all its usable powers
USABLE = "usable"


def card_traits(hero: Hero) -> Traits:
    """The hero's traits (worked out once per card: cards never change in play)."""
    return hero.traits


def unique_power_names(hero: Hero) -> dict[str, Power]:
    """The hero's powers by name; a repeated name gets `` #2``, `` #3`` (actions
    name powers, so names must be unique)."""
    found: dict[str, Power] = {}
    for power in hero.powers:
        name, n = power.name, 1
        while name in found:
            n += 1
            name = f"{power.name} #{n}"
        found[name] = power
    return found


@dataclass
class Fighter:
    """One hero on the map. ``square`` is None before placement and after fainting."""

    id: str
    team: str
    hero: Hero
    powers: dict[str, Power]
    oomph: int
    uses: dict[str, int | None]
    square: Square | None = None
    altitude: int = 0
    flight_level: int = 0
    clinging: bool = False
    cling_level: int = 0
    entangled: int = 0
    grappler: str = ""
    copied: Power | None = None
    fainted: bool = False
    used: list[str] = field(default_factory=list)
    destroyed: list[str] = field(default_factory=list)
    working_moves: list[str] = field(default_factory=list)
    #: the usable powers as last worked out (None: to work out again), forgotten when
    #: a power runs out of uses or loses its gizmo (a copy may share them: values)
    _kept_usable: dict[PowerType | str, tuple[str, ...]] | None = field(
        default=None, repr=False, compare=False
    )

    @classmethod
    def of(cls, fid: str, team: str, hero: Hero) -> Fighter:
        powers = unique_power_names(hero)
        uses = {n: None if p.uses == INFINITE else int(p.uses) for n, p in powers.items()}
        return cls(fid, team, hero, powers, card_traits(hero).max_oomph, uses)

    def __deepcopy__(self, memo: dict[int, object]) -> Fighter:
        twin = self.copy()
        memo[id(self)] = twin
        return twin

    def copy(self) -> Fighter:
        """The hero as it stands: what changes in play is copied, its card and powers
        (values) are shared."""
        return Fighter(  # through the constructor: a compiled class has no __dict__
            id=self.id,
            team=self.team,
            hero=self.hero,
            powers=dict(self.powers),
            oomph=self.oomph,
            uses=dict(self.uses),
            square=self.square,
            altitude=self.altitude,
            flight_level=self.flight_level,
            clinging=self.clinging,
            cling_level=self.cling_level,
            entangled=self.entangled,
            grappler=self.grappler,
            copied=self.copied,
            fainted=self.fainted,
            used=list(self.used),
            destroyed=list(self.destroyed),
            working_moves=list(self.working_moves),
            _kept_usable=self._kept_usable,
        )

    # ----- numbers from the card
    @property
    def name(self) -> str:
        return self.hero.name

    @property
    def label(self) -> str:
        return f"{self.hero.name} ({self.id})"

    @property
    def combat(self) -> int:
        return self.hero.traits.combat

    @property
    def max_oomph(self) -> int:
        return self.hero.traits.max_oomph

    @property
    def segments(self) -> tuple[int, ...]:
        return self.hero.traits.segments

    @property
    def movement(self) -> int:
        return self.hero.traits.movement

    @property
    def strength(self) -> int:
        return self.hero.effective.strength

    @property
    def perception(self) -> int:
        return self.hero.effective.perception

    @property
    def alive(self) -> bool:
        return not self.fainted and self.square is not None

    # ----- powers
    def usable(self, name: str) -> bool:
        """A power can be used: uses left and its gizmo not destroyed."""
        left = self.uses[name]
        return (left is None or left > 0) and name not in self.destroyed

    def spend(self, name: str) -> None:
        """Use a power once: a use is spent (not for infinite uses)."""
        left = self.uses[name]
        if left is not None:
            self.uses[name] = left - 1
            if left <= 1:  # its last use: no longer usable
                self.forget_usable()
        if name not in self.used:
            self.used.append(name)

    def destroy(self, name: str) -> None:
        """The gizmo of power ``name`` is destroyed: the power is switched off (C13)."""
        self.destroyed.append(name)
        self.forget_usable()

    def forget_usable(self) -> None:
        """Work the usable powers out again when next asked: ``uses`` and ``destroyed``
        change through :meth:`spend` and :meth:`destroy`, which call this; whoever
        edits them directly (a written position) must too."""
        self._kept_usable = None

    def of_type(self, kind: PowerType) -> tuple[str, ...]:
        """Names of usable powers of a type, in card order."""
        return self._usable().get(kind, ())

    def defenses(self, style: Style) -> list[str]:
        return [n for n in self.of_type(PowerType.DEFENSE) if style in self.powers[n].styles]

    def usable_powers(self) -> tuple[str, ...]:
        """Names of the powers it may still use (uses left, gizmo intact), in card order."""
        return self._usable()[USABLE]

    def attacks(self) -> tuple[str, ...]:
        """Names of usable attack powers (close and distance), in card order."""
        return self._usable()[ATTACK]

    def _usable(self) -> dict[PowerType | str, tuple[str, ...]]:
        """The usable powers by type, and the attacks, worked out again only when a
        power ran out of uses or lost its gizmo (a hero's powers and their types never
        change)."""
        kept = self._kept_usable
        if kept is None:
            found: dict[PowerType | str, list[str]] = {ATTACK: [], HARMFUL: [], USABLE: []}
            for n, p in self.powers.items():
                if self.usable(n):
                    found[USABLE].append(n)
                    found.setdefault(p.type, []).append(n)
                    if p.is_attack:
                        found[ATTACK].append(n)
                    if (damage(p) or 0) > 0:
                        found[HARMFUL].append(n)
            kept = self._kept_usable = {k: tuple(v) for k, v in found.items()}
        return kept

    def copy_ready(self) -> str | None:
        """The copy-power able to pay for using the copied attack, if any."""
        if self.copied is None:
            return None
        ready = self.defenses(Style.COPY_POWER)
        return ready[0] if ready else None

    def can_harm(self) -> bool:
        """Has an attack with uses left that does direct damage (C20)."""
        if self._usable()[HARMFUL]:
            return True
        copied = self.copied
        return copied is not None and self.copy_ready() is not None and (damage(copied) or 0) > 0

    def hidden_gizmos(self) -> list[str]:
        """Powers with a hidden gizmo that still works."""
        return [
            n for n, p in self.powers.items() if p.gizmo is Gizmo.HIDDEN and n not in self.destroyed
        ]
