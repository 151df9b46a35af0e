"""A generated corpus of hostile mails: what anybody can send a referee's mailbox.

Each kind is a function of a random generator and the :class:`Scene` (the
referee's and the seats' addresses, the games' public files, a forged move)
that returns the bytes of one mail and its From address: headers the mail
library cannot parse, MIME structures nested or numbered beyond reason,
encodings and charsets that do not decode, sizes past the limits, automatic
mails and a robot's replies, forged From addresses, strangers naming a
seat, files whose members are anything but what they claim. The mails are
bytes, not messages built by the mail library, so that they can be as
broken as a sender likes. ``KINDS`` lists every kind, by name.
"""

from __future__ import annotations

import base64
import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field

CRLF = b"\r\n"


@dataclass
class Scene:
    """What a hostile sender may know or make: all public but the forged key."""

    referee: str
    seats: dict[str, str]
    strangers: list[str]
    #: the game ids served, and files anyone may hold (turn files, game.toml, applied moves)
    game_ids: list[str] = field(default_factory=list)
    public_files: list[bytes] = field(default_factory=list)
    #: a move signed by a key that is not the seat's (a stranger's key named after the seat)
    forged_moves: list[bytes] = field(default_factory=list)
    count: int = 0

    def message_id(self, rng: random.Random, kind: str) -> str:
        self.count += 1
        return f"<hostile.{self.count}.{kind}.{rng.getrandbits(32)}@elsewhere.test>"

    def seat(self, rng: random.Random) -> str:
        return rng.choice(sorted(self.seats.values()))

    def stranger(self, rng: random.Random) -> str:
        return rng.choice(self.strangers)


Kind = Callable[[random.Random, Scene], tuple[bytes, str]]


def mail(headers: list[tuple[str, str | bytes]], body: bytes, eol: bytes = CRLF) -> bytes:
    """A mail of these header lines (``NAME: VALUE`` as given, folded or not) and body, as bytes."""
    lines = [name.encode() + b": " + (value if isinstance(value, bytes) else value.encode("utf-8", "surrogatepass"))
             for name, value in headers]
    return eol.join(lines) + eol + eol + body


def plain(scene: Scene, rng: random.Random, kind: str, sender: str, *extra: tuple[str, str | bytes],
          body: bytes = b"hello", subject: str = "a mail") -> bytes:
    """A plain mail with a fresh Message-ID and ``extra`` headers."""
    headers: list[tuple[str, str | bytes]] = [("From", sender), ("To", scene.referee), ("Subject", subject),
                                              ("Message-ID", scene.message_id(rng, kind)), *extra]
    return mail(headers, body)


def attached(name: str, data: bytes, content_type: str = "application/json", encoding: str = "base64") -> bytes:
    """One attachment part (headers and body) of a multipart/mixed with boundary ``b``."""
    payload = base64.encodebytes(data) if encoding == "base64" else data
    return (b"--b\r\nContent-Type: " + content_type.encode() + b'; name="x"\r\nContent-Disposition: attachment; '
            b"filename=\"" + name.encode("utf-8", "surrogatepass") + b"\"\r\nContent-Transfer-Encoding: "
            + encoding.encode() + b"\r\n\r\n" + payload + b"\r\n")


def multipart(scene: Scene, rng: random.Random, kind: str, sender: str, parts: list[bytes],
              subject: str = "files") -> bytes:
    body = b"".join(parts) + b"--b--\r\n"
    return plain(scene, rng, kind, sender, ("MIME-Version", "1.0"), ("Content-Type", 'multipart/mixed; boundary="b"'),
                 body=body, subject=subject)


def junk(rng: random.Random, size: int) -> bytes:
    return bytes(rng.getrandbits(8) for _ in range(size))


# --- headers -------------------------------------------------------------------------------------


