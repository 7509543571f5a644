#!/usr/bin/env python3
"""Thread-Metric's basic-processing workload (bench/threadmetric/tm_basic.h) against its
definition (make test). The benchmarks' figures and self-checks are their experiment kinds',
tested in Rust (sim/crates/cli/src/experiment/KIND/)."""
import os
import subprocess
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
BENCH = os.path.join(os.path.dirname(os.path.dirname(HERE)), "bench")


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


if __name__ == "__main__":
    unittest.main()
