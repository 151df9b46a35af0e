"""Keys, canonical JSON, signatures and sealing (age v1) for pbem.

Used by the referee and the CLI only; games never see it. See docs/crypto.md.
"""

from pbem.crypto.canonical import canonical_json, document_hash, parse_json_strict
from pbem.crypto.errors import (
    AgeError,
    CryptoError,
    KeyFileError,
    MalformedError,
    SealError,
    SignatureError,
)
from pbem.crypto.keys import (
    PrivateKey,
    PublicKey,
    generate,
    load_private_key,
    load_public_key,
    write_keypair,
    write_public_key,
)
from pbem.crypto.seal import open_sealed, seal
from pbem.crypto.signing import sign_document, signer_of, verify_document

__all__ = [
    "AgeError",
    "CryptoError",
    "KeyFileError",
    "MalformedError",
    "PrivateKey",
    "PublicKey",
    "SealError",
    "SignatureError",
    "canonical_json",
    "document_hash",
    "generate",
    "load_private_key",
    "load_public_key",
    "open_sealed",
    "parse_json_strict",
    "seal",
    "sign_document",
    "signer_of",
    "verify_document",
    "write_keypair",
    "write_public_key",
]