def message_id_lone_bracket(rng: random.Random, scene: Scene) -> tuple[bytes, str]:
    who = rng.choice([scene.seat(rng), scene.stranger(rng)])
    return mail([("From", who), ("To", scene.referee), ("Subject", "hi"), ("Message-ID", "<")], b"hello"), who


def message_id_garbage(rng: random.Random, scene: Scene) -> tuple[bytes, str]:
    who = scene.seat(rng)
    value = rng.choice(["<<@>>", "<a b@c>", "<@>", ">x<", "<" * 50, "<x@y> <z@w>", "\x7f<\x01@\x02>", "<" + "a" * 5000 + ">"])
    return mail([("From", who), ("To", scene.referee), ("Subject", "hi"), ("Message-ID", value)], b"hi"), who


def no_from(rng: random.Random, scene: Scene) -> tuple[bytes, str]:
    return mail([("To", scene.referee), ("Subject", "who?"), ("Message-ID", scene.message_id(rng, "no-from"))],
                b"nobody"), ""


def from_garbage(rng: random.Random, scene: Scene) -> tuple[bytes, str]:
    value = rng.choice([",,,<<@>> <@", "=?utf-8?b?!!!?= <" + scene.seat(rng) + ">", '"unclosed <a@b', "(((",
                        "a@b@c", "<>", "@", scene.seat(rng) + " <" + scene.stranger(rng) + ">, " * 30,
                        "\u202e" + scene.seat(rng), "x" * 5000 + "@elsewhere.test"])
    return plain(scene, rng, "from-garbage", value), ""


def subject_encoded_broken(rng: random.Random, scene: Scene) -> tuple[bytes, str]:
    who = scene.seat(rng)
    subject = rng.choice(["=?x-unknown?q?hi?=", "=?utf-8?b?####?=", "=?idna?q?=FF=FE?=", "=?unicode_escape?q?\\ud800?=",
                          "=?utf-8?q?=1B[2J=E2=80=AEevil?=", "=?" * 500])
    return plain(scene, rng, "subject", who, subject=subject), who


def subject_huge(rng: random.Random, scene: Scene) -> tuple[bytes, str]:
    who = scene.seat(rng)
    return plain(scene, rng, "subject-huge", who, subject="S" * rng.randint(1000, 20000)), who


def header_8bit(rng: random.Random, scene: Scene) -> tuple[bytes, str]:
    who = scene.seat(rng)
    return mail([("From", b"\xff\xfe " + who.encode()), ("To", scene.referee), ("Subject", junk(rng, 40).replace(b"\n", b"")
                 .replace(b"\r", b"")), ("Message-ID", scene.message_id(rng, "8bit"))], junk(rng, 200)), ""


def many_headers(rng: random.Random, scene: Scene) -> tuple[bytes, str]:
    who = scene.seat(rng)
    extra = [(f"X-Filler-{i}", "v" * rng.randint(1, 50)) for i in range(rng.randint(500, 3000))]
    return plain(scene, rng, "many-headers", who, *extra), who


def folded_only(rng: random.Random, scene: Scene) -> tuple[bytes, str]:
    return b"   continued\r\n\tmore\r\nFrom: " + scene.seat(rng).encode() + b"\r\n\r\nbody", ""


def no_header_block(rng: random.Random, scene: Scene) -> tuple[bytes, str]:
    return junk(rng, rng.randint(0, 300)), ""


def references_flood(rng: random.Random, scene: Scene) -> tuple[bytes, str]:
    who = scene.seat(rng)
    references = " ".join(f"<r{i}@x>" for i in range(rng.randint(1000, 5000)))
    return plain(scene, rng, "references", who, ("References", references), ("In-Reply-To", "<" * 20)), who


# --- MIME structure --------------------------------------------------------------------------------


