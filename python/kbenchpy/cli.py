"""`python3 -m kbenchpy`: Python kernels and PyTorch's ops under kbench's method, from kbench's plan.

    python3 -m kbenchpy torch (--plan PLAN | --config FILE) [--compile] [--json OUT] ...
    python3 -m kbenchpy run   (--plan PLAN | --config FILE) --module FILE [--module FILE] [--torch] [--compile] ...

Options after a lone `--` go to kbench when it writes the plan for --config (its selection and
measurement options: --op, --size, --dtype, --shape, --min-samples, ...).

Exit codes: 0 every row passed or was skipped; 1 a row was incorrect or an error, or the CUDA
context was lost; 2 bad usage, plan or modules; 3 no PyTorch or no CUDA device; 130 interrupted
(SIGINT/SIGTERM): finished rows are kept in the --json file.
"""
import argparse
import os
import shlex
import signal
import sys

from . import plan as plan_reader
from . import user_module
from .runner import (EXIT_INTERRUPTED, EXIT_NO_DEVICE, EXIT_OK, EXIT_USAGE, NoDevice, Run, UsageError, plan_rows,
                     print_dry_run)
from .torch_ops import VARIANTS as TORCH_VARIANTS

PROG = "python3 -m kbenchpy"


def _common(parser):
    source = parser.add_argument_group("the plan (one of)")
    source.add_argument("--plan", metavar="PLAN", help="a plan written by kbench ... --dry-run --json PLAN "
                                                       "(results/PLAN_SCHEMA.md)")
    source.add_argument("--config", metavar="FILE", help="a kbench sweep config: kbench writes the plan "
                                                         "(kbench --config FILE [args after --] --dry-run --json TMP)")
    source.add_argument("--kbench", metavar="PATH", help="the kbench binary for --config (default: $KBENCH, else "
                                                         "kbench on PATH)")
    parser.add_argument("--compile", action="store_true",
                        help="add a torch_compile row: the op through torch.compile(dynamic=False), compiled per case")
    parser.add_argument("--json", metavar="OUT", help="write the results document here (rewritten after every case)")
    parser.add_argument("--force", action="store_true", help="replace an existing --json file")
    parser.add_argument("--device", type=int, default=0, metavar="N", help="CUDA device index (default 0)")
    parser.add_argument("--seed", type=int, metavar="N",
                        help="seed of the random inputs (default: the plan's --seed, else fresh)")
    parser.add_argument("--peak-bw", type=float, default=0.0, metavar="GBPS",
                        help="peak bandwidth in GB/s to compute efficiency against (default: from the device)")
    parser.add_argument("--no-kernel-count", action="store_true",
                        help="skip the profiler pass that counts kernels per call (kernels_per_call is then 1)")
    parser.add_argument("--dry-run", action="store_true",
                        help="load the modules, list every case's rows and what fails before the GPU; touch no GPU")


def parse_args(argv):
    """(args, kbench_args): the arguments before a lone `--`, and those after it."""
    if "--" in argv:
        cut = argv.index("--")
        argv, kbench_args = argv[:cut], argv[cut + 1:]
    else:
        kbench_args = []
    parser = argparse.ArgumentParser(
        prog=PROG, formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Verify and time PyTorch's ops, or your own Python kernels (Triton, ...), on the cases of a "
                    "kbench plan with kbench's method; write a kbench results file (schema 1) that kbench report, "
                    "report --against, compare and gate read.",
        epilog="Arguments after a lone -- go to kbench when it writes the plan for --config. "
               "The module convention: python3 -c 'import kbenchpy.user_module as m; help(m)'.")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    torch_parser = commands.add_parser("torch", help="PyTorch's own ops: a torch_eager row per case (role baseline)",
                                       description="PyTorch's own ops on the plan's cases: torch_eager rows and, "
                                                   "with --compile, torch_compile rows (role baseline).")
    _common(torch_parser)
    run_parser = commands.add_parser("run", help="your module's functions: one row per function and case (role own)",
                                     description="Your modules' functions on the plan's cases, one row each (role "
                                                 "own); the convention is in kbenchpy/user_module.py and the README.")
    run_parser.add_argument("--module", action="append", default=[], metavar="FILE", required=True,
                            help="a Python file with functions named after ops, or a KBENCH_KERNELS table; repeatable")
    run_parser.add_argument("--torch", action="store_true", help="add a torch_eager row per case (role baseline)")
    _common(run_parser)
    args = parser.parse_args(argv)
    if args.command == "torch":
        args.module, args.torch = [], True
    return args, kbench_args


