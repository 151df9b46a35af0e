"""Key files: private keys are written 0600, refused when others may read them, and never leak."""

from __future__ import annotations

import base64
import json
import os
import stat
from pathlib import Path

import pytest
from helpers_trust import joined_table
from typer.testing import CliRunner

from pbem.cli.main import app
from pbem.crypto import age
from pbem.crypto.errors import KeyFileError
from pbem.crypto.keys import load_private_key
from pbem.referee import run_demo


def test_keygen_writes_the_private_key_0600(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["keygen", "alice", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert stat.S_IMODE((tmp_path / "alice.key").stat().st_mode) == 0o600
    assert stat.S_IMODE((tmp_path / "alice.pub").stat().st_mode) & 0o077 != 0o077  # the public half is shareable


@pytest.mark.parametrize("mode", [0o640, 0o604, 0o644, 0o660, 0o666])
def test_a_private_key_that_others_may_read_is_refused(tmp_path: Path, mode: int) -> None:
    CliRunner().invoke(app, ["keygen", "alice", "--out", str(tmp_path)])
    key = tmp_path / "alice.key"
    os.chmod(key, mode)
    with pytest.raises(KeyFileError, match="600"):
        load_private_key(key, name="alice")


def test_the_command_line_refuses_a_readable_private_key_with_exit_code_7(tmp_path: Path) -> None:
    table = joined_table(tmp_path)
    os.chmod(table.key_files["alice"], 0o644)
    result = CliRunner().invoke(app, ["view", str(table.dir), "--as", "alice", "--key", str(table.key_files["alice"])])
    assert result.exit_code == 7


def secret_forms(key_file: Path) -> dict[str, bytes]:
    """Every form in which a key file's secrets could leak: raw, base64, hex, bech32."""
    doc = json.loads(key_file.read_text())
    raw = {"ed25519": base64.b64decode(doc["ed25519"]), "x25519": age.X25519Identity.parse(doc["x25519"]).secret}
    forms: dict[str, bytes] = {}
    for name, value in raw.items():
        forms[f"{name} raw"] = value
        forms[f"{name} hex"] = value.hex().encode()
        forms[f"{name} HEX"] = value.hex().upper().encode()
        forms[f"{name} base64"] = base64.b64encode(value).rstrip(b"=")
        forms[f"{name} base64url"] = base64.urlsafe_b64encode(value).rstrip(b"=")
    forms["x25519 bech32"] = doc["x25519"].encode()
    forms["x25519 bech32 lower"] = doc["x25519"].lower().encode()
    return forms


def test_no_private_key_appears_in_any_file_pbem_writes(tmp_path: Path) -> None:
    """A whole demo game (joins, moves, turns, views, outbox): no player's or referee's secret in any form."""
    report = run_demo(tmp_path, "highcard")
    written = [p for p in tmp_path.rglob("*") if p.is_file() and p.parent.name != "keys"]
    written += [p for p in (tmp_path / "keys").iterdir() if p.suffix == ".pub"]
    assert len(written) > 20 and report.verified.replayed
    for key_file in sorted((tmp_path / "keys").glob("*.key")):
        for form, needle in secret_forms(key_file).items():
            for path in written:
                assert needle not in path.read_bytes(), f"{key_file.stem}'s {form} appears in {path}"