def multipart_deep(rng: random.Random, scene: Scene) -> tuple[bytes, str]:
    who = rng.choice([scene.seat(rng), scene.stranger(rng)])
    depth = rng.choice([65, 200, 1000, 3000])
    opening = b"".join(f'Content-Type: multipart/mixed; boundary="b{i}"\r\n\r\n--b{i}\r\n'.encode() for i in range(depth))
    head = f"From: {who}\r\nTo: {scene.referee}\r\nSubject: deep\r\nMessage-ID: {scene.message_id(rng, 'deep')}\r\n"
    return head.encode() + b"MIME-Version: 1.0\r\n" + opening + b"Content-Type: text/plain\r\n\r\nhello\r\n", who


def multipart_deep_folded(rng: random.Random, scene: Scene) -> tuple[bytes, str]:
    """Nested as deep, the Content-Type headers folded (a count of plain header lines must not miss them)."""
    who = scene.seat(rng)
    depth = rng.choice([100, 3000])
    opening = b"".join(f'Content-Type:\r\n multipart/mixed;\r\n boundary="b{i}"\r\n\r\n--b{i}\r\n'.encode()
                       for i in range(depth))
    return (f"From: {who}\r\nSubject: deep\r\nMIME-Version: 1.0\r\n".encode() + opening
            + b"Content-Type: text/plain\r\n\r\nhello\r\n"), who


def forwarded_deep(rng: random.Random, scene: Scene) -> tuple[bytes, str]:
    who = scene.seat(rng)
    inner = b"From: x@y\r\nSubject: bottom\r\n\r\nhello"
    for _ in range(rng.choice([30, 70, 300])):
        inner = b"From: x@y\r\nContent-Type: message/rfc822\r\n\r\n" + inner
    return plain(scene, rng, "forwarded", who, ("MIME-Version", "1.0"), ("Content-Type", "message/rfc822"),
                 body=inner), who


def many_parts(rng: random.Random, scene: Scene) -> tuple[bytes, str]:
    who = scene.seat(rng)
    parts = [b"--b\r\nContent-Type: text/plain\r\n\r\n{\"a\": " + str(i).encode() + b"}\r\n"
             for i in range(rng.randint(257, 1500))]
    return multipart(scene, rng, "many-parts", who, parts), who


def multipart_broken(rng: random.Random, scene: Scene) -> tuple[bytes, str]:
    who = scene.seat(rng)
    content_type, body = rng.choice([
        ('multipart/mixed; boundary=""', b"--\r\n\r\nx\r\n----\r\n"),
        ("multipart/mixed", b"no boundary at all"),
        ('multipart/mixed; boundary="b"', b"--b\r\nContent-Type: text/plain\r\n\r\nnever closed"),
        ('multipart/mixed; boundary="b"', b""),
        (";;;===;", b"x"),
        ("message/rfc822", b""),
        ("message/rfc822", b"\r\n\r\n\r\n"),
        ('multipart/alternative; boundary="b"; boundary="c"', b"--c\r\n\r\n--b--\r\n--c--"),
        ("text/plain; charset=" + "x" * 3000, b"body"),
    ])
    return plain(scene, rng, "multipart-broken", who, ("MIME-Version", "1.0"), ("Content-Type", content_type),
                 body=body), who


# --- encodings and charsets ------------------------------------------------------------------------------


def charset_hostile(rng: random.Random, scene: Scene) -> tuple[bytes, str]:
    who = scene.seat(rng)
    charset, body = rng.choice([
        ("x-nope", b"hello"),
        ("unicode_escape", b'\\ud800 {"format": "pbem-move/1", "player": "\\ud800"}'),
        ("idna", b"\xff\xfe\x00 hello"),
        ("utf-16", junk(rng, 101)),
        ("base64_codec", b"aGVsbG8="),
        ("rot13", b"uryyb"),
        ("punycode", b"\x80\x81"),
        ("utf-7", b"+ZZZ- {"),
    ])
    return plain(scene, rng, "charset", who, ("MIME-Version", "1.0"),
                 ("Content-Type", f'text/plain; charset="{charset}"'), body=body), who


