"""Reading one JSON document from a file, with errors that name the file."""
import json


def read_json(path, error_type):
    """The JSON document in file `path`; raises `error_type` with one line naming the file when it
    cannot be opened or is not JSON."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as error:
        raise error_type(f"{path}: cannot open for reading ({error.strerror})") from None
    try:
        return json.loads(text)
    except ValueError as error:
        raise error_type(f"{path}: not valid JSON: {error}") from None
