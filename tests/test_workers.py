"""Parallel workers: the same grades as one worker, and one device set per worker."""
import shutil

from conftest import fresh_tiny, grade, release_nb, submit_solution
from jaxcourse.authoring import fabricate
from jaxcourse.run.platforms import default_workers, usable_cores, worker_env
from test_resume import export_totals


def test_parallel_grading_matches_serial(tmp_path):
    serial = fresh_tiny(tmp_path / "serial")
    submit_solution(serial, "a")
    fabricate.submit(serial, "b", "tiny", release_nb(serial, "tiny"))
    for mutant in fabricate.mutants(serial, "tiny"):
        fabricate.submit(serial, mutant.name, "tiny", fabricate.solved(serial, "tiny", release_nb(serial, "tiny"), mutant))
    parallel_root = tmp_path / "parallel"
    shutil.copytree(serial.root, parallel_root)
    parallel = type(serial).at(parallel_root)
    grade(serial, "tiny", workers=1)
    grade(parallel, "tiny", workers=3)
    assert (serial.grades / "tiny.csv").read_text() == (parallel.grades / "tiny.csv").read_text()
    assert export_totals(serial) == export_totals(parallel)


def test_default_worker_counts():
    assert default_workers("cpu") == usable_cores() >= 1
    assert default_workers("tpu") >= 1 and default_workers("gpu") >= 1


def test_each_worker_gets_its_own_device():
    tpu = [worker_env("tpu", i) for i in range(4)]
    assert [env["TPU_VISIBLE_CHIPS"] for env in tpu] == ["0", "1", "2", "3"]
    assert len({env["TPU_PROCESS_PORT"] for env in tpu}) == 4
    for env in tpu:
        assert env["ALLOW_MULTIPLE_LIBTPU_LOAD"] == "true"
        assert env["TPU_CHIPS_PER_PROCESS_BOUNDS"] == env["TPU_PROCESS_BOUNDS"] == "1,1,1"
    assert worker_env("gpu", 2) == {"CUDA_VISIBLE_DEVICES": "2", "CUDA_DEVICE_ORDER": "PCI_BUS_ID",
                                    "XLA_PYTHON_CLIENT_PREALLOCATE": "false"}
    assert worker_env("cpu", 1) == {}