def rfc2231_hostile(rng: random.Random, scene: Scene) -> tuple[bytes, str]:
    who = scene.seat(rng)
    disposition = rng.choice([
        "attachment; filename*0*=x-unknown''%ZZ%; filename*1*=%FF",
        "attachment; filename*=idna''%FF%FE.json",
        "attachment; filename*=unicode_escape''%5Cud800.json",
        "attachment; filename*=utf-8''%E2%80%AEnosj.exe",
        "attachment; filename*0=a; filename*5=b; filename*99999=c",
        "attachment; filename=" + "\"" * 3,
    ])
    part = (b"--b\r\nContent-Type: application/json\r\nContent-Disposition: " + disposition.encode()
            + b"\r\n\r\n{\"format\": \"pbem-move/1\"}\r\n")
    return multipart(scene, rng, "rfc2231", who, [part]), who


def transfer_encoding_broken(rng: random.Random, scene: Scene) -> tuple[bytes, str]:
    who = scene.seat(rng)
    encoding, payload = rng.choice([
        ("base64", b"!!!!not base64 at all===="),
        ("base64", base64.encodebytes(b'{"format": "pbem-move/1"}')[:-5]),
        ("quoted-printable", b"=ZZ=\r\n=Q" + b"=" * 100),
        ("x-uuencode", b"begin 644 x\r\nM!!!!\r\nend"),
        ("x-uuencode", b"begin 644 x\r\n" + junk(rng, 80).replace(b"\n", b"") + b"\r\nend"),
        ("8bit", junk(rng, 300).replace(b"\r", b"").replace(b"\n", b"")),
        ("binary", junk(rng, 300)),
        ("gzip", b"\x1f\x8b"),
    ])
    part = (b"--b\r\nContent-Type: application/json\r\nContent-Disposition: attachment; filename=\"m.json\"\r\n"
            b"Content-Transfer-Encoding: " + encoding.encode() + b"\r\n\r\n" + payload + b"\r\n")
    return multipart(scene, rng, "encoding", who, [part]), who


def bare_line_ends(rng: random.Random, scene: Scene) -> tuple[bytes, str]:
    who = scene.seat(rng)
    raw = plain(scene, rng, "line-ends", who, body=b"a\rb\nc\r\r\n\n\r")
    return raw.replace(b"\r\n", rng.choice([b"\n", b"\r", b"\n\r"])), who


def utf16_text(rng: random.Random, scene: Scene) -> tuple[bytes, str]:
    who = scene.seat(rng)
    text = '\ufeff{"format": "pbem-move/1", "game_id": "0000000000000000"}'.encode("utf-16-le")
    return plain(scene, rng, "utf16", who, ("MIME-Version", "1.0"), ("Content-Type", "text/plain; charset=utf-16"),
                 ("Content-Transfer-Encoding", "base64"), body=base64.encodebytes(text)), who


def flowed_hostile(rng: random.Random, scene: Scene) -> tuple[bytes, str]:
    who = scene.seat(rng)
    body = b" \r\n" * rng.randint(1, 5000) + b"{ \r\n\"format\": \r\n"
    return plain(scene, rng, "flowed", who, ("MIME-Version", "1.0"),
                 ("Content-Type", "text/plain; format=flowed; delsp=yes"), body=body), who


# --- sizes -----------------------------------------------------------------------------------------------


def too_large(rng: random.Random, scene: Scene) -> tuple[bytes, str]:
    """Larger than the referee reads (the test sets the limit low, so that this costs little)."""
    who = scene.seat(rng)
    return plain(scene, rng, "large", who, body=(b"x" * 998 + CRLF) * rng.randint(2200, 2600)), who


def long_line(rng: random.Random, scene: Scene) -> tuple[bytes, str]:
    who = scene.seat(rng)
    return plain(scene, rng, "long-line", who, body=b"y" * rng.randint(10_000, 200_000)), who


