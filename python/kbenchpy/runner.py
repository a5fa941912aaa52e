"""One run of a plan: the rows each case gets (user functions, PyTorch's ops), then, on the GPU,
each row verified against the float64 reference and timed with kbench's method, into a results
document (results/SCHEMA.md, version 1) that `kbench report`, `compare` and `gate` read.

Per case and row: the first call on the case's inputs is the verifying one; its wall time to
completion (synchronised before and after) is the row's `first_call_ms`, kept apart from the
timed steady state: a Triton kernel compiles, and autotunes, there; torch.compile compiles there.
Then each mode is timed (measure.Sampler). After the run, one profiled call per row counts
kernels_per_call.

plan_rows() needs no PyTorch; Run does.
"""
import datetime
import secrets
import socket
import sys
import time
from dataclasses import dataclass
from typing import Optional

from . import op_contract, results, settings as settings_keys, user_module
from .measure import Sampler, count_kernels
from .device import build_block, device_block
from .plan import format_shape
from .torch_ops import make_callable, torch_ops

EXIT_OK, EXIT_CASE_FAILED, EXIT_USAGE, EXIT_NO_DEVICE, EXIT_INTERRUPTED = 0, 1, 2, 3, 130
NOT_RUN = "not run"


class UsageError(Exception):
    """Bad command line, plan or module set: exit code 2."""


class NoDevice(Exception):
    """No PyTorch, or no CUDA device: exit code 3."""


@dataclass
class Planned:
    """A row and what runs it: a user function, a PyTorch variant's name, or None for a row whose
    status is already final (an error found before the GPU, a skip)."""
    row: dict
    function: Optional[user_module.KernelFunction] = None
    torch_variant: Optional[str] = None

    @property
    def to_run(self):
        return self.row["status"] == "skipped" and self.row["message"] == NOT_RUN


def _row(case, variant, role, source=None):
    return results.new_row(case.op, variant, role, 1, case.dtype, case.size_class, case.shape, case.elements,
                           case.traffic, source)


def _final(row, status, message):
    row["status"], row["message"] = status, message
    return Planned(row)


def _module_rows(module, case):
    """The rows one user module gives a case."""
    if module.error:
        return [_final(_row(case, module.stem, "own", module.path), "error", module.error)]
    functions = module.functions_for(case.op)
    if not functions:
        return [_final(_row(case, module.stem, "own", module.path), "error", user_module.missing_function(module, case.op))]
    planned = []
    for function in functions:
        row = _row(case, function.name, "own", function.source)
        if not op_contract.supports(case.op):
            planned.append(_final(row, "error", f"{function.source}: kbenchpy has no inputs or reference for op "
                                                f"'{case.op}'"))
        elif not function.serves(case.dtype):
            planned.append(_final(row, "skipped", f"skipped: {function.source} declares dtypes "
                                                  f"{', '.join(function.dtypes)}"))
        else:
            problem = user_module.signature_problem(function)
            planned.append(_final(row, "error", problem) if problem else Planned(row, function=function))
    return planned


def plan_rows(plan, modules, torch_variants):
    """[(case, [Planned, ...])] for every case of the plan, skipped cases last: each module's rows,
    then the PyTorch rows. UsageError when two rows of one case would share a variant name."""
    planned = []
    skipped = {id(case): reason for case, reason in plan.skipped_cases}
    for case in list(plan.cases) + [case for case, _ in plan.skipped_cases]:
        rows = [p for module in modules for p in _module_rows(module, case)]
        for name in torch_variants:
            row = _row(case, name, "baseline")
            rows.append(Planned(row, torch_variant=name) if op_contract.supports(case.op) else
                        _final(row, "error", f"{name}: kbenchpy has no PyTorch function for op '{case.op}'"))
        seen = {}
        for p in rows:
            where = p.row.get("source", p.row["variant"])
            if p.row["variant"] in seen:
                raise UsageError(f"variant '{p.row['variant']}' of {where} repeats {seen[p.row['variant']]} "
                                 f"for op {case.op}: rename one of the functions")
            seen[p.row["variant"]] = where
        if id(case) in skipped:  # nothing runs, and nothing is held against the module here
            for p in rows:
                p.row["status"], p.row["message"] = "skipped", "skipped: " + skipped[id(case)]
                p.function = p.torch_variant = None
        planned.append((case, rows))
    return planned


