"""Pure rules and aggregates of Stakes.

Nothing in this package performs I/O or imports from ``adapters``, ``api``,
``cli``, FastAPI, typer or psycopg (``tests/unit/test_layers.py`` checks it).
"""
