"""Plumbing every box shares and that imports none of them."""
