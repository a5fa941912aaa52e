"""kbench's Python side: what the scripts under scripts/ share.

The scripts talk to kbench only through its files: sweep configs (configs/README.md), the
thresholds file and the results schema (results/SCHEMA.md). This package re-implements the
little of kbench they need, in plain Python with no third-party imports:

    dtypes      dtype names, aliases and element sizes (harness/ops/dtype.cpp)
    ops         the ops' declared traffic, dtypes and shape rules (kernels/*/..._op.cpp)
    sweep       sweep configs: parsing, axis expansion, filters and skips (harness/sweep_*.cpp,
                harness/plan/config_plan.cpp); the case list matches `kbench --config FILE --dry-run`
    settings    the measurement settings table (harness/config/measure_settings.cpp)
    stats       sample statistics and the stopping rule (harness/results/stats.cpp, stopping_rule.cpp)
    thresholds  status bands from configs/thresholds.json (harness/config/thresholds.cpp)
    results     results documents, schema version 1: derived figures (harness/results/metrics.cpp),
                writing, and reading with checks
"""
