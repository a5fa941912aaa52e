"""What kbenchpy needs of each op beyond kbench's plan: the inputs a call takes, the output it
produces, how inputs are drawn, the float64 reference and the verification.

    op          inputs (in the case's dtype)         output
    add         a, b: shape                          shape
    sum_full    x: shape                             [] (a 0-dim tensor)
    sum_inner   x: shape                             shape[:-1]
    max_inner   x: shape                             shape[:-1]
    sum_outer   x: shape                             [shape[-1]]
    softmax     x: shape (over the last axis)        shape
    gelu_tanh   x: shape                             shape
    gelu_erf    x: shape                             shape
    matmul      a: [M, K], b: [K, N]  (shape MxNxK)  [M, N]

The table and the helpers that take no `torch` argument import nothing outside the standard
library; the rest are handed the `torch` module by their caller.
"""
import math

#: Op -> names of its inputs, in call order.
INPUTS = {"add": ("a", "b"), "matmul": ("a", "b"), "sum_full": ("x",), "sum_inner": ("x",), "sum_outer": ("x",),
          "max_inner": ("x",), "softmax": ("x",), "gelu_tanh": ("x",), "gelu_erf": ("x",)}

#: Input ranges per op (kbench's: kernels/*/..._op.cpp); others draw from [-1, 1).
INPUT_RANGES = {"softmax": (-4.0, 4.0), "gelu_tanh": (-5.0, 5.0), "gelu_erf": (-5.0, 5.0)}

#: (abs, rel, scaled) per op kind and dtype: |out - ref| <= abs + rel |ref| + scaled * scale.
TOLERANCES = {
    "elementwise": {"fp32": (1e-7, 2e-5, 1e-6), "fp16": (1e-6, 2e-3, 5e-4), "bf16": (1e-6, 1.6e-2, 4e-3)},
    "softmax": {"fp32": (1e-7, 2e-5, 0.0), "fp16": (1e-6, 2e-3, 0.0), "bf16": (1e-6, 1.6e-2, 0.0)},
    "sum": {"fp32": (0.0, 1e-5, 2e-5), "fp16": (0.0, 2e-3, 2e-5), "bf16": (0.0, 1.6e-2, 2e-5)},
    "max": {"fp32": (0.0, 0.0, 0.0), "fp16": (0.0, 0.0, 0.0), "bf16": (0.0, 0.0, 0.0)},
    # fp16/bf16: PyTorch allows reduced-precision split-K reductions by default.
    "matmul": {"fp32": (0.0, 1e-5, 1e-5), "tf32": (0.0, 0.0, 4e-3), "fp16": (0.0, 2e-3, 2e-3),
               "bf16": (0.0, 1.6e-2, 1.6e-2)},
}
TOLERANCE_KIND = {"add": "elementwise", "gelu_tanh": "elementwise", "gelu_erf": "elementwise", "softmax": "softmax",
                  "sum_full": "sum", "sum_inner": "sum", "sum_outer": "sum", "max_inner": "max", "matmul": "matmul"}

#: Bytes per element of each dtype name (tf32 is stored as fp32).
DTYPE_BYTES = {"fp32": 4, "tf32": 4, "fp16": 2, "bf16": 2}

#: kbench's dtype name -> torch's dtype attribute name.
TORCH_DTYPES = {"fp32": "float32", "tf32": "float32", "fp16": "float16", "bf16": "bfloat16"}


def supports(op):
    """Whether kbenchpy can build inputs and a reference for `op`."""
    return op in INPUTS


def signature_text(op):
    """"softmax(x, out)": how kbenchpy calls a user function for `op`."""
    return f"{op}({', '.join(INPUTS[op] + ('out',))})"


def input_shapes(op, shape):
    """The shapes of the op's inputs for a case of `shape`."""
    if op == "matmul":
        m, n, k = shape
        return [(m, k), (k, n)]
    return [tuple(shape)] * len(INPUTS[op])


def output_shape(op, shape):
    """The shape of the op's output for a case of `shape` (see the table above)."""
    shape = tuple(shape)
    if op == "sum_full":
        return ()
    if op in ("sum_inner", "max_inner"):
        return shape[:-1]
    if op == "sum_outer":
        return shape[-1:]
    if op == "matmul":
        return (shape[0], shape[1])
    return shape


