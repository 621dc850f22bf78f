"""Database backends of our own: PostgreSQL with a bound on every call (``postgresql``)."""
