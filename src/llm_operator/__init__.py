"""LLM Operator: file operations for a web LLM chat, with a human in the loop."""

__version__ = "0.3.0"
