"""Undo by consent: a referee rolls a game back to an earlier turn only with a signed consent of every seat,
keeps what it abandoned, and the chain, the anchor and ``pbem verify`` say where it was cut."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from helpers_archive import SteppedGame, new_stepped_game

from pbem.crypto.keys import load_private_key
from pbem.crypto.signing import sign_document
from pbem.referee.errors import HistoryLost, UndoRefused, VerificationFailed
from pbem.referee.head import Anchors
from pbem.referee.pipeline import submit
from pbem.referee.player import read_view
from pbem.referee.public import status
from pbem.referee.storage import dump_json
from pbem.referee.undo import apply_rollback, sign_consent
from pbem.referee.verify import verify

HEAD = 8
TO = 5


@pytest.fixture(scope="module")
def template(tmp_path_factory) -> SteppedGame:
    """A two-player Nightfall game at turn 8, stepped by a referee that anchors in ``state/``."""
    root = tmp_path_factory.mktemp("undo")
    game = new_stepped_game(root, "nightfall", 2, 0x41)
    anchors = Anchors(root / "state")
    while status(game.dir).turn < HEAD:
        game.step(anchors=anchors)
    return game


@pytest.fixture
def game(template: SteppedGame, tmp_path: Path) -> SteppedGame:
    shutil.copytree(template.root, tmp_path / "g")
    return SteppedGame(tmp_path / "g", template.name, template.players, template.keys,
                       dict(template.bots))


def anchors(game: SteppedGame) -> Anchors:
    return Anchors(game.root / "state")


def consents(game: SteppedGame, to: int = TO, players: tuple[str, ...] | None = None) -> list[tuple[str, bytes]]:
    return [(f"undo-{p}.json", sign_consent(game.dir, game.keys[p], to)[1]) for p in players or game.players]


def snapshot(directory: Path) -> dict[str, bytes]:
    return {str(p.relative_to(directory)): p.read_bytes() for p in sorted(directory.rglob("*")) if p.is_file()
            and p.name != ".lock"}


def refused(game: SteppedGame, given: list[tuple[str, bytes]], message: str) -> None:
    before, anchored = snapshot(game.dir), snapshot(game.root / "state")
    with pytest.raises(UndoRefused, match=message):
        apply_rollback(game.dir, given, game.keys["referee"], anchors=anchors(game))
    assert snapshot(game.dir) == before and snapshot(game.root / "state") == anchored


def test_a_rollback_with_every_seats_consent_returns_to_that_turn_and_keeps_what_it_abandoned(game: SteppedGame) -> None:
    before = snapshot(game.dir)
    applied = apply_rollback(game.dir, consents(game), game.keys["referee"], anchors=anchors(game))
    assert (applied.number, applied.to, applied.head) == (1, TO, HEAD)
    assert status(game.dir).turn == TO
    kept = game.dir / "abandoned" / "000001"
    for n in range(TO + 1, HEAD + 1):
        assert (kept / "turns" / f"{n:06d}.json").read_bytes() == before[f"turns/{n:06d}.json"]
        assert not (game.dir / "turns" / f"{n:06d}.json").exists()
    assert sorted(p.name for p in (kept / "consents").iterdir()) == ["alice.json", "bob.json"]
    assert {p.name for p in (kept / "moves").iterdir()} == {k.split("/")[1] for k in before
                                                            if k.startswith("moves/") and int(k[6:12]) > TO}
    assert read_view(game.dir, "alice", game.keys["alice"]).number == TO  # the views are turn 5's again
    assert verify(game.dir, replay=True).replayed


def test_the_turn_after_a_rollback_names_it_and_the_anchor_takes_it(game: SteppedGame) -> None:
    apply_rollback(game.dir, consents(game), game.keys["referee"])  # no state dir: the anchor still names turn 8
    assert game.step(anchors=anchors(game))
    record = game.dir / "abandoned" / "000001" / "rollback.json"
    from pbem.referee.records import read_record

    named = json.loads((game.dir / "turns" / f"{TO + 1:06d}.json").read_text())["rollback"]
    assert named == {"number": 1, "record": read_record(record, "pbem-rollback/1").hash}
    assert game.step(anchors=anchors(game))
    assert "rollback" not in json.loads((game.dir / "turns" / f"{TO + 2:06d}.json").read_text())
    assert verify(game.dir, replay=True).replayed
    from pbem.cli.text import log_text
    from pbem.referee.public import public_log

    log = " ".join(log_text(public_log(game.dir)).split())  # pbem log wraps its lines at 80 columns
    assert (f"rollback 1: every seat consented to take the game back to turn {TO}; the turns it abandoned are "
            f"kept in abandoned/000001/ turn {TO + 1}: move by") in log


def test_a_rollback_redraws_nothing_the_same_move_gives_the_same_turn(game: SteppedGame) -> None:
    abandoned = json.loads((game.dir / "turns" / f"{TO + 1:06d}.json").read_text())
    move = next((game.dir / "moves").glob(f"{TO + 1:06d}-*.json")).read_bytes()
    apply_rollback(game.dir, consents(game), game.keys["referee"], anchors=anchors(game))
    submit(game.dir, move, game.keys["referee"], anchors=anchors(game))
    again = json.loads((game.dir / "turns" / f"{TO + 1:06d}.json").read_text())
    assert {k for k in abandoned.keys() | again.keys() if abandoned.get(k) != again.get(k)} == {"rollback", "signature"}


def test_a_rollback_without_every_seat_is_refused_and_changes_nothing(game: SteppedGame) -> None:
    refused(game, consents(game, players=("alice",)), "bob has not given one")
    refused(game, [], "none was given")


def test_a_second_consent_of_one_seat_does_not_stand_for_another(game: SteppedGame) -> None:
    alice = consents(game, players=("alice",))
    refused(game, alice + alice, "a second consent of alice")


def test_a_forged_consent_is_refused(game: SteppedGame) -> None:
    given = consents(game)
    bob = json.loads(given[1][1])
    bob.pop("signature")
    forged = dump_json(sign_document(bob, game.keys["alice"]))  # bob's consent, signed with alice's key
    refused(game, [given[0], ("bob.json", forged)], "not signed by the key that holds bob's seat")
    altered = json.loads(given[1][1])
    altered["to"]["turn"] = 2  # bob signed turn 5
    refused(game, [given[0], ("bob.json", dump_json(altered))], "not signed by the key|returns to turn")


def test_a_consent_for_another_head_is_refused(game: SteppedGame) -> None:
    given = consents(game)
    game.step(anchors=anchors(game))  # the game moved on after the consents were signed
    refused(game, given, "a consent for another head")


def test_a_consent_used_before_is_refused(game: SteppedGame) -> None:
    given = consents(game)
    apply_rollback(game.dir, given, game.keys["referee"], anchors=anchors(game))
    refused(game, given, "a consent for another head")


def test_a_consent_of_another_game_is_refused(game: SteppedGame, tmp_path: Path) -> None:
    other = new_stepped_game(tmp_path / "other", "nightfall", 2, 0x42)
    other.play(HEAD)
    refused(game, consents(other), "another game")


def _signed_consents(game: SteppedGame, change) -> list[tuple[str, bytes]]:
    """Every seat's consent with ``change`` made before each seat signs it with its own key."""
    found = []
    for where, data in consents(game):
        doc = json.loads(data)
        doc.pop("signature")
        change(doc)
        found.append((where, dump_json(sign_document(doc, game.keys[doc["player"]]))))
    return found


