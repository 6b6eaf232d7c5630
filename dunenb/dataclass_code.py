"""Issue 14 part 3: the generated methods of dunenb's dataclasses compiled once, then kept beside the bytecode.

Making a dataclass writes the source text of its ``__init__``, ``__repr__``, ``__eq__``, ``__hash__``,
``__setattr__`` ... and compiles it with ``exec``: about half a millisecond a class, two thirds of the time a new
process spent importing the engine's ~190 dataclasses (the rest of ``dataclasses`` is cheap). The text depends only
on the class's definition, and the code compiled from a text is always the same, so :func:`install` gives the
``dataclasses`` module an ``exec`` of its own (a module global, looked up before the built-in) that, for a dunenb
module, reuses the code compiled from that very text in an earlier process:

* the key is the whole text, so a changed class (a field added, renamed, defaulted; ``frozen``, ``eq`` ...) has
  another text and is compiled afresh: nothing stale is ever used;
* the code is run with the globals and locals ``dataclasses`` gives, exactly as ``exec(text, ...)`` would; the
  functions made are the same (same code object, same ``<string>`` file name): behaviour, hashing, equality,
  pickling and ``dataclasses.fields``/``replace`` are untouched;
* one file per module, ``<module>.<tag>.dataclasses`` in the folder of the module's bytecode (``__pycache__``, or
  its mirror under ``PYTHONPYCACHEPREFIX``): a marshal of the interpreter's magic number and ``{text: code}``;
  written at exit, atomically, only by a process that had to compile a text for that module, and then holding the
  texts that process used (so old texts do not pile up); like bytecode, it is read but never written when
  Python is told not to write bytecode (``PYTHONDONTWRITEBYTECODE``). A missing, unreadable or foreign file
  only means compiling, as before;
* modules outside dunenb get the built-in ``exec`` unchanged;
* a frozen class's ``__init__`` looks ``object.__setattr__`` up once, not once per field (:func:`_bound_setattr`):
  the same calls in the same order, a third less time to build a frozen record (issue 14 item 4: the legal menus
  build thousands of frozen actions a game).
"""

from __future__ import annotations

import builtins
import sys
from typing import Any

#: What a cache file starts with: a change of interpreter (bytecode magic) or of optimisation level ignores it.
_FORMAT = "dunenb.dataclass-code/2"  # /2: frozen __init__ binds object.__setattr__ once
_PACKAGE = __name__.partition(".")[0]
_PREFIX = _PACKAGE + "."
#: module name -> {text: code} read from its file (lazily, at the module's first dataclass) or compiled here.
_kept: dict[str, dict[str, Any]] = {}
#: module name -> the texts this process used for it (what its file holds once rewritten).
_used: dict[str, dict[str, Any]] = {}
#: modules for which this process compiled a text: their files are rewritten at exit.
_changed: set[str] = set()
#: module name -> its cache file (None: no bytecode place).
_files: dict[str, str | None] = {}


def _header() -> tuple[str, bytes, int]:
    import importlib.util

    return _FORMAT, importlib.util.MAGIC_NUMBER, sys.flags.optimize


def _cache_file(module: str, source: Any) -> str | None:
    """The cache file of ``module`` (defined in ``source``), or None when bytecode has no place."""
    if module not in _files:
        path = None
        if isinstance(source, str) and source.endswith(".py"):
            import importlib.util

            try:
                path = importlib.util.cache_from_source(source).removesuffix(".pyc") + ".dataclasses"
            except (NotImplementedError, ValueError):  # no cache tag: no bytecode cache at all
                path = None
        _files[module] = path
    return _files[module]


def _read(path: str) -> dict[str, Any]:
    import marshal

    try:
        with open(path, "rb") as stream:
            header, codes = marshal.loads(stream.read())  # one read (marshal.load reads a file piecemeal)
    except (OSError, EOFError, ValueError, TypeError):
        return {}
    if header != _header() or not isinstance(codes, dict):
        return {}
    return codes


def _code(text: str, module: str, source: Any) -> Any:
    """The code compiled from ``text`` (from the module's cache file when an earlier process compiled it)."""
    kept = _kept.get(module)
    if kept is None:
        path = _cache_file(module, source)
        kept = _kept[module] = {} if path is None else _read(path)
    code = kept.get(text)
    if code is None:
        # dont_inherit: compiled as ``exec(text)`` inside ``dataclasses`` compiles it (no __future__ flags there)
        code = kept[text] = compile(_bound_setattr(text), "<string>", "exec", dont_inherit=True)
        _changed.add(module)
    _used.setdefault(module, {})[text] = code
    return code


#: The call that sets one field in a frozen class's generated ``__init__`` (``dataclasses._field_assign``), with
#: its indent. Compiled on first use (only a text compiled afresh is rewritten: a process whose dataclasses all
#: come from kept code never needs it).
_FROZEN_SET = r"(?m)^(\s+)__dataclass_builtins_object__\.__setattr__\("


