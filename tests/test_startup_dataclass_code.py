"""Issue 14 part 3: the generated methods of dunenb's dataclasses are compiled once and kept beside the bytecode
(:mod:`dunenb.dataclass_code`); the classes made from kept code are the same classes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

_PROBE = """
import hashlib, json, marshal, sys, types, dataclasses
import dunenb
from dunenb import dataclass_code
name, source = sys.argv[1], sys.argv[2]
module = types.ModuleType(name)
module.__file__ = source
sys.modules[name] = module
with open(source, encoding="utf-8") as stream:
    exec(compile(stream.read(), source, "exec"), module.__dict__)
C = module.C
methods = {m: hashlib.sha256(marshal.dumps(getattr(C, m).__code__)).hexdigest()
           for m in ("__init__", "__repr__", "__eq__", "__hash__", "__setattr__", "__delattr__")}
try:
    C(1).a = 2
    frozen = False
except dataclasses.FrozenInstanceError:
    frozen = True
print(json.dumps({"compiled": sorted(dataclass_code._changed), "methods": methods, "repr": repr(C(1)),
                  "equal": C(1) == C(1), "hash": hash(C(1)) == hash(C(1)), "frozen": frozen,
                  "fields": [f.name for f in dataclasses.fields(C)],
                  "patched": dataclasses.exec is dataclass_code._exec}))
"""

_CLASS = """
from __future__ import annotations
from dataclasses import dataclass, field

@dataclass(frozen=True)
class C:
    a: int
    b: tuple[int, ...] = ()
    c: list[int] = field(default_factory=list, compare=False, hash=False)
