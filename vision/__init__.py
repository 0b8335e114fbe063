"""Reads thrown implements from the tray camera (see issue on vision). Knows nothing of games."""
