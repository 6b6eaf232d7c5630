"""dunenb.render."""
