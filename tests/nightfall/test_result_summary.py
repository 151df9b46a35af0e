"""The line that announces a finished game says why its winner won: fewest wounds (EN 239), or
which tie-break decided between players with as many (EN 240-241)."""

from __future__ import annotations

from pbem.engine.rng import Rng
from pbem.games.nightfall import scoring


def _finished(table, first: str, discards: dict[str, list[str]]):
    t = table({"first": first, "phase": "claim", "active": first,
               "players": {p: {"discard": cards} for p, cards in discards.items()}})
    scoring.game_over(t.s, {}, Rng.from_seed("game over"))
    return scoring.result(t.s)


def test_the_fewest_wounds_win_without_a_tie_break(table) -> None:
    result = _finished(table, "janet", {"janet": ["nf-bite"] * 3, "scott": ["nf-bite"] * 5,
                                        "brad": ["nf-burn"] * 4})
    assert result.winners == ("janet",)
    assert result.summary == "janet wins (janet: 3, scott: 5, brad: 4 wounds)"


def test_a_tie_on_wounds_broken_by_the_most_frequent_wound_keyword_says_so(table) -> None:
    """EN 242's example: 7 wounds each; Janet's 4 burns lose to Brad's 3 bites and 3 burns."""
    result = _finished(table, "janet", {
        "brad": ["nf-bite"] * 3 + ["nf-burn"] * 3 + ["nf-bleed"],
        "janet": ["nf-bite"] + ["nf-burn"] * 4 + ["nf-bleed"] * 2,
        "scott": ["nf-bite"] * 8})
    assert result.winners == ("brad",)
    assert result.summary == ("brad wins on the tie-break, the lower count of one wound keyword "
                              "(janet: 7, scott: 8, brad: 7 wounds)")


def test_a_tie_on_wounds_and_keywords_broken_by_the_seat_says_so(table) -> None:
    """EN 241: still tied, the player closest to the right of the first player wins."""
    result = _finished(table, "janet", {p: ["nf-bite", "nf-burn"] for p in ("janet", "scott", "brad")})
    assert result.winners == ("brad",)
    assert result.summary == ("brad wins on the tie-break, the seat closest to the right of the first player "
                              "(janet: 2, scott: 2, brad: 2 wounds)")


def test_a_three_way_tie_broken_by_keywords_then_by_the_seat_names_both(table) -> None:
    result = _finished(table, "janet", {"janet": ["nf-bite", "nf-bite"], "scott": ["nf-bite", "nf-burn"],
                                        "brad": ["nf-bite", "nf-burn"]})
    assert result.winners == ("brad",)
    assert result.summary == ("brad wins on the tie-break, the lower count of one wound keyword, then the seat "
                              "closest to the right of the first player (janet: 2, scott: 2, brad: 2 wounds)")
