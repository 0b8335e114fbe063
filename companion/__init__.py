"""companion: rules engine and application for the ancient race games."""

__version__ = "0.1.0"
