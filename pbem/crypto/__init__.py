"""Keys, canonical JSON, signatures and sealing (age v1) for pbem.

Used by the referee and the CLI only; games never see it. See docs/crypto.md.
"""

from typing import TYPE_CHECKING

from pbem.lazy import lazy_package

#: each public name and the module that defines it, imported when first used
_WHERE = {
    "canonical_json": "canonical", "document_hash": "canonical", "parse_json_strict": "canonical",
    "AgeError": "errors", "CryptoError": "errors", "KeyFileError": "errors", "MalformedError": "errors",
    "SealError": "errors", "SignatureError": "errors",
    "PrivateKey": "keys", "PublicKey": "keys", "generate": "keys", "load_private_key": "keys",
    "load_public_key": "keys", "write_keypair": "keys", "write_public_key": "keys",
    "open_sealed": "seal", "seal": "seal",
    "sign_document": "signing", "signer_of": "signing", "verify_document": "signing",
}

if TYPE_CHECKING:  # pragma: no cover
    from pbem.crypto.canonical import canonical_json, document_hash, parse_json_strict
    from pbem.crypto.errors import AgeError, CryptoError, KeyFileError, MalformedError, SealError, SignatureError
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


lazy_package(__name__, _WHERE)

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
