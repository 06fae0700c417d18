"""The same bits on any CPU: committed runs, exact analyses, trained weights and statistics
recomputed under several BLAS kernels and SIMD settings must agree with each other and
with the committed results.

Each setting runs ``any_cpu_probe.py`` in a fresh process: OpenBLAS forced to each kernel
this CPU can execute (``OPENBLAS_CORETYPE``), numpy's dispatched SIMD loops cut back to
AVX2 and to its baseline (``NPY_DISABLE_CPU_FEATURES``), and an "old machine": the C
library's AVX2/FMA variants off (``GLIBC_TUNABLES``), numba compiling for a generic x86-64
(``NUMBA_CPU_NAME``), numpy at its baseline and the oldest BLAS kernel.
"""

import json
import os
import platform
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent

#: OpenBLAS kernels and the CPU flags each needs to run.
KERNELS = {"Prescott": {"sse3"}, "Sandybridge": {"avx"}, "Haswell": {"avx2", "fma"}, "Zen": {"avx2", "fma"}, "SkylakeX": {"avx512f"}}


def cpu_flags() -> set:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("flags"):
                return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return set()


def numpy_groups(env) -> list:
    """numpy's dispatch targets above AVX2 (or all, with ``all``) that this machine has."""
    from numpy._core._multiarray_umath import __cpu_dispatch__, __cpu_features__

    keep = [] if env == "all" else ["X86_V3"]
    return [g for g in __cpu_dispatch__ if g not in keep and __cpu_features__.get(g)]


def settings() -> dict:
    flags = cpu_flags()
    out = {"default": {}}
    for name, needs in KERNELS.items():
        if needs <= flags:
            out[f"openblas-{name}"] = {"OPENBLAS_CORETYPE": name}
    if platform.machine() in ("x86_64", "AMD64"):
        above_avx2 = numpy_groups("above")
        if above_avx2:
            out["numpy-avx2"] = {"NPY_DISABLE_CPU_FEATURES": " ".join(above_avx2)}
        old = {"GLIBC_TUNABLES": "glibc.cpu.hwcaps=-AVX2,-FMA,-AVX512F,-AVX512DQ", "NUMBA_CPU_NAME": "generic",
               "OPENBLAS_CORETYPE": "Prescott"}
        if numpy_groups("all"):
            old["NPY_DISABLE_CPU_FEATURES"] = " ".join(numpy_groups("all"))
        out["old-machine"] = old
    return out


def probe(env: dict) -> dict:
    run = subprocess.run([sys.executable, str(HERE / "any_cpu_probe.py")], capture_output=True, text=True, cwd=HERE.parent,
                         env={**os.environ, **env}, timeout=600)
    assert run.returncode == 0, run.stderr[-3000:]
    return json.loads(run.stdout)


def test_committed_results_and_exact_numbers_are_the_same_bits_under_every_kernel():
    cases = settings()
    assert len(cases) >= 3, cases  # at least two kernels or an old machine besides the default
    with ThreadPoolExecutor(2) as pool:
        reports = dict(zip(cases, pool.map(probe, cases.values())))
    digests = {name: r["digest"] for name, r in reports.items()}
    assert len(set(digests.values())) == 1, digests
    for name, r in reports.items():
        assert all(r["matches_committed"].values()), (name, r["matches_committed"])
