"""dunenb.iron_die."""
