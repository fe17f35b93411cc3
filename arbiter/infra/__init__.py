"""Serving and database plumbing under the domain apps: the WSGI bridge and request gate of
the web processes, plain-SQL rows for the hot path, and SQLite's WAL checkpointing."""