def json_bomb(rng: random.Random, scene: Scene) -> tuple[bytes, str]:
    who = scene.seat(rng)
    bomb = rng.choice([b'{"a":' + b"[" * 100_000, b"{" * 50_000, b'{"format":"pbem-move/1","x":' + b"[" * 5000 + b"]" * 5000
                       + b"}", b'{"a": 1' + b', "a": 1' * 20_000 + b"}", b"1" * 5000])
    return multipart(scene, rng, "bomb", who, [attached("bomb.json", bomb)]), who


def many_pbem_files(rng: random.Random, scene: Scene) -> tuple[bytes, str]:
    who = scene.seat(rng)
    docs = [json.dumps({"format": "pbem-move/1", "game_id": rng.choice(scene.game_ids), "player": "alice",
                        "turn": i, "n": rng.random()}).encode() for i in range(rng.randint(17, 60))]
    return multipart(scene, rng, "many-files", who, [attached(f"m{i}.json", d) for i, d in enumerate(docs)]), who


def odd_file_members(rng: random.Random, scene: Scene) -> tuple[bytes, str]:
    who = scene.seat(rng)
    doc = rng.choice([
        '{"format": "pbem-move/1", "player": "\\ud800", "game_id": "\\udfff", "turn": 1}',
        '{"format": "pbem-move/1", "player": "' + "p" * 3000 + '", "game_id": "' + "g" * 3000 + '"}',
        '{"format": "pbem-' + "x" * 3000 + '"}',
        '{"format": "pbem-join/3", "round": "\\u001b[2J\\u202e", "player": "\\u0000"}',
        '{"format": "pbem-move/1", "turn": ' + "9" * 4000 + "}",
        '{"format": "pbem-move/1", "turn": 1e400, "game_id": ' + json.dumps(rng.choice(scene.game_ids)) + "}",
        '{"format": "pbem-move/1", "game_id": ' + json.dumps(rng.choice(scene.game_ids)) + ', "player": "alice", '
        '"turn": -1, "base": null, "sealed_choices": [], "signature": {}}',
    ])
    return multipart(scene, rng, "odd-members", who, [attached("m.json", doc.encode())]), who


def long_file_name(rng: random.Random, scene: Scene) -> tuple[bytes, str]:
    """From a seat, so that it is answered: a file name of thousands of characters, controls among them."""
    who = scene.seat(rng)
    name = "m" * rng.randint(1000, 5000) + rng.choice(["", "\x1b[2J", "\u202e", "\r\n"]) + ".json"
    data = rng.choice(scene.public_files) if scene.public_files else b"{}"
    return multipart(scene, rng, "long-name", who, [attached(name.replace("\r\n", ""), data)]), who


# --- automatic mails ---------------------------------------------------------------------------------------


def automatic(rng: random.Random, scene: Scene) -> tuple[bytes, str]:
    who = scene.seat(rng)
    extra = rng.choice([("Auto-Submitted", "auto-replied"), ("Auto-Submitted", "auto-generated; x"),
                        ("Precedence", "bulk"), ("Precedence", "junk"), ("List-Id", "<games.lists.example>"),
                        ("X-Auto-Response-Suppress", "All"), ("X-Autoreply", "yes"), ("Return-Path", "<>")])
    return plain(scene, rng, "automatic", who, extra, subject="Out of office"), who


def bounce(rng: random.Random, scene: Scene) -> tuple[bytes, str]:
    who = rng.choice(["MAILER-DAEMON@elsewhere.test", "postmaster@elsewhere.test"])
    body = b'--r\r\nContent-Type: text/plain\r\n\r\nundeliverable\r\n--r\r\nContent-Type: message/delivery-status\r\n\r\nx\r\n--r--'
    return plain(scene, rng, "bounce", who, ("MIME-Version", "1.0"),
                 ("Content-Type", 'multipart/report; report-type=delivery-status; boundary="r"'), body=body), who


