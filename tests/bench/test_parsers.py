#!/usr/bin/env python3
"""Unit tests of the benchmark suite's result parsers (make test): Rhealstone's edge pairing and
mcycle cross-check (bench/rhealstone/rh_json.py), on small hand-made inputs, good and bad; and
Thread-Metric's basic-processing workload (bench/threadmetric/tm_basic.h) against its
definition. Thread-Metric's figures and self-checks are the threadmetric kind's, tested in
Rust (sim/crates/cli/src/experiment/threadmetric/)."""
import importlib.util
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
BENCH = os.path.join(os.path.dirname(os.path.dirname(HERE)), "bench")


def load(path, name):
    spec = importlib.util.spec_from_file_location(name, os.path.join(BENCH, path))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


rh_json = load("rhealstone/rh_json.py", "rh_json")
OV_JSON = os.path.join(BENCH, "overhead/ov_json.py")


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


class ThreadMetricWorkload(unittest.TestCase):
    def test_basic_is_thread_metrics_workload(self):
        # One pass of tm_basic.h, compiled for the host, against Thread-Metric's definition:
        # every word of a zeroed array becomes (word + passes done) XOR word.
        d = tempfile.mkdtemp()
        src, exe = os.path.join(d, "basic.c"), os.path.join(d, "basic")
        write(src, '#include <stdio.h>\n#include "tm_basic.h"\n'
                   "int main(void) {\n"
                   "    for (uint32_t n = 0; n < 7; n++) tm_basic_pass(n * 0x9e3779b9u);\n"
                   "    for (unsigned i = 0; i < TM_BASIC_WORDS; i += 341)\n"
                   '        printf("%u\\n", (unsigned)tm_basic_data[i]);\n'
                   "    return 0;\n}\n")
        cc = os.environ.get("HOST_CC", "cc")
        subprocess.run([cc, "-O2", "-w", "-I", os.path.join(BENCH, "threadmetric"), src, "-o",
                        exe], check=True)
        got = [int(x) for x in subprocess.run([exe], capture_output=True, text=True,
                                              check=True).stdout.split()]
        words = [0] * 1024
        for n in range(7):
            done = (n * 0x9E3779B9) & 0xFFFFFFFF
            words = [((w + done) & 0xFFFFFFFF) ^ w for w in words]
        self.assertEqual(got, [words[i] for i in range(0, 1024, 341)])
        self.assertNotEqual(got, [0] * len(got), "a workload that leaves the array zero")


class RhealstoneEdges(unittest.TestCase):
    HEADER = "cycle,time_s,kind,port,value\n"

    def io(self, events):
        d = tempfile.mkdtemp()
        rows = "".join(f"{c},0,{k},{p},{v}\n" for c, k, p, v in events)
        write(os.path.join(d, "io.csv"), self.HEADER + rows)
        return os.path.join(d, "io.csv")

    def test_pairs_rising_edges_in_order(self):
        path = self.io([(10, "gpio", 2, 1), (15, "out", 0, 7), (40, "gpio", 3, 1),
                        (41, "gpio", 2, 0), (42, "gpio", 3, 0), (100, "gpio", 2, 1),
                        (130, "gpio", 3, 1)])
        self.assertEqual(rh_json.edges(path), [(10, 40), (100, 130)])

    def test_two_starts_is_an_error(self):
        path = self.io([(10, "gpio", 2, 1), (20, "gpio", 2, 0), (30, "gpio", 2, 1)])
        with self.assertRaises(rh_json.Bad):
            rh_json.edges(path)

    def test_end_without_start_is_an_error(self):
        with self.assertRaises(rh_json.Bad):
            rh_json.edges(self.io([(10, "gpio", 3, 1)]))

    def figure(self, gpio, mcycle):
        d = tempfile.mkdtemp()
        events, t = [], 0
        for g in [50] + gpio:  # the warm-up pair first
            events += [(t + 10, "gpio", 2, 1), (t + 10 + g, "gpio", 3, 1),
                       (t + 11 + g, "gpio", 2, 0), (t + 12 + g, "gpio", 3, 0)]
            t += 1000
        write(os.path.join(d, "r", "fig.io.csv"),
              self.HEADER + "".join(f"{c},0,{k},{p},{v}\n" for c, k, p, v in events))
        lines = "".join(f"rh fig sample={i} mcycle={m}\n" for i, m in enumerate(mcycle))
        write(os.path.join(d, "r", "fig.txt"), lines + f"rh fig done samples={len(mcycle)}\n")
        return rh_json.figure_of(d, "r", "fig")

    def test_mcycle_agrees_up_to_a_constant(self):
        gpio, offset, agree = self.figure([100, 120, 110], [123, 143, 133])
        self.assertEqual((gpio, offset, agree), ([100, 120, 110], 23, 3))

    def test_mcycle_disagreeing_fails(self):
        with self.assertRaises(rh_json.Bad):
            self.figure([100, 120, 110, 100], [123, 150, 133, 170])

    def test_missing_samples_fail(self):
        with self.assertRaises(rh_json.Bad):
            self.figure([100, 120], [123])


class Overhead(unittest.TestCase):
    def run_rows(self, rows):
        d = tempfile.mkdtemp()
        for row, (cycles, checksum, kernel) in rows.items():
            write(os.path.join(d, row, "fft.txt"), f"ov fft cycles={cycles} bad=0 "
                  f"checksum={checksum} background=3 interrupts=4\n")
            cats = {"user": {"cycles": cycles}, "kernel_sched": {"cycles": kernel}}
            write(os.path.join(d, row, "fft.stats.json"),
                  '{"energy_j": 1e-6, "by_category": %s}' % str(cats).replace("'", '"'))
        out = os.path.join(d, "out.json")
        r = subprocess.run([sys.executable, OV_JSON, d, "-o", out], capture_output=True, text=True)
        return r, out

    def test_overhead_against_bare(self):
        r, out = self.run_rows({"bare": (1000, "ab", 0), "ubik-prio": (1100, "ab", 30)})
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(out) as f:
            t = __import__("json").load(f)
        self.assertEqual(t["ubik-prio"]["fft_overhead_pct"], 10.0)
        self.assertEqual(t["ubik-prio"]["fft_kernel_pct"], 3.0)
        self.assertEqual(t["ubik-prio"]["fft_background_pct"], 7.0)

    def test_other_results_than_bare_fail(self):
        r, _ = self.run_rows({"bare": (1000, "ab", 0), "nos-np": (1000, "cd", 0)})
        self.assertEqual(r.returncode, 1)
        self.assertIn("differ from bare metal", r.stderr)


if __name__ == "__main__":
    unittest.main()
