"""The results file's `device` and `kbench` blocks for a run of kbenchpy under PyTorch: the
device's attributes as kbench reads them (from the CUDA driver, else PyTorch), its peaks as kbench
computes them, and what build produced the rows."""
import os
import re
import subprocess
import sys

from . import results

HERE = os.path.dirname(os.path.abspath(__file__))

_CU_ATTRIBUTES = {"sm_clock_khz": 13, "ecc_enabled": 32, "memory_clock_khz": 36, "bus_width_bits": 37}


def driver_attributes(index):
    """What the CUDA driver API says of device `index`: the attributes above, driver_version and
    pci_bus_id; {} where libcuda cannot be loaded. PyTorch has initialised the driver already."""
    import ctypes
    try:
        cuda = ctypes.CDLL("libcuda.so.1")
    except OSError:
        return {}
    found = {}
    device, value = ctypes.c_int(), ctypes.c_int()
    if cuda.cuInit(0) != 0 or cuda.cuDeviceGet(ctypes.byref(device), index) != 0:
        return {}
    for key, attribute in _CU_ATTRIBUTES.items():
        if cuda.cuDeviceGetAttribute(ctypes.byref(value), attribute, device) == 0:
            found[key] = value.value
    if cuda.cuDriverGetVersion(ctypes.byref(value)) == 0:
        found["driver_version"] = value.value
    bus_id = ctypes.create_string_buffer(32)
    if cuda.cuDeviceGetPCIBusId(bus_id, len(bus_id), device) == 0:
        found["pci_bus_id"] = bus_id.value.decode()
    return found


def device_block(torch, index, peak_bw_override):
    """The results file's `device` object for CUDA device `index`."""
    props = torch.cuda.get_device_properties(index)
    driver = driver_attributes(index)

    def attribute(key, name):
        """The driver's attribute (what kbench reads), else PyTorch's property of that name, else 0."""
        value = driver.get(key) or getattr(props, name, 0)
        return value if isinstance(value, int) and value > 0 else 0

    pci = driver.get("pci_bus_id")
    if not pci and hasattr(props, "pci_bus_id"):
        pci = f"{getattr(props, 'pci_domain_id', 0):04X}:{props.pci_bus_id:02X}:{getattr(props, 'pci_device_id', 0):02X}.0"
    cuda_version = (torch.version.cuda or "0.0").split(".")
    device = {
        "index": index, "name": props.name, "pci_bus_id": pci or "unknown",
        "compute_capability": f"{props.major}.{props.minor}", "sm_count": props.multi_processor_count,
        "l2_bytes": int(getattr(props, "L2_cache_size", 0)), "global_memory_bytes": int(props.total_memory),
        "sm_clock_khz": attribute("sm_clock_khz", "clock_rate"),
        "memory_clock_khz": attribute("memory_clock_khz", "memory_clock_rate"),
        "bus_width_bits": attribute("bus_width_bits", "memory_bus_width"),
        "ecc_enabled": bool(driver.get("ecc_enabled", 0)),
        "driver_version": int(driver.get("driver_version", 0)),
        "runtime_version": int(cuda_version[0]) * 1000 + int(cuda_version[1]) * 10,
    }
    results.fill_peaks(device)
    if peak_bw_override > 0:
        device["peak_bandwidth_gbps"] = peak_bw_override
        device["peak_bandwidth_source"] = "override"
    return device


def git_state():
    """(commit, dirty) of the checkout this package lives in; "unknown" outside one. As for kbench's
    build (cmake/KbenchWriteBuildInfo.cmake), KBENCH_GIT_COMMIT and KBENCH_GIT_DIRTY name them for a
    copy whose .git is missing or stale (a lent GPU machine's)."""
    commit = os.environ.get("KBENCH_GIT_COMMIT", "")
    if re.fullmatch(r"[0-9a-f]+", commit):
        dirty = os.environ.get("KBENCH_GIT_DIRTY", "")
        return commit, dirty if dirty in ("true", "false") else "unknown"
    def git(*args):
        return subprocess.run(["git", "-C", HERE, *args], capture_output=True, text=True, timeout=10, check=True).stdout
    try:
        commit = git("rev-parse", "HEAD").strip()
        dirty = "true" if git("status", "--porcelain", "--untracked-files=no").strip() else "false"
        return commit, dirty
    except (OSError, subprocess.SubprocessError):
        return "unknown", "unknown"


def build_block(torch, version):
    """The results file's `kbench` object: `version` names what ran (kbenchpy, PyTorch, Triton);
    the git state is this checkout's."""
    commit, dirty = git_state()
    debug = bool(getattr(torch.version, "debug", False))
    # "sm_90" -> "90-real", "compute_90" -> "90-virtual", as CMAKE_CUDA_ARCHITECTURES spells them
    arches = [arch.split("_")[-1] + ("-virtual" if arch.startswith("compute") else "-real")
              for arch in torch.cuda.get_arch_list()]
    return {"version": version, "git_commit": commit, "git_dirty": dirty,
            "build_type": "Debug" if debug else "Release", "optimized": not debug, "device_debug": False,
            "cuda_architectures": ",".join(arches),
            "cxx_compiler": f"Python {sys.version.split()[0]}", "cuda_compiler": f"CUDA {torch.version.cuda}"}
