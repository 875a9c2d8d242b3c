"""The ``stakes`` command line: embedded on the local store, or a client of a server."""
