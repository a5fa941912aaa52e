"""The ops kbench registers, as the scripts need them: name, family, dtypes, the shapes each
accepts, and the traffic one call must do.

Each entry mirrors the op's C++ declaration (`dtypes()`, `reject_shape()`, `traffic()` in
kernels/<op>/..._op.cpp): bytes are the minimum one call must move in the case's dtype (inputs
read once, outputs written once), FLOPs are as the op counts them, and `math` names the unit the
FLOPs run on ("fp32", "tf32_tensor", "fp16_tensor"), which picks the peak they are held against.
When an op's declaration changes in C++, change it here too; tests/scripts checks the shipped
configs against kbench's own dry-run counts.
"""
from dataclasses import dataclass
from typing import Callable, Tuple

from .dtypes import ALL_DTYPES, dtype_size

_INT_MAX = 2**31 - 1
_ELEMENT_LIMIT = (2**63 - 1) // 64  # harness/ops/problem.cpp: room for 8-byte elements and a few buffers


def element_count(shape):
    """The product of the extents; ValueError for an empty shape, a non-positive extent or a
    count whose byte sizes would overflow 64 bits (as harness/ops/problem.cpp)."""
    if not shape:
        raise ValueError("shape has no extents")
    count = 1
    for extent in shape:
        if extent <= 0:
            raise ValueError(f"shape {format_shape(shape)} has a non-positive extent {extent}; extents must be >= 1")
        if count > _ELEMENT_LIMIT // extent:
            raise ValueError(f"shape {format_shape(shape)} has too many elements (byte counts overflow 64 bits)")
        count *= extent
    return count


def format_shape(shape):
    """"4096x4096", as kbench prints shapes."""
    return "x".join(str(extent) for extent in shape)


def traffic(bytes_read, bytes_written, flops, math="fp32"):
    """A results file's `traffic` object (bytes and FLOPs as floats)."""
    return {"bytes_read": float(bytes_read), "bytes_written": float(bytes_written), "flops": float(flops), "math": math}


@dataclass(frozen=True)
class OpSpec:
    name: str
    family: str  # what `--op` also accepts: "sum" selects sum_full, sum_inner, ...
    summary: str
    dtypes: Tuple[str, ...]
    reject_shape: Callable  # shape -> "" when the op can run it, else why not
    traffic: Callable  # (shape, dtype) -> traffic dict


def _any_shape(shape):
    return "" if shape else "shape is empty"


def _rows_cols(shape):
    """The rows x cols view of a shape: rows = product of every extent but the last."""
    cols = shape[-1]
    return element_count(shape) // cols, cols


def _add_traffic(shape, dtype):
    n = element_count(shape)
    size = n * dtype_size(dtype)
    return traffic(2 * size, size, n)


def _reduction(outputs):
    """Traffic of a reduction that writes `outputs(shape)` elements: input read once, output
    written once, one add (or max) per input element, in fp32."""

    def declare(shape, dtype):
        n = element_count(shape)
        size = dtype_size(dtype)
        return traffic(n * size, outputs(shape) * size, n)

    return declare


def _reject_sum_outer(shape):
    if not shape:
        return "shape is empty"
    if len(shape) < 2:
        return "sum_outer reduces every axis but the last: give 2 or more axes"
    rows, cols = _rows_cols(shape)
    if rows > _INT_MAX or cols > _INT_MAX:
        return "the cuBLAS baseline takes int extents: rows and cols must be below 2^31"
    return ""


def _per_element(flops_per_element):
    """Traffic of an elementwise op y = f(x): x read once, y written once."""

    def declare(shape, dtype):
        n = element_count(shape)
        size = n * dtype_size(dtype)
        return traffic(size, size, flops_per_element * n)

    return declare


def _reject_matmul(shape):
    if len(shape) != 3:
        return ("matmul needs a rank-3 shape MxNxK (C is MxN, the inner dimension is K), e.g. 4096x4096x4096; "
                f"got rank {len(shape)}")
    if any(extent < 1 for extent in shape):
        return "extents must be >= 1"
    m, n, k = shape
    if m > _INT_MAX // k or k > _INT_MAX // n or m > _INT_MAX // n:
        return "each of A (MxK), B (KxN) and C (MxN) must have fewer than 2^31 elements (the kernels index in 32 bits)"
    return ""


_MATMUL_MATH = {"fp32": "fp32", "tf32": "tf32_tensor", "fp16": "fp16_tensor", "bf16": "fp16_tensor"}


def _matmul_traffic(shape, dtype):
    m, n, k = shape
    size = dtype_size(dtype)
    return traffic((m * k + k * n) * size, m * n * size, 2 * m * n * k, _MATMUL_MATH[dtype])


_OPS = (
    OpSpec("add", "add", "elementwise c = a + b", ALL_DTYPES, _any_shape, _add_traffic),
    OpSpec("sum_full", "sum", "sum of every element", ALL_DTYPES, _any_shape, _reduction(lambda shape: 1)),
    OpSpec("sum_inner", "sum", "sum over the last axis", ALL_DTYPES, _any_shape,
           _reduction(lambda shape: _rows_cols(shape)[0])),
    OpSpec("sum_outer", "sum", "sum over every axis but the last", ALL_DTYPES, _reject_sum_outer,
           _reduction(lambda shape: shape[-1])),
    OpSpec("max_inner", "sum", "maximum over the last axis", ALL_DTYPES, _any_shape,
           _reduction(lambda shape: _rows_cols(shape)[0])),
    OpSpec("matmul", "matmul", "C = A·B, shape MxNxK (A is MxK, B is KxN)", ALL_DTYPES + ("tf32",),
           _reject_matmul, _matmul_traffic),
    OpSpec("softmax", "softmax", "softmax over the last axis", ALL_DTYPES, _any_shape, _per_element(4)),
    OpSpec("gelu_tanh", "gelu", "GELU, tanh approximation", ALL_DTYPES, _any_shape, _per_element(8)),
    OpSpec("gelu_erf", "gelu", "GELU, exact form", ALL_DTYPES, _any_shape, _per_element(8)),
)

#: Op name -> OpSpec, in kbench's registration order (kernels/register_all_ops.cpp).
OPS = {op.name: op for op in _OPS}
