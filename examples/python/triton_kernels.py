"""Triton kernels for kbenchpy (`python3 -m kbenchpy run --module examples/python/triton_kernels.py`):
a softmax with one program per row, a GELU (tanh form), and the same GELU autotuned over block
size and warps. They follow kbenchpy's module convention (kbenchpy/user_module.py): each function
takes the op's input tensors and a preallocated `out`, contiguous CUDA tensors in the case's
dtype, and writes the result into `out`. Arithmetic is in fp32 whatever the storage dtype.

First calls: Triton compiles a kernel on its first launch for each new set of specialisations
(dtype, BLOCK, whether sizes divide by 16), and the autotuned GELU benchmarks all its configs on
the first call for each new element count (its key). kbenchpy records that first call's time as
the row's first_call_ms, apart from the steady state.
"""
import triton
import triton.language as tl

#: The softmax keeps a whole row in registers: rows longer than this are refused (an ERROR row).
MAX_SOFTMAX_COLS = 32768


@triton.jit
def _softmax_rows_kernel(x_ptr, out_ptr, n_cols, BLOCK: tl.constexpr):
    # One program per row: load the row (padding with -inf, whose exp is 0), subtract its maximum,
    # exponentiate, divide by the sum. One read and one write of each element.
    row = tl.program_id(0).to(tl.int64)
    offsets = tl.arange(0, BLOCK)
    mask = offsets < n_cols
    base = row * n_cols
    x = tl.load(x_ptr + base + offsets, mask=mask, other=-float("inf")).to(tl.float32)
    x = x - tl.max(x, axis=0)
    e = tl.exp(x)
    y = e / tl.sum(e, axis=0)
    tl.store(out_ptr + base + offsets, y.to(out_ptr.dtype.element_ty), mask=mask)


def softmax_rows(x, out):
    """softmax over the last axis, one Triton program per row."""
    n_cols = x.shape[-1]
    if n_cols > MAX_SOFTMAX_COLS:
        raise ValueError(f"rows of {n_cols} elements: this kernel keeps a row in registers, at most "
                         f"{MAX_SOFTMAX_COLS} elements")
    rows = x.numel() // n_cols
    block = triton.next_power_of_2(n_cols)
    num_warps = 4 if block <= 2048 else 8 if block <= 8192 else 16
    _softmax_rows_kernel[(rows,)](x, out, n_cols, BLOCK=block, num_warps=num_warps)


@triton.jit
def _gelu_tanh_body(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    # 0.5 x (1 + tanh(u)) = x * sigmoid(2u) = x / (1 + exp(-2u)), u = sqrt(2/pi) (x + 0.044715 x^3):
    # the same value without a tanh; exp(-2u) overflowing to inf gives the right limit, -0.
    start = tl.program_id(0).to(tl.int64) * BLOCK
    offsets = start + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask).to(tl.float32)
    u = 0.7978845608028654 * (x + 0.044715 * x * x * x)  # sqrt(2 / pi)
    y = x / (1.0 + tl.exp(-2.0 * u))
    tl.store(out_ptr + offsets, y.to(out_ptr.dtype.element_ty), mask=mask)


@triton.jit
def _gelu_tanh_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    _gelu_tanh_body(x_ptr, out_ptr, n, BLOCK)


@triton.autotune(
    configs=[triton.Config({"BLOCK": block}, num_warps=warps)
             for block in (512, 1024, 2048, 4096) for warps in (4, 8)],
    key=["n"],  # a new element count tunes afresh: the first call for each shape pays for it
)
@triton.jit
def _gelu_tanh_autotuned_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    _gelu_tanh_body(x_ptr, out_ptr, n, BLOCK)


def gelu_tanh(x, out):
    """GELU (tanh approximation), 1024 elements per program, 4 warps."""
    n = x.numel()
    block = 1024
    _gelu_tanh_kernel[(triton.cdiv(n, block),)](x, out, n, BLOCK=block, num_warps=4)


def gelu_tanh_autotuned(x, out):
    """GELU (tanh approximation), block size and warps autotuned per element count."""
    n = x.numel()
    _gelu_tanh_autotuned_kernel[lambda meta: (triton.cdiv(n, meta["BLOCK"]),)](x, out, n)


KBENCH_KERNELS = {
    "softmax": [(softmax_rows, ("fp32", "fp16", "bf16"))],
    "gelu_tanh": [(gelu_tanh, ("fp32", "fp16", "bf16")), (gelu_tanh_autotuned, ("fp32", "fp16", "bf16"))],
}
