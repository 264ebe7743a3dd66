"""The table companion: rules engines, scenarios, game records and the live table session."""

__version__ = "0.1.0"
