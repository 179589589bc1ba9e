"""Text to text, never touching disk: patches, edits, diffs, regions and structures."""
