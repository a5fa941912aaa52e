"""kbenchpy: Python kernels (Triton, ...) and PyTorch's own ops under kbench's method.

kbench writes the plan (`kbench ... --dry-run --json PLAN`, results/PLAN_SCHEMA.md): the cases,
their byte and FLOP model, the settings and thresholds. kbenchpy reads it, verifies each row
against a float64 reference, times it as kbench does (cold, hot, eager) and writes a kbench
results file (results/SCHEMA.md). Run it as `python3 -m kbenchpy torch|run ...` (kbenchpy.cli).

    plan          reads and checks a plan; asks kbench for one (--config)
    user_module   the module convention: loading user modules, checking and calling their functions
    op_contract   each op's inputs and output, the inputs drawn, the float64 reference, verification
    torch_ops     PyTorch's own ops as rows (torch_eager, torch_compile)
    runner        the rows of each case, and the run: verify, first call, time, count kernels
    measure       kbench's measurement method in PyTorch (harness/measure/measure.cpp)
    device        the results file's device and build blocks
    settings      the measurement settings' keys and types as plans and results carry them
    stats         sample statistics and the stopping rule (harness/results/stats.cpp, stopping_rule.cpp)
    thresholds    status bands from thresholds in configs/thresholds.json's format
    results       results documents, schema version 1: derived figures, writing, reading

Everything but the measurement imports only the standard library: PyTorch (and Triton, through a
user's module) is imported only to run cases.
"""
__version__ = "1.0.0"
