"""Text in, values out: the scanner, the validator, the encoder and result parts (pure)."""
