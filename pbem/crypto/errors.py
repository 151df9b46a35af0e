"""The errors of :mod:`pbem.crypto`, split by meaning.

Every error here is a :class:`CryptoError`; the CLI turns each kind into its
own message and exit code. Messages name what was refused and why.
"""


class CryptoError(Exception):
    """Base of every error raised by :mod:`pbem.crypto`."""


class MalformedError(CryptoError, ValueError):
    """A JSON document is not acceptable: too big, too deep, not UTF-8,
    duplicate keys, NaN, or a value that has no canonical form."""


class KeyFileError(CryptoError):
    """A key file is unreadable, malformed, of an unknown format, or unsafe
    (a private key readable by group or others)."""

    #: the command line's exit code and reason (the one error here with its own: the others
    #: are a damaged game file to the referee)
    exit_code = 7
    reason = "key-file"


class SignatureError(CryptoError):
    """A document's signature is missing, malformed, by the wrong signer, or
    does not verify."""


class AgeError(CryptoError):
    """An age file cannot be produced or opened."""


class AgeArmorError(AgeError):
    """The ASCII armor around an age file is malformed."""


class AgeHeaderError(AgeError):
    """The age header is malformed (or a stanza for a known recipient type is)."""


class AgeNoMatchError(AgeError):
    """No identity given can unwrap any recipient stanza of the file."""


class AgeHMACError(AgeError):
    """A file key was unwrapped but the header MAC does not match: the header was altered."""


class AgePayloadError(AgeError):
    """The encrypted payload is truncated, altered or has trailing data."""


class SealError(CryptoError):
    """A sealed section cannot be opened with this key, or does not hold JSON."""


class SealTooLarge(SealError):
    """A plaintext is larger than the largest pbem seals (and so opens): :data:`pbem.crypto.seal.MAX_SEALED_PLAINTEXT`."""