def test_a_rollback_to_a_turn_that_is_not_in_the_chain_is_refused(game: SteppedGame) -> None:
    def other_hash(doc) -> None:
        doc["to"]["hash"] = "sha256:" + "0" * 64

    refused(game, _signed_consents(game, other_hash), "not in the chain")

    def later(doc) -> None:
        doc["to"]["turn"] = HEAD + 3

    refused(game, _signed_consents(game, later), "not an earlier turn")
    with pytest.raises(UndoRefused, match="not an earlier turn"):
        sign_consent(game.dir, game.keys["alice"], HEAD)


def test_a_branch_turn_a_rollback_abandoned_is_not_in_the_chain(game: SteppedGame) -> None:
    abandoned = json.loads((game.dir / "turns" / f"{TO + 2:06d}.json").read_text())
    apply_rollback(game.dir, consents(game, to=TO), game.keys["referee"], anchors=anchors(game))
    game.step(anchors=anchors(game))
    game.step(anchors=anchors(game))

    def to_the_abandoned_turn(doc) -> None:
        doc["to"] = {"turn": TO + 2, "hash": "sha256:" + abandoned["previous"][7:]}

    refused(game, _signed_consents(game, to_the_abandoned_turn), "not in the chain|not an earlier turn")


def test_a_finished_game_is_never_rolled_back(tmp_path: Path) -> None:
    over = new_stepped_game(tmp_path, "nightfall", 2, 0x21)
    while over.step():
        pass
    with pytest.raises(UndoRefused, match="is over"):
        sign_consent(over.dir, over.keys["alice"], 3)


def test_the_anchor_refuses_a_rollback_without_every_seats_consent(game: SteppedGame) -> None:
    apply_rollback(game.dir, consents(game), game.keys["referee"])  # by hand: the anchor still names turn 8
    (game.dir / "abandoned" / "000001" / "consents" / "bob.json").unlink()
    with pytest.raises(HistoryLost, match="bob has not given one"):
        game.step(anchors=anchors(game))


def test_the_anchor_refuses_turns_moved_away_without_a_rollback(game: SteppedGame) -> None:
    kept = game.dir / "abandoned" / "000001" / "turns"
    kept.mkdir(parents=True)
    for n in range(TO + 1, HEAD + 1):
        (game.dir / "turns" / f"{n:06d}.json").rename(kept / f"{n:06d}.json")
    with pytest.raises(HistoryLost):
        game.step(anchors=anchors(game))


