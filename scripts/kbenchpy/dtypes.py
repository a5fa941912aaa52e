"""Dtype names, aliases and element sizes, as kbench spells them (harness/ops/dtype.cpp)."""

#: Canonical name -> bytes per element. tf32 is stored as fp32 (a matmul math mode, not a format).
DTYPE_SIZES = {"fp32": 4, "fp16": 2, "bf16": 2, "tf32": 4}

#: The dtypes every op runs; `tf32` exists for matmul only.
ALL_DTYPES = ("fp32", "fp16", "bf16")

_ALIASES = {
    "fp32": "fp32", "f32": "fp32", "float32": "fp32", "float": "fp32",
    "fp16": "fp16", "f16": "fp16", "float16": "fp16", "half": "fp16",
    "bf16": "bf16", "bfloat16": "bf16",
    "tf32": "tf32",
}


def parse_dtype(text):
    """The canonical name of a dtype name or alias ("half" -> "fp16"), or None when unknown."""
    return _ALIASES.get(text) if isinstance(text, str) else None


def dtype_size(name):
    """Bytes per element of a canonical dtype name."""
    return DTYPE_SIZES[name]
