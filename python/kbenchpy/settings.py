"""The measurement settings as a plan or results file carries them (`settings`, keyed as kbench's
Measurement options): their JSON types and the checks the measurement relies on. The values
themselves, defaults included, come from kbench's plan; nothing here mirrors them."""

MODES = ("cold", "hot", "eager")  # measurement order

#: Key -> the JSON type kbench writes for it ("number" accepts integers too).
TYPES = {"modes": "string", "warmup_calls": "integer", "warmup_time_s": "number", "min_samples": "integer",
         "max_samples": "integer", "min_time_s": "number", "max_noise": "number", "timeout_s": "number",
         "flush_l2": "integer", "clock_floor": "number", "keep_samples": "integer"}


def parse_modes(text):
    """The modes `text` names ("cold,eager", "all"), in measurement order; ValueError if unknown."""
    wanted = [item.strip() for item in text.split(",") if item.strip()]
    if not wanted:
        raise ValueError("modes is empty; expected cold, hot, eager or all")
    for mode in wanted:
        if mode != "all" and mode not in MODES:
            raise ValueError(f"modes: unknown mode '{mode}'; valid: cold, hot, eager, all")
    return [mode for mode in MODES if mode in wanted or "all" in wanted]


def type_problem(key, value):
    """"" when `value` has the JSON type kbench writes for setting `key`, else what was expected."""
    kind = TYPES[key]
    if kind == "string":
        return "" if isinstance(value, str) else "expected a string"
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return f"expected {'an integer' if kind == 'integer' else 'a number'}"
    if kind == "integer" and not isinstance(value, int):
        return "expected an integer"
    return ""


def validate(settings):
    """"" when the values are usable by the measurement, else what is wrong."""
    for key in TYPES:
        if TYPES[key] != "string" and settings[key] < 0:
            return f"{key} is {settings[key]:g}; expected a value >= 0"
    if settings["min_samples"] < 1 or settings["max_samples"] < settings["min_samples"]:
        return (f"min_samples is {settings['min_samples']} and max_samples {settings['max_samples']}; "
                "expected 1 <= min_samples <= max_samples")
    try:
        parse_modes(settings["modes"])
    except ValueError as error:
        return str(error)
    return ""