def torch_dtype(torch, dtype):
    return getattr(torch, TORCH_DTYPES[dtype])


def make_inputs(torch, case, seed, device):
    """The case's input tensors, uniform in the op's range, drawn from `seed`."""
    generator = torch.Generator(device=device)
    generator.manual_seed(seed & (2**63 - 1))
    low, high = INPUT_RANGES.get(case.op, (-1.0, 1.0))
    dtype = torch_dtype(torch, case.dtype)

    def uniform(shape):
        x = torch.rand(shape, generator=generator, device=device, dtype=torch.float32)
        return (x * (high - low) + low).to(dtype)

    return [uniform(shape) for shape in input_shapes(case.op, case.shape)]


def poisoned_output(torch, case, device):
    """The preallocated output a user function writes into, filled with NaN so that an element it
    does not write fails verification."""
    out = torch.empty(output_shape(case.op, case.shape), dtype=torch_dtype(torch, case.dtype), device=device)
    return out.fill_(float("nan"))


def reference(torch, op, inputs):
    """(float64 reference output, float64 scale or None), from the exact input values."""
    x = [t.double() for t in inputs]
    if op == "add":
        return x[0] + x[1], x[0].abs() + x[1].abs()
    if op == "matmul":
        return x[0] @ x[1], x[0].abs() @ x[1].abs()
    if op == "sum_full":
        return x[0].sum(), x[0].abs().sum()
    if op == "sum_inner":
        return x[0].sum(dim=-1), x[0].abs().sum(dim=-1)
    if op == "sum_outer":
        axes = tuple(range(x[0].dim() - 1))
        return x[0].sum(dim=axes), x[0].abs().sum(dim=axes)
    if op == "max_inner":
        return x[0].amax(dim=-1), None
    if op == "softmax":
        return torch.softmax(x[0], dim=-1), None
    if op == "gelu_tanh":
        v = x[0]
        return 0.5 * v * (1 + torch.tanh(math.sqrt(2 / math.pi) * (v + 0.044715 * v ** 3))), v.abs()
    if op == "gelu_erf":
        v = x[0]
        return 0.5 * v * torch.special.erfc(-v / math.sqrt(2)), v.abs()
    raise KeyError(op)


def tolerance(op, dtype):
    return TOLERANCES[TOLERANCE_KIND[op]][dtype]


def empty_verification():
    """The `verification` block of a row that was not verified."""
    return {"mismatches": 0, "max_abs_error": 0.0, "rel_l2_error": 0.0}


def verify(torch, output, ref, scale, tolerance_):
    """(passed, verification dict, message), as kbench's compare_with_reference."""
    out = output.reshape(-1).double()
    ref = ref.reshape(-1)
    if out.numel() != ref.numel():
        return False, empty_verification(), f"output has {out.numel()} elements, reference {ref.numel()}"
    absolute, relative, scaled = tolerance_
    bound = absolute + relative * ref.abs()
    if scale is not None:
        bound = bound + scaled * scale.reshape(-1)
    finite = torch.isfinite(out)
    error = torch.where(finite, (out - ref).abs(), torch.zeros_like(out))
    bad = ~(finite & (error <= bound))
    mismatches = int(bad.sum())
    max_error = float(error.max()) if error.numel() else 0.0
    ref_norm = float(ref.square().sum())
    error_norm = float(error.square().sum())
    rel_l2 = math.sqrt(error_norm / ref_norm) if ref_norm > 0 else math.sqrt(error_norm)
    verification = {"mismatches": mismatches, "max_abs_error": max_error, "rel_l2_error": rel_l2}
    if mismatches == 0:
        return True, verification, f"ok: {out.numel()} elements, max |err| {max_error:.3g}, rel L2 err {rel_l2:.3g}"
    first = int(bad.nonzero()[0, 0])
    return False, verification, (f"{mismatches} of {out.numel()} elements outside tolerance (first at {first}: "
                                 f"got {float(out[first]):.8g}, expected {float(ref[first]):.8g})")


def set_tf32(torch, enabled):
    """Allows or forbids TF32 in fp32 matmuls (PyTorch's newer fp32_precision where it exists)."""
    matmul = torch.backends.cuda.matmul
    if hasattr(matmul, "fp32_precision"):
        matmul.fp32_precision = "tf32" if enabled else "ieee"
    else:
        matmul.allow_tf32 = enabled
