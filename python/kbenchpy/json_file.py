"""Reading one JSON document from a file, with errors that name the file."""
import gzip
import json


def read_json(path, error_type):
    """The JSON document in file `path` (gzip-compressed when the name ends in .gz, as large
    results files are kept); raises `error_type` with one line naming the file when it cannot be
    opened or read, or is not JSON."""
    try:
        with (gzip.open if str(path).endswith(".gz") else open)(path, "rt", encoding="utf-8") as f:
            text = f.read()
    except (OSError, EOFError, UnicodeDecodeError) as error:
        reason = getattr(error, "strerror", None) or str(error) or type(error).__name__
        raise error_type(f"{path}: cannot open for reading ({reason})") from None
    try:
        return json.loads(text)
    except ValueError as error:
        raise error_type(f"{path}: not valid JSON: {error}") from None
