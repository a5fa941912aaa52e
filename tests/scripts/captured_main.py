"""A script's or package's main(argv) run with its standard output and error captured."""
import contextlib
import io


def run_captured(main, argv):
    """(exit code, stdout, stderr) of main(list(argv)); a SystemExit (argparse's usage errors and
    --help) gives its code."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(list(argv))
        except SystemExit as exit_:
            code = exit_.code
    return code, out.getvalue(), err.getvalue()
