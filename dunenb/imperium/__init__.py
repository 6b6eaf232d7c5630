"""Dune: Imperium."""
