"""Everything that touches disk: the workspace jail, file access, applying, the journal,
session memory and settings."""
