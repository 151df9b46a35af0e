"""pbem: a referee for asynchronous hidden-information card games by e-mail, folder or git."""

__version__ = "0.1.0"