def mix_seed(seed, index):
    """SplitMix-style mixing so that neighbouring problems get unrelated inputs (as kbench)."""
    mask = 2**64 - 1
    z = (seed + 0x9E3779B97F4A7C15 * (index + 1)) & mask
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
    return z ^ (z >> 31)


def format_ms(ms):
    if ms <= 0:
        return "-"
    return f"{ms * 1e3:.2f} µs" if ms < 1 else f"{ms:.3f} ms"


def print_dry_run(plan, planned, out=None):
    """The cases and their rows as `kbench --dry-run` prints them, each failure on its own line,
    then the counts."""
    out = out or sys.stdout
    for case, rows in planned:
        runs = [p.row["variant"] for p in rows if p.to_run]
        if runs:
            print(f"{case.label()}: {', '.join(runs)}", file=out)
        for p in rows:
            if not p.to_run:
                print(f"{case.label()}: {p.row['status'].upper()} {p.row['variant']}: {p.row['message']}", file=out)
    to_run = sum(1 for _, rows in planned for p in rows if p.to_run)
    other = sum(1 for _, rows in planned for p in rows if not p.to_run)
    print(f"{len(plan.cases)} problems, {to_run} rows" + (f"; {other} rows not run (above)" if other else ""),
          file=out)


def version_text(torch):
    """The results file's kbench.version: kbenchpy, PyTorch and, where installed, Triton."""
    from . import __version__
    text = f"kbenchpy {__version__}, PyTorch {torch.__version__}"
    try:
        import triton
        text += f", Triton {triton.__version__}"
    except Exception:
        pass
    return text


