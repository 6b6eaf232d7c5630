"""dunenb.bots."""
