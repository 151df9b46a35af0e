"""Finding move files in mails, whatever the mail did to them (robust to what mail does to files).

The mails are built and parsed by the standard library exactly as a mail
client and the referee do; the serve tests then send such mails through a
real SMTP server.
"""

from __future__ import annotations

import base64
import importlib
import json
import quopri
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path

import pytest
from helpers_referee import make_table

from pbem.mail.compose import message_bytes
from pbem.mail.extract import MAX_FILES_PER_MAIL, extract, unflow
from pbem.mail.incoming import is_automatic


@pytest.fixture
def table(tmp_path: Path):
    return make_table(tmp_path)


@pytest.fixture
def move(table) -> bytes:
    """A real signed move file, as `pbem move` writes it."""
    return table.move("alice", "1")


def received(message: EmailMessage) -> EmailMessage:
    """The message as the referee reads it: generated for the wire, parsed back."""
    return message_from_bytes(message_bytes(message), policy=policy.default)


def mail(body: str = "my move") -> EmailMessage:
    message = EmailMessage()
    message["From"] = "alice@pbem.test"
    message["To"] = "referee@pbem.test"
    message["Subject"] = "move"
    message.set_content(body)
    return message


def test_a_move_attached_as_json_is_found_byte_for_byte(move):
    message = mail()
    message.add_attachment(move, maintype="application", subtype="json", filename="move-000000-alice.json")
    found = extract(received(message))
    assert [f.data for f in found.files] == [move]
    assert found.files[0].player == "alice" and found.files[0].turn == 0
    assert found.files[0].format == "pbem-move/1"


@pytest.mark.parametrize("encoding", ["quoted-printable", "base64"])
def test_a_text_attachment_in_any_transfer_encoding_with_crlf_line_ends_gives_back_the_file_as_written(move, encoding):
    # text parts travel with CRLF line ends (RFC 2045 canonical form): on the wire, and in base64 too
    encoded = quopri.encodestring(move) if encoding == "quoted-printable" else base64.encodebytes(
        move.replace(b"\n", b"\r\n"))
    raw = (
        b"From: alice@pbem.test\r\nTo: referee@pbem.test\r\nSubject: move\r\nMIME-Version: 1.0\r\n"
        b'Content-Type: multipart/mixed; boundary="b"\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\nhere\r\n'
        b'--b\r\nContent-Type: text/plain; charset=utf-8; name="move.json"\r\n'
        b'Content-Disposition: attachment; filename="move.json"\r\n'
        b"Content-Transfer-Encoding: " + encoding.encode() + b"\r\n\r\n" + encoded.replace(b"\n", b"\r\n")
        + b"\r\n--b--\r\n"
    )
    found = extract(message_from_bytes(raw, policy=policy.default))
    assert [f.data for f in found.files] == [move]


def test_a_move_inside_a_forwarded_mail_is_found(move):
    original = mail()
    original.add_attachment(move, maintype="application", subtype="json", filename="move.json")
    forward = mail("forwarding alice's move")
    forward.add_attachment(original)  # message/rfc822
    found = extract(received(forward))
    assert [f.data for f in found.files] == [move]


@pytest.mark.parametrize("flowed", [False, True], ids=["plain", "format=flowed"])
def test_a_move_pasted_into_the_text_is_found(move, flowed):
    text = "Here is my move:\n\n" + move.decode() + "\nthanks, alice\n"
    message = mail()
    if flowed:
        # a mail client breaks long lines after a space and marks the soft break with it (RFC 3676)
        lines = []
        for line in text.split("\n"):
            while len(line) > 60 and " " in line[20:60]:
                cut = line.rindex(" ", 20, 60) + 1
                lines.append(line[:cut])
                line = line[cut:]
            lines.append(line)
        # and space-stuffs every line that begins with a space
        message.set_content("\n".join(" " + line if line.startswith(" ") else line for line in lines))
        message.set_param("format", "flowed")
        assert any(len(line) > 0 and line.endswith(" ") for line in lines)
    else:
        message.set_content(text)
    found = extract(received(message))
    assert [f.data for f in found.files] == [move]


def test_unflow_joins_soft_breaks_and_keeps_hard_ones():
    assert unflow("one \ntwo\nthree\n") == "one two\nthree\n"
    assert unflow("one \ntwo", delsp=True) == "onetwo"
    assert unflow(" >not a quote\n-- \nsig") == ">not a quote\n-- \nsig"


def test_a_reply_with_the_view_still_attached_finds_the_move_and_sets_the_referees_files_aside(table, move):
    message = mail("my move, and your files back")
    message.add_attachment((table.dir / "game.toml").read_bytes(), maintype="application", subtype="toml",
                           filename="game.toml")
    message.add_attachment((table.dir / "turns" / "000000.json").read_bytes(), maintype="application",
                           subtype="json", filename="000000.json")
    message.add_attachment((table.dir / "views" / "alice" / "latest.age").read_bytes(), maintype="application",
                           subtype="octet-stream", filename="alice-000000.age")
    message.add_attachment(move, maintype="application", subtype="json", filename="move.json")
    found = extract(received(message))
    assert [f.data for f in found.files] == [move]
    assert any("game.toml" in i for i in found.ignored)
    assert any("000000.json: a turn file the referee sent" in i for i in found.ignored)
    assert any("alice-000000.age: a sealed view" in i for i in found.ignored)


