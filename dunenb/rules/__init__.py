"""The rules, one module per phase. Each module cites the rule IDs of shared/spec/rules_digest.md.

Every phase module exposes handlers in ``HANDLERS``: pending kind → :class:`dunenb.rules.common.Handler`.

Imports inside functions (the rules modules import one another, so many imports wait for the call): issue 14
item 3 measured ``from dunenb.x import name`` at about 7,700 instructions each time it runs, most of it a failed
lookup of the module's ``__path__`` (the interpreter formats an ``AttributeError`` twice, then drops it), against
3,100 for ``import dunenb.x as x`` then ``x.name`` (same module imported, same object read at the call). A
function called hundreds of times a game uses the second form, marked *a cheap import*, or, where the two modules
do not import each other (each module of such a pair still imports first: tests/test_issue14_imports.py), its
module imports the name at the top (``karama_window.usable``, ``leader_deals.blocked``, ``anytime._free_karamas``
...: the commands load the same modules); one that needs the name only on some path imports it there. In a
new-process replay of a 10-turn game they ran 5,900 times (27M instructions, 2.5% of it); a random-bot game ran
10,900 of them (about 6% of its instructions), about 3,400 after the top imports.
"""
