"""Mail that reads well in a mail client: no line of a mail pbem writes is longer than 78 characters.

Every test that runs an SMTP server (tests/helpers_mail.py) checks, at its
end, every mail the referee sent through it (:func:`helpers_mail.overlong_lines`):
the tests here check the layout itself and that the check finds what it must.
"""

from __future__ import annotations

from helpers_mail import MAIL_LINE_MAX, REFEREE, overlong_lines

from pbem.mail.compose import TurnText, lay_out, message_bytes, new_message, turn_body


def test_a_long_line_of_prose_is_wrapped_keeping_its_indent():
    text = "      turn 4: " + "the referee handed alice's seat to a new key " * 3
    lines = lay_out(text).split("\n")
    assert len(lines) > 1 and all(len(line) <= MAIL_LINE_MAX for line in lines)
    assert lines[0].startswith("      turn 4: ") and lines[1].startswith("          ")
    assert " ".join(text.split()) == " ".join(" ".join(lines).split())  # nothing lost, nothing added


def test_a_long_command_goes_on_over_lines_joined_by_a_backslash_each_option_with_its_value():
    command = "  pbem join game-77c6021f1abdf499 --as alice --key alice.key --mail referee@a-long-domain.example.org"
    lines = lay_out(command).split("\n")
    assert all(len(line) <= MAIL_LINE_MAX for line in lines)
    assert all(line.endswith(" \\") for line in lines[:-1]) and not lines[-1].endswith("\\")
    assert lines[-1].strip() == "--mail referee@a-long-domain.example.org"
    assert " ".join(w for line in lines for w in line.split() if w != "\\") == " ".join(command.split())


def test_a_turn_mail_of_long_names_and_events_has_no_line_longer_than_78_characters():
    text = TurnText(game_id="0123456789abcdef", game="nightlancer", player="a-player-with-a-long-name",
                    turn=123, referee="the-referee-of-our-club@a-long-domain.example.org", kind="reaction",
                    awaiting="a-player-with-a-long-name (reaction), another-long-player-name (reaction)",
                    events=[(122, "move by another-long-player-name", ["x" * 20 + " plays a long card name" * 4])],
                    deadline="2026-12-24T18:00:00Z", attachments=[f"file-{i}.json" for i in range(12)],
                    carried="turns 100 to 123 are attached; " * 4)
    message = new_message(REFEREE, ["a-player-with-a-long-name@a-long-domain.example.org"],
                          "[pbem 0123456789abcdef] turn 123: your decision (reaction) " + "and more " * 8,
                          turn_body(text, "game-0123456789abcdef"), automatic="auto-generated")
    raw = message_bytes(message)
    assert overlong_lines(raw) == []
    assert b"Subject: [pbem 0123456789abcdef] turn 123" in raw  # the Subject folded, not cut


def test_the_check_of_every_mail_finds_a_line_too_long_in_a_header_or_in_the_text():
    message = new_message(REFEREE, ["alice@pbem.test"], "a subject", "the text\n")
    raw = message_bytes(message).replace(b"the text\r\n", b"y" * 80 + b"\r\n")
    assert overlong_lines(raw) == ["y" * 80]
    assert overlong_lines(b"X-Long: " + b"z" * 80 + b"\r\n\r\nbody\r\n") == ["X-Long: " + "z" * 80]