def test_an_html_only_mail_is_flagged_as_such():
    message = EmailMessage()
    message["From"] = "alice@pbem.test"
    message.set_content("<p>I choose <b>card 3</b></p>", subtype="html")
    found = extract(received(message))
    assert found.html_only and not found.files


def test_an_html_mail_with_the_move_attached_is_not_html_only(move):
    message = EmailMessage()
    message["From"] = "alice@pbem.test"
    message.set_content("<p>my move</p>", subtype="html")
    message.add_attachment(move, maintype="application", subtype="json", filename="move.json")
    found = extract(received(message))
    assert not found.html_only and [f.data for f in found.files] == [move]


def test_the_same_file_twice_in_one_mail_is_taken_once(move):
    message = mail("twice: " + move.decode())
    message.add_attachment(move, maintype="application", subtype="json", filename="move.json")
    found = extract(received(message))
    assert [f.data for f in found.files] == [move]


def test_a_cut_short_json_attachment_is_named_as_unreadable(move):
    message = mail()
    message.add_attachment(move[: len(move) // 2], maintype="application", subtype="json", filename="move.json")
    found = extract(received(message))
    assert not found.files
    assert found.problems == ["move.json: not a JSON document (cut short or changed on the way?)"]


def test_the_mail_identity_digest_does_not_depend_on_the_order_of_the_files(tmp_path, move):
    other = make_table(tmp_path / "other").move("bob", "1")
    first, second = mail(), mail()
    for message, files in ((first, (move, other)), (second, (other, move))):
        for data in files:
            message.add_attachment(data, maintype="application", subtype="json", filename="m.json")
    assert extract(received(first)).digest == extract(received(second)).digest


@pytest.mark.parametrize("header", [
    ("Auto-Submitted", "auto-replied"),
    ("Auto-Submitted", "auto-generated"),
    ("Precedence", "bulk"),
    ("From", "MAILER-DAEMON@mx.pbem.test"),
    ("List-Id", "<games.lists.pbem.test>"),
    ("List-Unsubscribe", "<mailto:leave@lists.pbem.test>"),
    ("X-Auto-Response-Suppress", "All"),
    ("X-Auto-Response-Suppress", "DR, AutoReply"),
    ("X-Autoreply", "yes"),
    ("Return-Path", "<>"),
    ("Content-Type", "multipart/report; report-type=delivery-status; boundary=x"),
])
def test_automatic_mails_are_recognised(header):
    message = mail()
    del message[header[0]]
    message[header[0]] = header[1]
    assert is_automatic(message)
    assert not is_automatic(mail())


def test_a_quoted_copy_of_a_move_in_a_reply_is_not_taken(move):
    quoted = "\n".join("> " + line for line in move.decode().splitlines())
    found = extract(received(mail("Did you mean this one?\n\n" + quoted + "\n")))
    assert not found.files


def test_a_part_nested_deeper_than_any_json_reader_goes_is_named_and_the_move_beside_it_is_found(move):
    """Anyone can mail the referee: a part the JSON reader cannot follow (RecursionError) must not stop
    the search, or the mail loop, whose every run would stop at the same mail."""
    message = mail()
    message.add_attachment(b'{"a":' + b"[" * 100_000, maintype="application", subtype="json", filename="deep.json")
    message.add_attachment(move, maintype="application", subtype="json", filename="move-000000-alice.json")
    found = extract(received(message))
    assert [f.data for f in found.files] == [move]
    assert found.problems == ["deep.json: not a JSON document (cut short or changed on the way?)"]


class CountingDecoder(json.JSONDecoder):
    """The decoder extract uses, counting the characters each attempt reads (to its end or its error)."""

    read = 0

    def raw_decode(self, s, idx=0):
        try:
            doc, end = super().raw_decode(s, idx)
        except json.JSONDecodeError as error:
            CountingDecoder.read += error.pos - idx
            raise
        CountingDecoder.read += end - idx
        return doc, end


def test_the_search_for_files_in_a_part_reads_it_a_few_times_at_most(monkeypatch):
    """Nested openings before a long unfinished document: each opening would be read to the end (the
    referee's time grows with the square of the part). The search reads a part a few times at most, says
    it gave up, and the mail is answered."""
    text = '{"a":' * 400 + "[" + "1," * 200_000
    monkeypatch.setattr(importlib.import_module("pbem.mail.extract"), "_DECODER", CountingDecoder())
    CountingDecoder.read = 0
    found = extract(received(mail(text)))
    assert not found.files and CountingDecoder.read <= 8 * len(text)
    assert found.problems == ["the mail's text: too much that looks like JSON and is not; not searched further"]


def test_one_mail_carries_at_most_a_few_files_so_that_a_stranger_cannot_make_the_referee_run_thousands_of_steps():
    """Anyone who knows a game id (it is in every turn mail's subject) can write a mail: 4 MiB of text
    holds some 60,000 small distinct documents, each one a referee step and a line of the answer. A
    mail's files beyond the first few are not read, and the answer says so."""
    text = "".join(json.dumps({"format": "pbem-move/1", "game_id": "0123456789abcdef", "n": n}) for n in range(40))
    found = extract(received(mail(text)))
    assert len(found.files) == MAX_FILES_PER_MAIL
    assert found.problems == [f"the mail carries more than {MAX_FILES_PER_MAIL} pbem files; the rest were not read"]