def _bound_setattr(text: str) -> str:
    """``text`` with ``object.__setattr__`` bound to a local name before the first field a frozen ``__init__``
    sets, and each field set through it (module docstring); any other text unchanged.

    >>> print(_bound_setattr("  __dataclass_builtins_object__.__setattr__(self,'x',x)\\n"
    ...                      "  __dataclass_builtins_object__.__setattr__(self,'y',y)"))
      __dataclass_setattr__=__dataclass_builtins_object__.__setattr__
      __dataclass_setattr__(self,'x',x)
      __dataclass_setattr__(self,'y',y)
    """
    import re

    bound = False

    def through_local(match: re.Match[str]) -> str:
        nonlocal bound
        indent = match.group(1)
        if bound:
            return f"{indent}__dataclass_setattr__("
        bound = True
        return (f"{indent}__dataclass_setattr__=__dataclass_builtins_object__.__setattr__\n"
                f"{indent}__dataclass_setattr__(")

    return re.sub(_FROZEN_SET, through_local, text)


def _exec(source: Any, globals: dict[str, Any] | None = None, locals: Any = None, /) -> None:
    """``exec`` for ``dataclasses``: a text made for a dunenb module runs from its kept code (module docstring)."""
    module = globals.get("__name__") if isinstance(globals, dict) else None
    if isinstance(source, str) and isinstance(module, str) and module.partition(".")[0] == _PACKAGE:
        source = _code(source, module, globals.get("__file__"))  # type: ignore[union-attr]
    builtins.exec(source, globals, locals)


def _write() -> None:
    """At exit: rewrite the cache file of each module for which this process compiled a text."""
    import marshal
    import os

    if sys.dont_write_bytecode:  # read, as bytecode is, but never written
        return
    for module in sorted(_changed):
        path = _files.get(module)
        if path is None:
            continue
        temporary = f"{path}.{os.getpid()}.tmp"
        try:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(temporary, "wb") as stream:
                marshal.dump((_header(), _used[module]), stream)
            os.replace(temporary, path)
        except (OSError, ValueError):  # a read-only installation: compiled again next time
            try:
                os.remove(temporary)
            except OSError:
                pass
    _changed.clear()


def install() -> None:
    """Give ``dataclasses`` the caching ``exec``: now if it is imported, else as soon as it is (so that a
    process that makes no dataclass, ``dunenb --help``, does not import it: :class:`_WhenImported`)."""
    if "dataclasses" in sys.modules:
        _patch(sys.modules["dataclasses"])
    elif _WhenImported not in sys.meta_path:
        sys.meta_path.insert(0, _WhenImported)


def _patch(dataclasses: Any) -> None:
    if getattr(dataclasses, "exec", None) is _exec:
        return
    import atexit

    dataclasses.exec = _exec
    _patch_is_type(dataclasses)
    atexit.register(_write)


#: The markers ``dataclasses`` looks for in a string annotation (``typing.ClassVar``, ``dataclasses.InitVar``,
#: ``dataclasses.KW_ONLY``), by the name dunenb's modules always give them (tests/test_startup_dataclass_code.py checks
#: that no dunenb module binds one under another name).
_MARKER_NAMES = ("ClassVar", "InitVar", "KW_ONLY")


def _patch_is_type(dataclasses: Any) -> None:
    """Issue 14 part 3: ``dataclasses._is_type`` tells whether a string annotation names ``ClassVar``, ``InitVar``
    or ``KW_ONLY`` by matching its first identifier and looking it up in the class's module (twice or three
    times for each field of each dataclass: 2,635 calls, a sixth of making the engine's dataclasses). The
    identifier can name the marker only where the module binds it: in a dunenb module, only under its own name
    (checked by a test), so an annotation of a dunenb class that does not contain that name cannot name it, and
    the answer, False, is known without the lookup; any other annotation, and every other module's, gets the
    original test unchanged."""
    original = dataclasses._is_type
    if getattr(original, "__wrapped__", None) is not None:
        return
    import typing

    names = {id(marker): name for marker, name in zip(
        (typing.ClassVar, dataclasses.InitVar, dataclasses.KW_ONLY), _MARKER_NAMES, strict=True)}

    def _is_type(annotation: Any, cls: Any, a_module: Any, a_type: Any, is_type_predicate: Any) -> Any:
        name = names.get(id(a_type))
        if name is not None and type(annotation) is str and name not in annotation:
            module = getattr(cls, "__module__", None)
            if type(module) is str and (module == _PACKAGE or module.startswith(_PREFIX)):
                return False
        return original(annotation, cls, a_module, a_type, is_type_predicate)

    _is_type.__wrapped__ = original  # type: ignore[attr-defined]
    dataclasses._is_type = _is_type


class _WhenImported:
    """A finder asked first for every import: for ``dataclasses`` it steps aside, finds the module as the other
    finders would, and has the module patched once it has run; it finds nothing itself."""

    @classmethod
    def find_spec(cls, name: str, path: Any = None, target: Any = None) -> Any:
        if name != "dataclasses":
            return None
        sys.meta_path.remove(cls)
        import importlib.util

        spec = importlib.util.find_spec(name)  # the other finders, in their order
        loader = None if spec is None else spec.loader
        run = getattr(loader, "exec_module", None)
        if run is None:  # not found as a file: the import goes on without the patch
            return None

        def exec_module(module: Any) -> None:
            run(module)
            _patch(module)

        loader.exec_module = exec_module  # type: ignore[method-assign,union-attr]  # this spec's loader only
        return spec