def _same_file(a, b):
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def check_output_path(args):
    if not args.json:
        return
    folder = os.path.dirname(args.json)
    if folder and not os.path.isdir(folder):
        raise UsageError(f"--json: folder '{folder}' does not exist")
    for name in [args.plan, args.config] + args.module:
        if name and _same_file(args.json, name):
            raise UsageError(f"--json: refusing to write '{args.json}': it is the input file '{name}'")
    if os.path.exists(args.json) and not args.force:
        raise UsageError(f"--json: '{args.json}' exists; give --force to replace it")


def load_plan(args, kbench_args):
    for i, path in enumerate(args.module):
        if any(_same_file(path, other) for other in args.module[:i]):
            raise UsageError(f"--module {path}: given twice")
    if bool(args.plan) == bool(args.config):
        raise UsageError("give one of --plan PLAN or --config FILE")
    if args.plan:
        if kbench_args:
            raise UsageError(f"arguments after -- ({' '.join(kbench_args)}) go to kbench with --config; "
                             "a --plan is already narrowed")
        return plan_reader.read_plan(args.plan)
    return plan_reader.plan_from_config(args.config, plan_reader.find_kbench(args.kbench), kbench_args)


def import_torch(device_index):
    """PyTorch, with CUDA device `device_index` current; NoDevice when either is missing."""
    try:
        import torch
    except ImportError as error:
        raise NoDevice(f"PyTorch is not installed for {sys.executable} ({error})") from None
    if not torch.cuda.is_available():
        raise NoDevice("no CUDA device: torch.cuda.is_available() is False")
    if not 0 <= device_index < torch.cuda.device_count():
        raise UsageError(f"--device {device_index}: there are {torch.cuda.device_count()} CUDA devices")
    torch.cuda.set_device(device_index)
    return torch


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    args, kbench_args = parse_args(argv)
    try:
        plan = load_plan(args, kbench_args)
        check_output_path(args)
        ops = sorted({case.op for case in plan.cases} | {case.op for case, _ in plan.skipped_cases})
        if not args.dry_run:
            torch = import_torch(args.device)  # before the modules: they may need a CUDA context
        modules = [user_module.load_module(path, ops) for path in args.module]
        for module in modules:
            if module.error:
                print(f"kbenchpy: {module.error}", file=sys.stderr)
        torch_variants = (TORCH_VARIANTS[:1] if args.torch else ()) + (TORCH_VARIANTS[1:] if args.compile else ())
        planned = plan_rows(plan, modules, torch_variants)
        if args.dry_run:
            print_dry_run(plan, planned)
            return EXIT_OK
    except (plan_reader.PlanError, UsageError) as error:
        print(f"kbenchpy: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    except NoDevice as error:
        print(f"kbenchpy: error: {error}", file=sys.stderr)
        return EXIT_NO_DEVICE
    signal.signal(signal.SIGTERM, signal.default_int_handler)  # SIGTERM stops like Ctrl-C
    try:
        command_line = shlex.join(["python3", "-m", "kbenchpy"] + argv)
        return Run(torch, plan, args, command_line).execute(planned)
    except KeyboardInterrupt:  # before the first case: nothing to keep
        print("kbenchpy: interrupted before the first case", file=sys.stderr)
        return EXIT_INTERRUPTED


if __name__ == "__main__":
    sys.exit(main())
