"""The ``bidbox`` command."""