def test_verify_names_a_missing_consent_of_the_abandoned_branch(game: SteppedGame) -> None:
    apply_rollback(game.dir, consents(game), game.keys["referee"], anchors=anchors(game))
    (game.dir / "abandoned" / "000001" / "consents" / "alice.json").unlink()
    with pytest.raises(VerificationFailed, match="alice has not given one"):
        verify(game.dir)


def test_verify_names_an_abandoned_turn_that_does_not_chain_from_the_turn_returned_to(game: SteppedGame) -> None:
    apply_rollback(game.dir, consents(game), game.keys["referee"], anchors=anchors(game))
    kept = game.dir / "abandoned" / "000001" / "turns"
    (kept / f"{TO + 2:06d}.json").unlink()
    with pytest.raises(VerificationFailed, match="its folder holds"):
        verify(game.dir)


def test_verify_names_a_turn_after_a_rollback_that_does_not_name_it(game: SteppedGame) -> None:
    apply_rollback(game.dir, consents(game), game.keys["referee"], anchors=anchors(game))
    game.step(anchors=anchors(game))
    path = game.dir / "turns" / f"{TO + 1:06d}.json"
    doc = json.loads(path.read_text())
    doc.pop("signature")
    doc.pop("rollback")
    referee = load_private_key(game.key_file("referee"), name="referee")
    path.write_bytes(dump_json(sign_document(doc, referee)))
    with pytest.raises(VerificationFailed, match="names the rollback None"):
        verify(game.dir)


def test_verify_names_a_forged_consent_kept_with_a_rollback(game: SteppedGame) -> None:
    apply_rollback(game.dir, consents(game), game.keys["referee"], anchors=anchors(game))
    path = game.dir / "abandoned" / "000001" / "consents" / "bob.json"
    doc = json.loads(path.read_text())
    doc.pop("signature")
    path.write_bytes(dump_json(sign_document(doc, game.keys["alice"])))
    with pytest.raises(VerificationFailed, match="not signed by the key that holds bob's seat"):
        verify(game.dir)


def test_a_second_rollback_to_the_same_turn_is_the_one_the_next_turn_names(game: SteppedGame) -> None:
    apply_rollback(game.dir, consents(game), game.keys["referee"], anchors=anchors(game))
    game.step(anchors=anchors(game))
    game.step(anchors=anchors(game))
    applied = apply_rollback(game.dir, consents(game), game.keys["referee"], anchors=anchors(game))
    assert applied.number == 2
    game.step(anchors=anchors(game))
    assert json.loads((game.dir / "turns" / f"{TO + 1:06d}.json").read_text())["rollback"]["number"] == 2
    assert verify(game.dir, replay=True).replayed


def test_a_rollback_cut_short_takes_no_step_and_is_completed_by_running_it_again(game: SteppedGame) -> None:
    from pbem.referee import undo

    given = consents(game)
    real = undo._complete

    def crash(*args, **kwargs):
        raise OSError("power cut")

    undo._complete = crash  # type: ignore[assignment]
    try:
        with pytest.raises(OSError):
            apply_rollback(game.dir, given, game.keys["referee"], anchors=anchors(game))
    finally:
        undo._complete = real  # type: ignore[assignment]
    with pytest.raises(UndoRefused, match="cut short"):
        game.step()
    assert apply_rollback(game.dir, [], game.keys["referee"], anchors=anchors(game)).completed
    assert status(game.dir).turn == TO
    assert verify(game.dir, replay=True).replayed


def test_a_revealed_game_is_never_rolled_back(game: SteppedGame) -> None:
    from pbem.referee.reveal import reveal

    given = consents(game)
    reveal(game.dir, game.keys["referee"], force=True)
    refused(game, given, "revealed")


def test_pbem_view_notes_a_shown_turn_that_a_rollback_abandoned_and_warns_of_none(game: SteppedGame,
                                                                                  tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from pbem.cli.main import app

    def view() -> str:
        result = CliRunner().invoke(app, ["view", str(game.dir), "--as", "alice", "--key",
                                          str(game.key_file("alice")), "--state-dir", str(tmp_path / "seen")])
        assert result.exit_code == 0, result.output
        return result.output

    assert f"turn {HEAD}, you are alice" in view()
    apply_rollback(game.dir, consents(game), game.keys["referee"], anchors=anchors(game))
    shown = view()
    assert "WARNING" not in shown and f"turn {TO}, you are alice" in shown
    assert f"turn {HEAD}, shown to you before, was abandoned by a rollback that every seat consented to" in shown


def test_a_rolled_back_game_is_looked_back_over_along_the_chain_it_kept(game: SteppedGame) -> None:
    from pbem.referee.lookback import look_back
    from pbem.referee.reveal import reveal

    apply_rollback(game.dir, consents(game), game.keys["referee"], anchors=anchors(game))
    game.step(anchors=anchors(game))
    reveal(game.dir, game.keys["referee"], force=True)
    seen = list(look_back(game.dir, "alice"))
    assert [t.number for t in seen] == list(range(TO + 2))
    assert seen[-1].turn.doc["rollback"]["number"] == 1
    assert seen[-1].view is not None and seen[-1].view.number == TO + 1
