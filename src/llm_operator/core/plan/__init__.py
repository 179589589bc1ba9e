"""The session: pending writes, previews and decisions, all data."""