"""


def _environment(cache: Path, *, write: bool = True) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    env.update({"PYTHONPATH": str(ROOT), "PYTHONPYCACHEPREFIX": str(cache)})
    if not write:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def _probe(module: str, source: Path, cache: Path, *, write: bool = True) -> dict:
    out = subprocess.run([sys.executable, "-c", _PROBE, module, str(source)], check=True, capture_output=True,
                         text=True, env=_environment(cache, write=write))
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_issue14_dataclass_code_is_compiled_once_and_gives_the_same_class(tmp_path):
    source = tmp_path / "probe.py"
    source.write_text(_CLASS, encoding="utf-8")
    cache = tmp_path / "pycache"
    first = _probe("dunenb.probe", source, cache)
    assert first["compiled"] == ["dunenb.probe"] and first["patched"]
    assert list(cache.rglob("probe.*.dataclasses"))  # beside the module's bytecode (PYTHONPYCACHEPREFIX)
    second = _probe("dunenb.probe", source, cache)
    assert second["compiled"] == []  # every method from the kept code
    assert second == {**first, "compiled": []}  # same code objects, repr, equality, hash, frozen, fields
    assert second["repr"] == "C(a=1, b=(), c=[])" and second["frozen"] and second["equal"] and second["hash"]


def test_issue14_a_changed_dataclass_is_compiled_afresh(tmp_path):
    source = tmp_path / "probe.py"
    source.write_text(_CLASS, encoding="utf-8")
    cache = tmp_path / "pycache"
    _probe("dunenb.probe", source, cache)
    source.write_text(_CLASS.replace("    b: tuple", "    z: str = 'z'\n    b: tuple"), encoding="utf-8")
    changed = _probe("dunenb.probe", source, cache)
    assert changed["compiled"] == ["dunenb.probe"]  # the text is the key: nothing stale is used
    assert changed["repr"] == "C(a=1, z='z', b=(), c=[])" and changed["fields"] == ["a", "z", "b", "c"]
    assert _probe("dunenb.probe", source, cache)["compiled"] == []


def test_issue14_a_broken_cache_file_only_means_compiling(tmp_path):
    source = tmp_path / "probe.py"
    source.write_text(_CLASS, encoding="utf-8")
    cache = tmp_path / "pycache"
    good = _probe("dunenb.probe", source, cache)
    for kept in cache.rglob("probe.*.dataclasses"):
        kept.write_bytes(b"not marshal data")
    broken = _probe("dunenb.probe", source, cache)
    assert broken == good  # compiled again, same class, file rewritten
    assert _probe("dunenb.probe", source, cache)["compiled"] == []


def test_issue14_no_cache_is_written_without_bytecode_nor_for_other_packages(tmp_path):
    source = tmp_path / "probe.py"
    source.write_text(_CLASS, encoding="utf-8")
    cache = tmp_path / "pycache"
    assert _probe("dunenb.probe", source, cache, write=False)["compiled"] == ["dunenb.probe"]
    assert not list(cache.rglob("*.dataclasses"))  # PYTHONDONTWRITEBYTECODE: nothing written
    other = _probe("elsewhere.probe", source, cache)
    assert other["compiled"] == [] and other["repr"] == "C(a=1, b=(), c=[])"  # the built-in exec, no file
    assert not list(cache.rglob("*.dataclasses"))


def test_issue14_the_engine_dataclasses_come_from_kept_code_in_a_second_process(tmp_path):
    script = ("import dunenb.engine, dunenb.saves\nfrom dunenb import dataclass_code\n"
              "print(len(dataclass_code._changed), len(dataclass_code._used))")
    env = _environment(tmp_path / "pycache")
    subprocess.run([sys.executable, "-c", script], check=True, capture_output=True, env=env)
    out = subprocess.run([sys.executable, "-c", script], check=True, capture_output=True, text=True, env=env)
    compiled, modules = map(int, out.stdout.split())
    assert compiled == 0 and modules > 50  # every engine module's dataclasses made from kept code


def test_issue14_help_does_not_import_dataclasses(tmp_path):
    script = ("import sys\nfrom dunenb.cli import main\ntry:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
              "print('dataclasses' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         env=_environment(tmp_path / "pycache"))
    assert out.stdout.strip().splitlines()[-1] == "False"


def test_issue14_frozen_init_binds_setattr_once_with_the_same_result():
    """A frozen engine record's ``__init__`` looks ``object.__setattr__`` up once (a local name) and sets every
    field through it: the same entries in the field order, the checks of ``__post_init__`` still run, and it
    stays frozen."""
    import dataclasses

    import pytest

    from dunenb.errors import InputError
    from dunenb.rules.movement import Move

    assert "__dataclass_setattr__" in Move.__init__.__code__.co_varnames
    move = Move("atreides", "arrakeen", 9, (("imperial-basin", 9),), 3, 1)
    assert list(vars(move)) == [f.name for f in dataclasses.fields(Move)]
    assert move == Move(house="atreides", area="arrakeen", sector=9, path=(("imperial-basin", 9),), regular=3,
                        marked=1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        move.regular = 4  # type: ignore[misc]
    with pytest.raises(InputError, match="move.regular must be an integer"):
        Move("atreides", "arrakeen", 9, (("imperial-basin", 9),), 3.5, 1)  # type: ignore[arg-type]


def _dunenb_modules():
    import importlib
    import pkgutil

    import dunenb
    import dunenb.cli  # noqa: F401
    import dunenb.engine  # noqa: F401
    import dunenb.saves  # noqa: F401

    for info in pkgutil.walk_packages(dunenb.__path__, "dunenb."):
        if ".widgets" in info.name or info.name.endswith("__main__"):
            continue  # the widgets need ipywidgets, which the engine never imports
        yield importlib.import_module(info.name)


def test_issue14_no_dunenb_module_binds_a_dataclass_marker_under_another_name():
    """What lets the patched ``dataclasses._is_type`` skip its lookup for dunenb (dataclass_code._patch_is_type)."""
    import dataclasses
    import typing

    markers = {id(typing.ClassVar): "ClassVar", id(dataclasses.InitVar): "InitVar", id(dataclasses.KW_ONLY): "KW_ONLY"}
    for module in _dunenb_modules():
        for name, value in vars(module).items():
            if id(value) in markers:
                assert name == markers[id(value)], (module.__name__, name)


def test_issue14_the_patched_is_type_answers_as_the_original_for_every_dunenb_dataclass():
    import dataclasses
    import typing

    import dunenb.dataclass_code as code

    code.install()
    patched = dataclasses._is_type
    original = patched.__wrapped__
    checks = [(typing, typing.ClassVar, dataclasses._is_classvar), (dataclasses, dataclasses.InitVar,
                                                                    dataclasses._is_initvar),
              (dataclasses, dataclasses.KW_ONLY, dataclasses._is_kw_only)]
    seen = classvars = 0
    for module in _dunenb_modules():
        for value in list(vars(module).values()):
            if not (isinstance(value, type) and dataclasses.is_dataclass(value)
                    and value.__module__ == module.__name__):
                continue
            for annotation in value.__dict__.get("__annotations__", {}).values():
                if type(annotation) is not str:
                    continue
                for a_module, marker, predicate in checks:
                    answer = original(annotation, value, a_module, marker, predicate)
                    assert patched(annotation, value, a_module, marker, predicate) == answer, (value, annotation)
                    classvars += bool(answer)
                seen += 1
    assert seen > 800 and classvars > 100  # the engine's annotations, its ClassVar kinds among them
