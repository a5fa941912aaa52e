"""User modules: Python files whose functions kbenchpy verifies and times as rows of kbench's ops.

The convention
--------------
A module serves an op with a function that takes the op's inputs and a preallocated output, all
torch tensors on the current CUDA device, contiguous, in the case's dtype (fp32 tensors for
matmul's tf32, with TF32 allowed in PyTorch's cuBLAS), and writes the result into `out`:

    def softmax(x, out): ...          # add(a, b, out), matmul(a, b, out), sum_inner(x, out), ...

kbenchpy.op_contract lists each op's inputs and output shape (sum_full: a 0-dim tensor;
sum_inner, max_inner: shape[:-1]; sum_outer: [shape[-1]]; matmul: a [M, K], b [K, N], out [M, N]).
`out` is filled with NaN before the verifying call, so an element left unwritten fails
verification. The function returns None or `out`; it may instead return a new tensor, which is
then the output and must have exactly the output's shape and dtype.

Which functions: without a table, every function defined in the module whose name is an op of
the plan serves that op, for every dtype. With a module-level table, only the table counts, and
an entry may name the dtypes its function serves (rows of other dtypes are skipped, saying so):

    KBENCH_KERNELS = {
        "softmax": [softmax_rows, (softmax_autotuned, ("fp16", "bf16"))],
        "gelu_tanh": [gelu_tanh],
    }

Each function becomes one row per case of its op: variant = the function's name, source =
"PATH:function" (PATH as given on the command line), role "own". Variant names must be unique
per op across the modules of one run.

Failures are rows, not crashes: a module that does not import makes one ERROR row per case
(variant = the module's file stem); an op of the plan with no function in a module, a function
whose signature cannot take the op's inputs and `out`, or one that raises, makes an ERROR row; a
wrong output (values, shape or dtype) an INCORRECT row. Each message is one line naming the
module and function. The sweep goes on.

This file imports nothing outside the standard library: loading and checking need no PyTorch
(importing the user's module may, of course, import it).
"""
import importlib.util
import inspect
import os
import sys
from dataclasses import dataclass
from typing import Callable, Optional, Tuple

from . import op_contract

TABLE_NAME = "KBENCH_KERNELS"
DTYPES = ("fp32", "fp16", "bf16", "tf32")


class ModuleError(Exception):
    """A module that cannot be used at all (import failure, malformed table): one line."""


class KernelError(Exception):
    """A call that failed (raised): the row is ERROR. One line naming module and function."""


class KernelIncorrect(Exception):
    """A call whose output has the wrong shape, dtype or type: the row is INCORRECT."""


@dataclass(frozen=True)
class KernelFunction:
    """One user function serving one op."""
    path: str  # the module's path as given
    name: str  # the function's name: the row's variant
    op: str
    fn: Callable
    dtypes: Optional[Tuple[str, ...]]  # None: every dtype

    @property
    def source(self):
        return f"{self.path}:{self.name}"

    def serves(self, dtype):
        return self.dtypes is None or dtype in self.dtypes


@dataclass
class UserModule:
    """A loaded (or failed) module: its functions per op, or the line saying why it failed."""
    path: str
    error: str  # "" when loaded
    functions: dict  # op -> [KernelFunction]
    has_table: bool = False  # the functions come from KBENCH_KERNELS

    @property
    def stem(self):
        return os.path.splitext(os.path.basename(self.path))[0]

    def functions_for(self, op):
        return self.functions.get(op, [])


def _first_line(error):
    lines = str(error).strip().splitlines()
    return f"{type(error).__name__}: {lines[0] if lines else 'no message'}"


def _import(path):
    """The module object of the file at `path`; ModuleError when it cannot be imported. The
    module's folder is put first on sys.path while it imports, so its own helpers import."""
    if not os.path.isfile(path):
        raise ModuleError(f"{path}: no such file")
    stem = os.path.splitext(os.path.basename(path))[0]
    name = f"kbenchpy_user_{stem}_{abs(hash(os.path.abspath(path)))}"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ModuleError(f"{path}: not a Python module (expected a .py file)")
    module = importlib.util.module_from_spec(spec)
    folder = os.path.dirname(os.path.abspath(path))
    sys.path.insert(0, folder)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except KeyboardInterrupt:
        raise
    except BaseException as error:  # SyntaxError, ImportError, SystemExit, anything it raises
        sys.modules.pop(name, None)
        raise ModuleError(f"{path}: import failed: {_first_line(error)}") from None
    finally:
        if sys.path and sys.path[0] == folder:
            sys.path.pop(0)
    return module


