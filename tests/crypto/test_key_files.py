"""Key pairs: generation, files, modes, OpenSSH keys and fingerprints."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from pbem.crypto import age
from pbem.crypto.errors import KeyFileError
from pbem.crypto.keys import (
    PrivateKey,
    PublicKey,
    fingerprint_of,
    generate,
    load_private_key,
    load_public_key,
    write_keypair,
    write_public_key,
)


@pytest.fixture
def ssh_key(tmp_path: Path) -> Path:
    path = tmp_path / "id_ed25519"
    subprocess.run(
        ["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "carol@example.org", "-f", str(path)],
        check=True,
        capture_output=True,
    )
    return path


def test_a_private_key_file_is_written_with_mode_0600(tmp_path):
    key_path, pub_path = write_keypair(generate("alice"), tmp_path)
    assert (key_path.name, pub_path.name) == ("alice.key", "alice.pub")
    assert os.stat(key_path).st_mode & 0o777 == 0o600
    assert os.stat(pub_path).st_mode & 0o777 == 0o644


def test_writing_never_overwrites_a_key_file(tmp_path):
    write_keypair(generate("alice"), tmp_path)
    before = (tmp_path / "alice.key").read_bytes()
    with pytest.raises(KeyFileError, match="already exists"):
        write_keypair(generate("alice"), tmp_path)
    assert (tmp_path / "alice.key").read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["alice.key", "alice.pub"]  # no temporary left


def test_writing_refuses_when_only_the_public_file_exists(tmp_path):
    (tmp_path / "bob.pub").write_text("{}")
    with pytest.raises(KeyFileError, match="already exists"):
        write_keypair(generate("bob"), tmp_path)
    assert not (tmp_path / "bob.key").exists()


def test_a_written_key_loads_back_to_the_same_keys(tmp_path):
    key = generate("alice")
    key_path, pub_path = write_keypair(key, tmp_path)
    loaded = load_private_key(key_path)
    assert loaded.public == key.public
    assert loaded.identity == key.identity
    assert load_public_key(pub_path) == key.public
    assert loaded.sign(b"move") == key.sign(b"move")  # Ed25519 is deterministic


def test_a_private_key_readable_by_others_is_refused(tmp_path):
    key_path, _ = write_keypair(generate("alice"), tmp_path)
    for mode in (0o644, 0o640, 0o604):
        key_path.chmod(mode)
        with pytest.raises(KeyFileError, match="chmod 600"):
            load_private_key(key_path)


def test_an_openssh_private_key_readable_by_others_is_refused(ssh_key):
    ssh_key.chmod(0o644)
    with pytest.raises(KeyFileError, match="chmod 600"):
        load_private_key(ssh_key)


def test_the_signing_and_encryption_keys_of_a_pbem_key_are_independent():
    key = generate("alice")
    assert age.X25519Identity.parse(key.identity).public != age.SshEd25519Recipient(key.public.ed25519).x25519_public
    assert key.public.recipient.startswith("age1")


def test_fingerprints_are_stable():
    # Pinned (checked with `sha256sum | xxd -r -p | base32`): it never changes across versions.
    assert fingerprint_of(bytes(32)) == "pbem:mzuhvlpymk6xo3ep"
    assert fingerprint_of(bytes(range(32))) == "pbem:mmg42klgyqzwneis"


def test_a_fingerprint_depends_only_on_the_signing_key():
    key = generate("alice")
    renamed = PublicKey("alicia", key.public.ed25519, key.public.recipient)
    assert renamed.fingerprint == key.public.fingerprint
    assert generate("alice").fingerprint != key.fingerprint


def test_an_openssh_private_key_is_loaded_with_the_name_from_its_comment(ssh_key):
    key = load_private_key(ssh_key)
    assert key.name == "carol"
    assert key.is_openssh
    assert key.public.recipient == " ".join(ssh_key.with_suffix(".pub").read_text().split()[:2])
    assert key.identity == ssh_key.read_text()  # what `age -i` reads
    assert load_private_key(ssh_key, name="c4").name == "c4"


def test_an_openssh_public_key_line_is_a_public_key(ssh_key):
    private = load_private_key(ssh_key)
    public = load_public_key(ssh_key.with_suffix(".pub"))
    assert public == private.public
    assert public.fingerprint == private.fingerprint
    assert public.is_openssh


def test_an_openssh_key_signs_with_the_same_ed25519_key(ssh_key):
    key = load_private_key(ssh_key)
    assert key.public.verify(key.sign(b"hello"), b"hello")


def test_an_openssh_key_writes_only_its_public_file(tmp_path, ssh_key):
    key = load_private_key(ssh_key)
    with pytest.raises(KeyFileError, match="OpenSSH"):
        write_keypair(key, tmp_path / "out")
    out = tmp_path / "out"
    out.mkdir()
    path = write_public_key(key.public, out)
    assert load_public_key(path) == key.public


def test_a_passphrase_protected_openssh_key_is_refused_with_a_reason(tmp_path):
    path = tmp_path / "id_locked"
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "secret", "-f", str(path)], check=True)
    with pytest.raises(KeyFileError, match=r"passphrase.*make a pbem key with `pbem keygen NAME`"):
        load_private_key(path)


def test_an_rsa_openssh_key_is_refused(tmp_path):
    path = tmp_path / "id_rsa"
    subprocess.run(["ssh-keygen", "-q", "-t", "rsa", "-b", "2048", "-N", "", "-f", str(path)], check=True)
    with pytest.raises(KeyFileError):
        load_private_key(path)
    with pytest.raises(KeyFileError, match="ssh-ed25519"):
        load_public_key(path.with_suffix(".pub"))


def test_a_public_key_file_with_a_wrong_fingerprint_is_refused(tmp_path):
    doc = generate("alice").public.to_json()
    doc["fingerprint"] = generate("mallory").fingerprint
    (tmp_path / "alice.pub").write_text(json.dumps(doc))
    with pytest.raises(KeyFileError, match="fingerprint"):
        load_public_key(tmp_path / "alice.pub")


@pytest.mark.parametrize(
    "change",
    [
        {"format": "pbem-public-key/2"},
        {"ed25519": "not base64!"},
        {"ed25519": "AAAA"},
        {"recipient": "age1notarecipient"},
        {"name": "../etc/passwd"},
        {"extra": 1},
    ],
)
def test_malformed_public_key_files_are_refused(tmp_path, change):
    doc = generate("alice").public.to_json() | change
    (tmp_path / "k.pub").write_text(json.dumps(doc))
    with pytest.raises(KeyFileError):
        load_public_key(tmp_path / "k.pub")


def test_an_ssh_recipient_must_be_the_signing_key():
    alice, bob = generate("alice"), generate("bob")
    from pbem.crypto.openssh import format_public_key

    with pytest.raises(KeyFileError):
        PublicKey("alice", alice.public.ed25519, format_public_key(bob.public.ed25519))


@pytest.mark.parametrize("text", ["", "{", "[]", '{"format": "pbem-private-key/9"}', "-----BEGIN OPENSSH PRIVATE KEY-----\nAAAA\n-----END OPENSSH PRIVATE KEY-----\n"])
def test_malformed_private_key_files_are_refused(tmp_path, text):
    path = tmp_path / "bad.key"
    path.write_text(text)
    path.chmod(0o600)
    with pytest.raises(KeyFileError):
        load_private_key(path)


def test_a_key_file_must_belong_to_the_name_asked_for(tmp_path):
    key_path, pub_path = write_keypair(generate("alice"), tmp_path)
    with pytest.raises(KeyFileError, match="belongs to 'alice'"):
        load_private_key(key_path, name="bob")
    with pytest.raises(KeyFileError, match="belongs to 'alice'"):
        load_public_key(pub_path, name="bob")
    assert load_private_key(key_path, name="alice").name == "alice"


@pytest.mark.parametrize("name", ["", "-x", "a b", "a/b", "é", "x" * 65, ".."])
def test_key_names_that_cannot_name_a_file_safely_are_refused(name):
    with pytest.raises(KeyFileError, match="not allowed"):
        generate(name)


def test_a_missing_key_file_is_a_key_file_error(tmp_path):
    with pytest.raises(KeyFileError, match="cannot read"):
        load_private_key(tmp_path / "nobody.key")
    with pytest.raises(KeyFileError, match="cannot read"):
        load_public_key(tmp_path / "nobody.pub")


def test_a_private_key_object_round_trips_through_its_json():
    key = generate("alice")
    assert PrivateKey.from_json(key.to_json()).public == key.public


def test_a_key_file_naming_a_field_twice_is_refused(tmp_path):
    doc = json.dumps(generate("alice").public.to_json())
    (tmp_path / "alice.pub").write_text(doc[:-1] + ', "name": "mallory"}')
    with pytest.raises(KeyFileError, match="duplicate"):
        load_public_key(tmp_path / "alice.pub")


def test_keys_are_written_where_hard_links_are_not_supported(tmp_path, monkeypatch):
    def no_links(source, target):
        raise PermissionError("operation not permitted")

    monkeypatch.setattr(os, "link", no_links)
    key_path, _pub_path = write_keypair(generate("alice"), tmp_path)
    assert os.stat(key_path).st_mode & 0o777 == 0o600
    assert load_private_key(key_path).name == "alice"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["alice.key", "alice.pub"]
    with pytest.raises(KeyFileError, match="already exists"):
        write_public_key(generate("alice").public, tmp_path)
