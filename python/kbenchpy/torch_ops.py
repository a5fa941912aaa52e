"""PyTorch's own ops as rows (role baseline): `torch_eager`, the op as a PyTorch user writes it, and
`torch_compile`, the same function through torch.compile(dynamic=False), compiled afresh per case.

    add        a + b                        softmax    torch.softmax(x, dim=-1)
    sum_full   x.sum()                      gelu_tanh  F.gelu(x, approximate="tanh")
    sum_inner  x.sum(dim=-1)                gelu_erf   F.gelu(x)
    sum_outer  x.sum(dim=(0, ..., n-2))     matmul     A @ B, A MxK and B KxN for shape MxNxK
    max_inner  x.amax(dim=-1)

Outputs are in the input's dtype, as kbench's (PyTorch accumulates fp16 and bf16 reductions in
fp32, as kbench does). Matmul tf32 runs fp32 tensors with TF32 allowed in cuBLAS; matmul fp32
runs with TF32 disallowed; fp16 and bf16 use PyTorch's defaults.
"""

VARIANTS = ("torch_eager", "torch_compile")


def torch_ops(torch):
    """Op name -> the PyTorch function a user writes for it. Built once PyTorch is imported; the
    functions use no import statement, so torch.compile traces them plainly."""
    functional = torch.nn.functional

    def add(a, b):
        return a + b

    def sum_full(x):
        return x.sum()

    def sum_inner(x):
        return x.sum(dim=-1)

    def sum_outer(x):
        return x.sum(dim=tuple(range(x.dim() - 1)))

    def max_inner(x):
        return x.amax(dim=-1)

    def softmax(x):
        return torch.softmax(x, dim=-1)

    def gelu_tanh(x):
        return functional.gelu(x, approximate="tanh")

    def gelu_erf(x):
        return functional.gelu(x)

    def matmul(a, b):
        return a @ b

    return {"add": add, "sum_full": sum_full, "sum_inner": sum_inner, "sum_outer": sum_outer, "max_inner": max_inner,
            "softmax": softmax, "gelu_tanh": gelu_tanh, "gelu_erf": gelu_erf, "matmul": matmul}


def make_callable(torch, ops, variant, op):
    """The function a variant calls: the op itself (from torch_ops), or torch.compile of it,
    compiled afresh."""
    fn = ops[op]
    if variant == "torch_eager":
        return fn
    torch._dynamo.reset()  # a fresh compile per case: no recompile limit, no guards of other cases
    return torch.compile(fn, dynamic=False)