def _from_table(path, table):
    """op -> [KernelFunction] from a KBENCH_KERNELS table; ModuleError naming the entry."""
    if not isinstance(table, dict):
        raise ModuleError(f"{path}: {TABLE_NAME} is a {type(table).__name__}; expected a dict of op -> list of "
                          "functions or (function, dtypes) pairs")
    functions = {}
    for op, entries in table.items():
        place = f"{path}: {TABLE_NAME}[{op!r}]"
        if not isinstance(op, str):
            raise ModuleError(f"{place}: the key is not a string; expected an op name")
        if callable(entries) or isinstance(entries, tuple):
            entries = [entries]
        if not isinstance(entries, list):
            raise ModuleError(f"{place} is a {type(entries).__name__}; expected a list of functions")
        for i, entry in enumerate(entries):
            dtypes = None
            if isinstance(entry, tuple):
                if len(entry) != 2 or not isinstance(entry[1], (tuple, list)) or not entry[1] or \
                        any(d not in DTYPES for d in entry[1]):
                    raise ModuleError(f"{place}[{i}]: expected (function, dtypes) with dtypes a non-empty list of "
                                      f"{', '.join(DTYPES)}; found {entry!r}")
                entry, dtypes = entry[0], tuple(entry[1])
            if not callable(entry):
                raise ModuleError(f"{place}[{i}] is a {type(entry).__name__}; expected a function")
            name = getattr(entry, "__name__", None) or f"{op}_{i}"
            functions.setdefault(op, []).append(KernelFunction(path, name, op, entry, dtypes))
    return functions


def load_module(path, ops):
    """The module at `path` with its functions for `ops` (the plan's ops). Never raises for the
    module's own faults: a module that cannot be used comes back with `error` set."""
    try:
        module = _import(path)
        has_table = hasattr(module, TABLE_NAME)
        if has_table:
            functions = _from_table(path, getattr(module, TABLE_NAME))
        else:
            functions = {}
            for op in ops:
                fn = getattr(module, op, None)
                if callable(fn) and getattr(fn, "__module__", None) == module.__name__:
                    functions[op] = [KernelFunction(path, op, op, fn, None)]
    except ModuleError as error:
        return UserModule(path, str(error), {})
    return UserModule(path, "", functions, has_table)


def missing_function(module, op):
    """The ERROR message of an op the module has no function for."""
    if not op_contract.supports(op):
        return f"{module.path}: kbenchpy has no inputs or reference for op '{op}'"
    how = f"list one under {TABLE_NAME}[{op!r}]" if module.has_table else \
        f"define {op_contract.signature_text(op)} or list one under {TABLE_NAME}[{op!r}]"
    return (f"{module.path}: no function for op '{op}' ({how}; or narrow the plan to the module's ops, "
            "e.g. kbench --op ...)")


def signature_problem(function):
    """"" when `function` can be called as kbenchpy calls it for its op, else one line saying why."""
    call = op_contract.signature_text(function.op)
    try:
        signature = inspect.signature(function.fn)
    except (TypeError, ValueError):
        return ""  # a builtin or an extension callable: its call will tell
    try:
        signature.bind(*([None] * (len(op_contract.INPUTS[function.op]) + 1)))
    except TypeError as error:
        return f"{function.source}: signature {function.name}{signature} cannot be called as {call} ({error})"
    return ""


def call_checked(function, inputs, out):
    """Calls the function as kbenchpy does and returns its output tensor: `out`, or the tensor it
    returned. KernelError when it raises; KernelIncorrect when it returns something else than
    None, `out` or a tensor of out's shape and dtype."""
    try:
        returned = function.fn(*inputs, out)
    except KeyboardInterrupt:
        raise
    except Exception as error:
        raise KernelError(f"{function.source} raised {_first_line(error)}") from error
    if returned is None or returned is out:
        return out
    shape, dtype = getattr(returned, "shape", None), getattr(returned, "dtype", None)
    if shape is None or dtype is None:
        raise KernelIncorrect(f"{function.source} returned a {type(returned).__name__}; expected None, out or a tensor")
    if tuple(shape) != tuple(out.shape) or dtype != out.dtype:
        raise KernelIncorrect(f"{function.source} returned a {dtype} tensor of shape {list(shape)}; expected "
                              f"{out.dtype} of shape {list(out.shape)} (write into out, or return a tensor like it)")
    return returned
