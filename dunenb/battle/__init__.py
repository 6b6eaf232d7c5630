"""dunenb.battle."""
