"""Interoperability with the stock ``age`` command (https://age-encryption.org).

A player must be able to open their own sealed section with ``age -d``, with a
pbem key's identity or with their OpenSSH key, and what ``age`` encrypts
must open here.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from pbem.crypto import age, generate, load_private_key, open_sealed, seal
from pbem.crypto.keys import PrivateKey

pytestmark = pytest.mark.age_interop

# Sizes around the 64 KiB STREAM chunk and the 48-byte armor line.
SIZES = [0, 1, 47, 48, 65536, 65537, 3 * 65536]


def run_age(age_binary: str, *args: str, stdin: bytes = b"") -> bytes:
    done = subprocess.run([age_binary, *args], input=stdin, capture_output=True, check=False)
    assert done.returncode == 0, done.stderr.decode()
    return done.stdout


@pytest.fixture
def ssh_key(tmp_path: Path) -> Path:
    path = tmp_path / "id_ed25519"
    subprocess.run(
        ["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "carol@example", "-f", str(path)],
        check=True,
        capture_output=True,
    )
    return path


def identity_file(tmp_path: Path, key: PrivateKey) -> Path:
    path = tmp_path / f"{key.name}.identity"
    path.write_text(key.identity + "\n")
    path.chmod(0o600)
    return path


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("armor", [True, False], ids=["armored", "binary"])
def test_age_opens_what_we_encrypt_to_an_x25519_recipient(age_binary, tmp_path, size, armor):
    key = generate("alice")
    plaintext = os.urandom(size)
    sealed = tmp_path / "file.age"
    sealed.write_bytes(age.encrypt(plaintext, [key.public.recipient], armor=armor))
    assert run_age(age_binary, "-d", "-i", str(identity_file(tmp_path, key)), str(sealed)) == plaintext


@pytest.mark.parametrize("size", SIZES)
def test_we_open_what_age_encrypts_to_an_x25519_recipient(age_binary, tmp_path, size):
    key = generate("alice")
    plaintext = os.urandom(size)
    for flags in ([], ["-a"]):
        ciphertext = run_age(age_binary, "-r", key.public.recipient, *flags, stdin=plaintext)
        assert age.decrypt(ciphertext, [key]) == plaintext


def test_age_keygen_identity_is_accepted_here(age_binary, tmp_path):
    keygen = Path(age_binary).with_name("age-keygen")
    if not keygen.exists():
        pytest.skip("age-keygen is not installed beside age")
    out = subprocess.run([str(keygen)], capture_output=True, check=True).stdout.decode()
    identity = next(line for line in out.splitlines() if line.startswith("AGE-SECRET-KEY-1"))
    recipient = age.X25519Identity.parse(identity).recipient
    ciphertext = run_age(age_binary, "-r", str(recipient), stdin=b"from age-keygen")
    assert age.decrypt(ciphertext, [identity]) == b"from age-keygen"


@pytest.mark.parametrize("size", [0, 100, 65536 + 5])
def test_age_opens_what_we_encrypt_to_an_openssh_key(age_binary, tmp_path, ssh_key, size):
    key = load_private_key(ssh_key)
    plaintext = os.urandom(size)
    sealed = tmp_path / "file.age"
    sealed.write_bytes(age.encrypt(plaintext, [key.public.recipient]))
    assert run_age(age_binary, "-d", "-i", str(ssh_key), str(sealed)) == plaintext


def test_our_ssh_recipient_is_the_one_age_reads_from_the_pub_file(age_binary, tmp_path, ssh_key):
    ciphertext = run_age(age_binary, "-R", str(ssh_key) + ".pub", stdin=b"to carol")
    assert age.decrypt(ciphertext, [load_private_key(ssh_key)]) == b"to carol"


def test_a_player_opens_their_sealed_section_with_age(age_binary, tmp_path, ssh_key):
    alice, carol = generate("alice"), load_private_key(ssh_key)
    text = seal({"hand": ["Ghoul", "Vampire"]}, [alice.public, carol.public])
    section = tmp_path / "section.age"
    section.write_text(text)
    expected = b'{"hand":["Ghoul","Vampire"]}'
    assert run_age(age_binary, "-d", "-i", str(identity_file(tmp_path, alice)), str(section)) == expected
    assert run_age(age_binary, "-d", "-i", str(ssh_key), str(section)) == expected
    assert open_sealed(text, carol) == {"hand": ["Ghoul", "Vampire"]}


def test_age_refuses_a_section_sealed_to_someone_else(age_binary, tmp_path):
    alice, bob = generate("alice"), generate("bob")
    section = tmp_path / "section.age"
    section.write_text(seal({"secret": 1}, [alice.public]))
    done = subprocess.run(
        [age_binary, "-d", "-i", str(identity_file(tmp_path, bob)), str(section)], capture_output=True
    )
    assert done.returncode != 0


def test_our_recipient_of_an_identity_is_the_one_age_keygen_derives(age_binary, tmp_path):
    keygen = Path(age_binary).with_name("age-keygen")
    if not keygen.exists():
        pytest.skip("age-keygen is not installed beside age")
    key = generate("alice")
    path = identity_file(tmp_path, key)
    derived = subprocess.run([str(keygen), "-y", str(path)], capture_output=True, check=True).stdout.decode().strip()
    assert derived == key.public.recipient
