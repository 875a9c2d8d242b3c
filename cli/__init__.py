"""The ``stakes`` command line: embedded on the local store, or a client of a server."""

import os

# pydantic looks for third-party plugins through every installed package's entry points at first use: a
# tenth of a remote command's start-up, for plugins Stakes never uses (issue 14: the CLI feels instant).
os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
