"""dunenb.rules."""
