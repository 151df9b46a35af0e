"""The key file formats match their JSON Schemas (schemas/key.schema.json, schemas/pubkey.schema.json)."""

from __future__ import annotations

import json
import subprocess

import jsonschema
import pytest

from pbem.crypto.keys import generate, load_private_key, write_keypair
from pbem.resources import schema_path


def validator(name: str) -> jsonschema.Draft202012Validator:
    schema = json.loads(schema_path(name).read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def test_written_key_files_match_their_schemas(tmp_path):
    key_path, pub_path = write_keypair(generate("alice"), tmp_path)
    validator("key").validate(json.loads(key_path.read_text()))
    validator("pubkey").validate(json.loads(pub_path.read_text()))


def test_an_openssh_public_key_matches_the_pubkey_schema(tmp_path):
    path = tmp_path / "id_ed25519"
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "erin", "-f", str(path)], check=True)
    validator("pubkey").validate(load_private_key(path).public.to_json())


@pytest.mark.parametrize("field", ["format", "name", "ed25519", "recipient", "fingerprint"])
def test_the_pubkey_schema_rejects_a_broken_field(field):
    doc = generate("alice").public.to_json()
    doc[field] = doc[field] + "!"
    assert not validator("pubkey").is_valid(doc)


def test_the_key_schema_rejects_unknown_fields():
    doc = generate("alice").to_json() | {"comment": "x"}
    assert not validator("key").is_valid(doc)