# --- forged From, strangers --------------------------------------------------------------------------------


def stranger_forged_move(rng: random.Random, scene: Scene) -> tuple[bytes, str]:
    """A stranger's mail with a move signed by a key named after a seat: the seat must not hear of it."""
    who = scene.stranger(rng)
    forged = rng.choice(scene.forged_moves)
    return multipart(scene, rng, "forged", who, [attached("move.json", forged)],
                     subject=rng.choice(["\x1b[2J pay now", "Re: your order", "=?utf-8?q?=E2=80=AE?="])), who


def stranger_replays(rng: random.Random, scene: Scene) -> tuple[bytes, str]:
    who = scene.stranger(rng)
    files = rng.sample(scene.public_files, min(len(scene.public_files), rng.randint(1, 4)))
    return multipart(scene, rng, "replay", who, [attached(f"f{i}.json", f) for i, f in enumerate(files)]), who


def seat_address_forged(rng: random.Random, scene: Scene) -> tuple[bytes, str]:
    """Anybody may write a seat's address as From: the seat is answered (within its limit), nobody else."""
    who = scene.seat(rng)
    return multipart(scene, rng, "seat-forged", who, [attached("move.json", rng.choice(scene.forged_moves))]), who


def referee_own_address(rng: random.Random, scene: Scene) -> tuple[bytes, str]:
    return plain(scene, rng, "own", scene.referee, subject="a loop?"), scene.referee


def html_only(rng: random.Random, scene: Scene) -> tuple[bytes, str]:
    who = rng.choice([scene.seat(rng), scene.stranger(rng)])
    return plain(scene, rng, "html", who, ("MIME-Version", "1.0"), ("Content-Type", "text/html"),
                 body=b"<p>I play <b>card 2</b>" + b"<div>" * 5000), who


#: every kind of hostile mail, by name
KINDS: dict[str, Kind] = {
    "message-id-lone-bracket": message_id_lone_bracket,
    "message-id-garbage": message_id_garbage,
    "no-from": no_from,
    "from-garbage": from_garbage,
    "subject-encoded-broken": subject_encoded_broken,
    "subject-huge": subject_huge,
    "header-8bit": header_8bit,
    "many-headers": many_headers,
    "folded-only": folded_only,
    "no-header-block": no_header_block,
    "references-flood": references_flood,
    "multipart-deep": multipart_deep,
    "multipart-deep-folded": multipart_deep_folded,
    "forwarded-deep": forwarded_deep,
    "many-parts": many_parts,
    "multipart-broken": multipart_broken,
    "charset-hostile": charset_hostile,
    "rfc2231-hostile": rfc2231_hostile,
    "transfer-encoding-broken": transfer_encoding_broken,
    "bare-line-ends": bare_line_ends,
    "utf16-text": utf16_text,
    "flowed-hostile": flowed_hostile,
    "too-large": too_large,
    "long-line": long_line,
    "json-bomb": json_bomb,
    "many-pbem-files": many_pbem_files,
    "odd-file-members": odd_file_members,
    "long-file-name": long_file_name,
    "automatic": automatic,
    "bounce": bounce,
    "stranger-forged-move": stranger_forged_move,
    "stranger-replays": stranger_replays,
    "seat-address-forged": seat_address_forged,
    "referee-own-address": referee_own_address,
    "html-only": html_only,
}


def kind_order(rng: random.Random, count: int) -> list[str]:
    """The kinds of ``count`` hostile mails: every kind once (when ``count`` allows), the rest at random,
    in a random order."""
    names = list(KINDS)
    order = names[:count] + [rng.choice(names) for _ in range(count - len(names))]
    rng.shuffle(order)
    return order


def hostile_mail(rng: random.Random, scene: Scene, kind: str) -> tuple[bytes, str]:
    """One hostile mail of ``kind``: its bytes and its From address ('' when it has none that is one)."""
    return KINDS[kind](rng, scene)
