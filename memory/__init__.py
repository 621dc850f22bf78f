"""The memory: one rewriting list of durable facts per account or guest (SPEC §2–§9)."""
