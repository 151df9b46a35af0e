"""Signed documents: Ed25519 over the canonical form without the signature."""

from __future__ import annotations

import base64
import copy
import json

import pytest

from pbem.crypto.canonical import canonical_json, parse_json_strict
from pbem.crypto.errors import SignatureError
from pbem.crypto.keys import generate
from pbem.crypto.signing import sign_document, signer_of, verify_document

ALICE, BOB = generate("alice"), generate("bob")
MOVE = {"format": "pbem-move/1", "game": "g1", "player": "alice", "choices": ["play:3"], "base": "sha256:00"}


def test_a_signed_document_verifies_with_its_signers_key():
    signed = sign_document(MOVE, ALICE)
    verify_document(signed, ALICE.public)
    assert signed["signature"]["alg"] == "ed25519"
    assert signed["signature"]["signer"] == ALICE.fingerprint == signer_of(signed)
    assert {k: v for k, v in signed.items() if k != "signature"} == MOVE
    assert "signature" not in MOVE  # the input is not changed


def test_the_signature_covers_the_canonical_form_so_layout_does_not_matter():
    signed = sign_document(MOVE, ALICE)
    reread = parse_json_strict(json.dumps(signed, indent=4, sort_keys=False).encode())
    verify_document(dict(reversed(list(reread.items()))), ALICE.public)
    value = base64.b64decode(signed["signature"]["value"])
    assert ALICE.public.verify(value, canonical_json(MOVE))


def test_a_signature_by_another_key_fails():
    forged = sign_document(MOVE, BOB)
    with pytest.raises(SignatureError, match="not by 'alice'"):
        verify_document(forged, ALICE.public)


def test_a_signature_claiming_another_signer_fails():
    forged = sign_document(MOVE, BOB)
    forged["signature"]["signer"] = ALICE.fingerprint
    with pytest.raises(SignatureError, match="altered"):
        verify_document(forged, ALICE.public)


@pytest.mark.parametrize(
    "tamper",
    [
        lambda d: d.update(choices=["play:4"]),
        lambda d: d.update(extra=None),
        lambda d: d.pop("base"),
        lambda d: d["choices"].append("pass"),
        lambda d: d.update(player="alice "),
    ],
)
def test_a_signature_over_a_changed_body_fails(tamper):
    signed = copy.deepcopy(sign_document(MOVE, ALICE))
    tamper(signed)
    with pytest.raises(SignatureError, match="altered"):
        verify_document(signed, ALICE.public)


def test_an_unsigned_document_fails():
    with pytest.raises(SignatureError, match="not signed"):
        verify_document(dict(MOVE), ALICE.public)
    with pytest.raises(SignatureError):
        signer_of(dict(MOVE))


@pytest.mark.parametrize(
    "signature",
    [
        "abc",
        {"alg": "ed25519", "signer": "x"},
        {"alg": "rsa", "signer": ALICE.fingerprint, "value": "AA=="},
        {"alg": "ed25519", "signer": ALICE.fingerprint, "value": "AA=="},
        {"alg": "ed25519", "signer": ALICE.fingerprint, "value": "!" * 88},
        {"alg": "ed25519", "signer": ALICE.fingerprint, "value": 7},
        {"alg": "ed25519", "signer": ALICE.fingerprint, "value": "A" * 88, "extra": 1},
    ],
)
def test_a_malformed_signature_fails(signature):
    doc = dict(MOVE, signature=signature)
    with pytest.raises(SignatureError):
        verify_document(doc, ALICE.public)


def test_a_signature_with_non_canonical_base64_fails():
    signed = sign_document(MOVE, ALICE)
    value = signed["signature"]["value"]
    # 64 bytes end in one byte, written as two base64 digits and "=="; the second
    # digit's low 4 bits are padding. Setting one changes the text but not the bytes.
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
    digit = alphabet.index(value[-3])
    assert digit & 0b1111 == 0
    signed["signature"]["value"] = value[:-3] + alphabet[digit | 1] + "=="
    assert base64.b64decode(signed["signature"]["value"]) == base64.b64decode(value)
    with pytest.raises(SignatureError, match="base64"):
        verify_document(signed, ALICE.public)


def test_resigning_replaces_the_old_signature():
    twice = sign_document(sign_document(MOVE, BOB), ALICE)
    verify_document(twice, ALICE.public)