class Run:
    """One run of a plan on the GPU: the device, settings and rows, and the document they make."""

    def __init__(self, torch, plan, options, command_line):
        self.torch, self.plan, self.options = torch, plan, options
        # kbenchpy collects no hardware counters: its results must not claim a plan's counters setting
        # (kbench leaves the key out at its default, 0).
        self.settings = {key: value for key, value in plan.settings.items() if key != "counters"}
        self.ops = torch_ops(torch)
        self.device = device_block(torch, options.device, options.peak_bw)
        self.build = build_block(torch, version_text(torch))
        seed = options.seed if options.seed is not None else plan.seed
        self.seed = seed if seed is not None else secrets.randbits(64)
        self.utc_time = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
        self.command_line = command_line
        self.sampler = None
        self.context_lost = False

    def save(self, rows, run_state):
        """The document so far, also written to --json when given."""
        document = results.make_document(self.build, self.command_line, self.utc_time, socket.gethostname(),
                                         self.seed, run_state, self.device, self.settings, rows,
                                         self.plan.thresholds)
        if self.options.json:
            results.write_results(document, self.options.json)
        return document

    def context_alive(self):
        try:
            self.torch.ones(1, device="cuda").add_(1)
            self.torch.cuda.synchronize()
            return True
        except Exception:
            return False

    def fail(self, row, message, error=None):
        """Marks `row` as an error; notes a lost CUDA context."""
        row["status"], row["message"] = "error", message
        if error is not None and isinstance(error, self.torch.cuda.OutOfMemoryError):
            self.torch.cuda.empty_cache()
        elif not self.context_alive():
            self.context_lost = True

    def lacks_memory(self, case):
        """Empty when the device has room for the case and its float64 reference, else why not."""
        total = case.traffic["bytes_read"] + case.traffic["bytes_written"]
        needed = total * (1 + 3 * 8 / op_contract.DTYPE_BYTES[case.dtype]) + (256 << 20)
        free, _ = self.torch.cuda.mem_get_info()
        return "" if needed <= free else f"needs about {needed / 2**20:.0f} MiB of device memory, {free / 2**20:.0f} MiB free"

    def call_of(self, p, inputs, out):
        """The steady-state call of a planned row: fn(*inputs, out) or PyTorch's fn(*inputs)."""
        if p.function is not None:
            fn = p.function.fn
            return lambda: fn(*inputs, out)
        fn = make_callable(self.torch, self.ops, p.torch_variant, p.row["op"])
        return lambda: fn(*inputs)

    def first_call(self, p, inputs, out, steady):
        """(output tensor, wall ms) of the row's first call on these inputs, synchronised on both
        sides: a user function called and checked as the convention says (KernelError,
        KernelIncorrect), or PyTorch's `steady` call (torch.compile compiles on it)."""
        torch = self.torch
        if p.function is not None:
            out.fill_(float("nan"))
            call = lambda: user_module.call_checked(p.function, inputs, out)  # noqa: E731
        else:
            call = steady
        torch.cuda.synchronize()
        start = time.perf_counter()
        output = call()
        torch.cuda.synchronize()
        return output, (time.perf_counter() - start) * 1e3

    def verify_row(self, p, case, inputs, out, ref, scale):
        """Verifies one row; returns its steady-state call when it passed, else None."""
        row = p.row
        where = row.get("source", row["variant"])
        try:
            steady = self.call_of(p, inputs, out)
            output, row["first_call_ms"] = self.first_call(p, inputs, out, steady)
            passed, row["verification"], message = op_contract.verify(
                self.torch, output, ref, scale, op_contract.tolerance(case.op, case.dtype))
        except user_module.KernelIncorrect as error:
            row["status"], row["message"] = "incorrect", str(error)
            return None
        except user_module.KernelError as error:
            self.fail(row, str(error), error.__cause__)
            return None
        except Exception as error:  # a compile failure, an OOM, a CUDA error
            lines = str(error).strip().splitlines()
            self.fail(row, f"{where}: {type(error).__name__}: {lines[0] if lines else 'no message'}", error)
            return None
        row["message"] = message if p.function is None else f"{where}: {message}"
        if not passed:
            row["status"] = "incorrect"
            return None
        return steady

    def run_case(self, case, rows, seed):
        """Verifies, then times, each row of the case that is to run."""
        torch = self.torch
        todo = [p for p in rows if p.to_run]
        if not todo:
            return
        why = self.lacks_memory(case)
        if why:
            for p in todo:
                p.row["message"] = "skipped: " + why
            return
        if case.op == "matmul":
            op_contract.set_tf32(torch, case.dtype == "tf32")
        inputs = op_contract.make_inputs(torch, case, seed, "cuda")
        out = op_contract.poisoned_output(torch, case, "cuda")
        ref, scale = op_contract.reference(torch, case.op, inputs)
        calls = []
        for p in todo:
            call = self.verify_row(p, case, inputs, out, ref, scale)
            if self.context_lost:
                return
            if call is not None:
                calls.append((p, call))
        del ref, scale
        working_set = case.traffic["bytes_read"] + case.traffic["bytes_written"]
        for p, call in calls:
            row, failures = p.row, ""
            for mode in settings_keys.parse_modes(self.settings["modes"]):
                try:
                    row["timings"].append(self.sampler.measure(mode, call, working_set))
                except Exception as error:
                    if not self.context_alive():
                        self.fail(row, f"{row.get('source', row['variant'])}: {type(error).__name__}: {error}")
                        return
                    failures += f"; {mode} mode not measured: {type(error).__name__}: {error}"
            row["status"] = "passed" if row["timings"] else "error"
            row["message"] = row["message"] + failures if row["timings"] else "no mode could be measured" + failures

    def count_kernels(self, planned):
        """Sets kernels_per_call of every passed row from one profiled call."""
        for index, (case, rows) in enumerate(planned):
            passed = [p for p in rows if p.row["status"] == "passed"]
            if not passed:
                continue
            if case.op == "matmul":
                op_contract.set_tf32(self.torch, case.dtype == "tf32")
            inputs = op_contract.make_inputs(self.torch, case, mix_seed(self.seed, index), "cuda")
            out = op_contract.poisoned_output(self.torch, case, "cuda")
            for p in passed:
                try:
                    p.row["kernels_per_call"] = count_kernels(self.torch, self.call_of(p, inputs, out))
                except Exception as error:
                    p.row["message"] += f"; kernels per call not counted: {type(error).__name__}: {error}"

    def execute(self, planned):
        """Runs every case; returns the exit code. The --json file is rewritten after every case."""
        torch = self.torch
        d = self.device
        print(f"Device {d['index']}: {d['name']} (sm_{d['compute_capability'].replace('.', '')}, {d['sm_count']} SMs); "
              f"peak bandwidth {d['peak_bandwidth_gbps']:.0f} GB/s ({d['peak_bandwidth_source']}); {self.build['version']}, "
              f"CUDA {torch.version.cuda}")
        self.sampler = Sampler(torch, self.device, self.settings)
        all_rows = [p.row for _, rows in planned for p in rows]
        interrupted = False
        for index, (case, rows) in enumerate(planned):
            to_run = [p for p in rows if p.to_run]
            if self.context_lost or interrupted:
                why = "the CUDA context was lost in an earlier case" if self.context_lost else \
                    "the run was interrupted (SIGINT or SIGTERM) before this case"
                for p in to_run:
                    p.row["message"] = "skipped: " + why
                continue
            try:
                self.run_case(case, rows, mix_seed(self.seed, index))
                print(f"[{index + 1}/{len(planned)}] {case.label()}", file=sys.stderr)
                self.print_rows([p.row for p in rows])
                self.save(all_rows, "in_progress")
            except KeyboardInterrupt:
                interrupted = True
                for p in to_run:
                    if p.row["status"] == "skipped":  # not finished: drop what it measured
                        p.row.update(message="skipped: the run was interrupted (SIGINT or SIGTERM) before this row",
                                     timings=[], verification=op_contract.empty_verification())
                        p.row.pop("first_call_ms", None)
        if not (interrupted or self.context_lost or self.options.no_kernel_count):
            try:
                self.count_kernels(planned)
            except KeyboardInterrupt:
                interrupted = True
        run_state = "interrupted" if interrupted else "context_lost" if self.context_lost else "complete"
        document = self.save(all_rows, run_state)
        if self.options.json:
            print(f"Results written to {self.options.json} ({run_state})")
        if interrupted:
            print("kbenchpy: interrupted: finished rows are kept", file=sys.stderr)
            return EXIT_INTERRUPTED
        failed = any(row["status"] in ("incorrect", "error") for row in document["cases"])
        return EXIT_CASE_FAILED if failed or self.context_lost else EXIT_OK

    def print_rows(self, rows):
        results.derive_metrics(rows, self.device, self.plan.thresholds)
        for row in rows:
            line = f"  {row['op']} {row['dtype']} {format_shape(row['shape'])} {row['variant']}: "
            if row["status"] != "passed":
                print(line + f"{row['status'].upper()}: {row['message']}")
                continue
            times = ", ".join(f"{t['mode']} {format_ms(t['stats']['median_ms'])}" for t in row["timings"])
            d = row["derived"]
            print(line + f"first call {format_ms(row['first_call_ms'])}; {times}; {d['bandwidth_gbps']:.0f} GB/s, "
                         f"{d['tflops']:.2f} TFLOP/s, {100 * d['efficiency']:.1f}% of peak ({d['bound']}-bound), "
                         f"{d['band']}")
