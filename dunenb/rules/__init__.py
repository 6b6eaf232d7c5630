"""The rules, one module per phase. Each module cites the rule IDs of shared/spec/rules_digest.md.

Every phase module exposes handlers in ``HANDLERS``: pending kind → :class:`dunenb.rules.common.Handler`.
"""
