"""Buttons, display and camera adapters behind injectable seams (see issue on the device)."""
