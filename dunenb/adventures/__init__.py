"""dunenb.adventures."""
