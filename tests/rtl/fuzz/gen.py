#!/usr/bin/env python3
"""Random RV32IMC+Zicsr program generator for Ubik-vs-Ibex-RTL differential testing.

gen.py SEED [OUT.S]   (stdout if OUT.S is omitted). Same seed -> same program.

The program (tests/rtl/common crt/macros) is valid and always terminates: random ALU/immediate
ops (32-bit and compressed, both alignments), loads/stores within a scratch buffer (aligned and
misaligned, also from the timer), mul/div (incl. by zero and overflow), forward branches/jumps,
bounded loops, backward jumps, jalr/c.jr/c.jalr, CSR reads/writes, fence/fence.i, mret,
ecall/ebreak/illegal/access faults (the exception handler skips the instruction), timer
interrupts armed at random mtimecmp (the handler re-arms within a budget, or disarms), wfi with
MIE=0/1. At the end it prints every register, the trap accumulator, a checksum of the scratch
buffer, mcycle, minstret and mhpmcounter3..12, then halts.

Register conventions: sp = scratch buffer + 128 (c.lwsp/c.swsp), gp = scratch buffer,
tp = loop counter, x26/x27/x29 = handler temporaries, x28 = trap accumulator (handlers only).
"""
import random
import sys

WRITABLE = [1] + list(range(5, 26)) + [30, 31]
CREGS = list(range(8, 16))          # all writable
BUF = 512                           # scratch buffer bytes (gp); sp = gp + 128
NAMES = {i: f"x{i}" for i in range(32)}


class Gen:
    def __init__(self, seed):
        self.r = random.Random(seed)
        self.seed = seed
        self.out = []
        self.mode = None            # 'rvc' or 'norvc'
        self.lab = 0
        self.in_loop = False
        self.depth = 0

    # ---- helpers -------------------------------------------------------------------------
    def label(self):
        self.lab += 1
        return f".L{self.lab}"

    def set_mode(self, m):
        if m != self.mode:
            self.out.append(f"  .option {m}")
            self.mode = m

    def i32(self, s):
        self.set_mode("norvc")
        self.out.append("  " + s)

    def c16(self, s):
        self.set_mode("rvc")
        self.out.append("  " + s)

    def put_label(self, lab):
        self.out.append(f"{lab}:")

    def rd(self):
        return NAMES[self.r.choice(WRITABLE)]

    def rs(self):
        # any register may be read
        return NAMES[self.r.randrange(32)]

    def crd(self):
        return NAMES[self.r.choice(CREGS)]

    def imm12(self):
        return self.r.choice([self.r.randint(-2048, 2047), self.r.randint(-8, 8), 0, -1, 2047, -2048])

    def pad(self):
        # randomly shift the alignment of what follows
        if self.r.random() < 0.4:
            self.c16("c.nop")

    # ---- items ----------------------------------------------------------------------------
    def alu_rr(self):
        op = self.r.choice("add sub sll slt sltu xor srl sra or and".split())
        self.i32(f"{op} {self.rd()}, {self.rs()}, {self.rs()}")

    def alu_imm(self):
        op = self.r.choice("addi slti sltiu xori ori andi slli srli srai lui auipc".split())
        if op in ("slli", "srli", "srai"):
            self.i32(f"{op} {self.rd()}, {self.rs()}, {self.r.randrange(32)}")
        elif op in ("lui", "auipc"):
            self.i32(f"{op} {self.rd()}, {self.r.randrange(1 << 20)}")
        else:
            self.i32(f"{op} {self.rd()}, {self.rs()}, {self.imm12()}")

    def alu_c(self):
        k = self.r.randrange(12)
        r = self.r
        if k == 0:
            self.c16(f"c.addi {self.rd()}, {r.choice([i for i in range(-32, 32) if i])}")
        elif k == 1:
            self.c16(f"c.li {self.rd()}, {r.randint(-32, 31)}")
        elif k == 2:
            self.c16(f"c.lui {self.rd()}, {r.choice([i for i in range(1, 32)] + [i for i in range(0xfffe0, 0x100000)])}")
        elif k == 3:
            self.c16(f"c.mv {self.rd()}, {NAMES[r.randrange(1, 32)]}")
        elif k == 4:
            self.c16(f"c.add {self.rd()}, {NAMES[r.randrange(1, 32)]}")
        elif k == 5:
            op = r.choice("c.and c.or c.xor c.sub".split())
            self.c16(f"{op} {self.crd()}, {self.crd()}")
        elif k == 6:
            self.c16(f"c.slli {self.rd()}, {r.randrange(1, 32)}")
        elif k == 7:
            self.c16(f"{r.choice(['c.srli', 'c.srai'])} {self.crd()}, {r.randrange(1, 32)}")
        elif k == 8:
            self.c16(f"c.andi {self.crd()}, {r.randint(-32, 31)}")
        elif k == 9:
            self.c16("c.nop")
        elif k == 10:
            self.c16(f"c.addi4spn {self.crd()}, sp, {4 * r.randrange(1, 64)}")
        else:
            self.i32(f"add {self.rd()}, {self.rs()}, {self.rs()}")

    def mem(self):
        r = self.r
        k = r.randrange(10)
        if k < 5:   # 32-bit load/store at any offset in the buffer
            op = r.choice("lw lh lhu lb lbu sw sh sb".split())
            size = {"w": 4, "h": 2, "b": 1}[op[1]]
            if r.random() < 0.5:
                off = r.randrange(0, BUF - 4)              # any (misaligned) offset
            else:
                off = r.randrange(0, BUF - 4, size)
            if op[0] == "l":
                self.i32(f"{op} {self.rd()}, {off}(gp)")
            else:
                self.i32(f"{op} {self.rs()}, {off}(gp)")
        elif k < 7:  # c.lwsp / c.swsp
            off = 4 * r.randrange(0, 64)
            if r.random() < 0.5:
                self.c16(f"c.lwsp {self.rd()}, {off}(sp)")
            else:
                self.c16(f"c.swsp {self.rs()}, {off}(sp)")
        elif k < 9:  # c.lw / c.sw through a copy of gp, possibly misaligned
            b = self.crd()
            mis = r.choice([0, 0, 1, 2, 3])
            if mis:
                self.i32(f"addi {b}, gp, {mis}")
            else:
                self.c16(f"c.mv {b}, gp")
            off = 4 * r.randrange(0, 32)
            if r.random() < 0.5:
                self.c16(f"c.lw {self.crd()}, {off}({b})")
            else:
                self.c16(f"c.sw {self.crd()}, {off}({b})")
        else:        # timer register read (mtime / mtimecmp)
            b = self.rd()
            self.i32(f"lui {b}, 0x30")
            self.i32(f"lw {self.rd()}, {r.choice([0, 0, 4, 8])}({b})")

    def muldiv(self):
        r = self.r
        op = r.choice("mul mulh mulhsu mulhu div divu rem remu".split())
        k = r.randrange(6)
        if k == 0 and op[0] in "dr":     # by zero
            self.i32(f"{op} {self.rd()}, {self.rs()}, x0")
        elif k == 1 and op in ("div", "rem"):  # overflow
            a, b = self.rd(), self.rd()
            while b == a:
                b = self.rd()
            self.i32(f"lui {a}, 0x80000")
            self.i32(f"addi {b}, x0, -1")
            self.i32(f"{op} {self.rd()}, {a}, {b}")
        else:
            self.i32(f"{op} {self.rd()}, {self.rs()}, {self.rs()}")

    def simple(self):
        r = self.r.random()
        if r < 0.25:
            self.alu_rr()
        elif r < 0.45:
            self.alu_imm()
        elif r < 0.75:
            self.alu_c()
        elif r < 0.92:
            self.mem()
        else:
            self.muldiv()

    def block(self, n):
        for _ in range(n):
            self.item()

    def fwd_branch(self):
        r = self.r
        end = self.label()
        # generate the body first: c.beqz/c.bnez reach only +-256 bytes
        idx, mode0 = len(self.out), self.mode
        self.depth += 1
        self.block(r.randint(0, 4))
        self.depth -= 1
        self.pad()
        body, mode1 = self.out[idx:], self.mode
        del self.out[idx:]
        self.mode = mode0
        size = 8 * sum(1 for l in body if l.startswith("  ") and not l.startswith("  .option"))
        k = r.randrange(5)
        if k == 0 and size < 200:
            self.c16(f"{r.choice(['c.beqz', 'c.bnez'])} {self.crd()}, {end}")
        elif k == 1:
            self.i32(f"{r.choice(['beq', 'bne'])} {self.rs()}, {self.rs()}, {end}")
        else:
            op = r.choice("beq bne blt bge bltu bgeu".split())
            self.i32(f"{op} {self.rs()}, {self.rs()}, {end}")
        if body and self.mode != mode0 and mode0 is not None:
            self.out.append(f"  .option {mode0}")
        self.out.extend(body)
        self.mode = mode1 if body else self.mode
        self.put_label(end)

    def jump(self):
        r = self.r
        end = self.label()
        k = r.randrange(6)
        if k == 0:
            self.c16(f"c.j {end}")
        elif k == 1:
            self.c16(f"c.jal {end}")
        elif k == 2:
            self.i32(f"jal {r.choice(['x0', 'x1', self.rd()])}, {end}")
        else:
            b = self.rd()
            self.i32(f"la {b}, {end}")
            j = r.randrange(3)
            if j == 0 and b != "x0":
                self.c16(f"c.jr {b}")
            elif j == 1 and b != "x0":
                self.c16(f"c.jalr {b}")
            else:
                self.i32(f"jalr {r.choice(['x0', 'x1', self.rd()])}, 0({b})")
        # skipped junk (never executed)
        for _ in range(r.randint(0, 2)):
            if r.random() < 0.5:
                self.c16("c.nop")
            else:
                self.i32(".word 0xffffffff")
        self.pad()
        self.put_label(end)

    def back_jump(self):
        # j F; B: block; j E; F: block; j B; E:
        r = self.r
        F, B, E = self.label(), self.label(), self.label()
        self.i32(f"j {F}") if r.random() < 0.5 else self.c16(f"c.j {F}")
        self.pad()
        self.put_label(B)
        self.depth += 1
        self.block(r.randint(0, 3))
        self.i32(f"j {E}") if r.random() < 0.5 else self.c16(f"c.j {E}")
        self.pad()
        self.put_label(F)
        self.block(r.randint(0, 3))
        self.depth -= 1
        self.i32(f"j {B}") if r.random() < 0.5 else self.c16(f"c.j {B}")
        self.pad()
        self.put_label(E)

    def loop(self):
        r = self.r
        top = self.label()
        self.i32(f"li tp, {r.randint(1, 6)}")
        self.pad()
        self.put_label(top)
        self.in_loop = True
        self.depth += 1
        n = r.randint(1, 6)
        self.block(n)
        self.depth -= 1
        self.in_loop = False
        k = r.randrange(3)
        if k == 0:
            self.i32("addi tp, tp, -1")
            self.i32(f"bnez tp, {top}")
        elif k == 1:
            self.c16("c.addi tp, -1")
            self.i32(f"bne tp, x0, {top}")
        else:
            self.i32("addi tp, tp, -1")
            self.i32(f"blt x0, tp, {top}")

    def csr(self):
        r = self.r
        k = r.randrange(14)
        rd = self.rd()
        if k < 5:
            c = r.choice("mscratch mepc mstatus mie mip mcycle mcycleh minstret minstreth mcause mtval "
                         "misa mtvec mcountinhibit cycle instret".split()
                         + [f"mhpmcounter{i}" for i in range(3, 13)])
            self.i32(f"csrr {rd}, {c}")
        elif k < 7:
            op = r.choice(["csrrw", "csrrs", "csrrc"])
            self.i32(f"{op} {rd}, {r.choice(['mscratch', 'mepc'])}, {self.rs()}")
        elif k == 7:
            self.i32(f"{r.choice(['csrrwi', 'csrrsi', 'csrrci'])} {rd}, mscratch, {r.randrange(32)}")
        elif k == 8:   # MIE toggles
            self.i32(f"{r.choice(['csrsi', 'csrci'])} mstatus, {r.choice([8, 8, 0])}")
        elif k == 9:   # mie
            t = self.rd()
            self.i32(f"li {t}, {r.choice([0, 0x80, 0x80, 0x888])}")
            self.i32(f"{r.choice(['csrw', 'csrs', 'csrc'])} mie, {t}")
        elif k == 10:  # counter writes (rare)
            if r.random() < 0.3:
                c = r.choice(["mcycle", "minstret", "mcycleh"] + [f"mhpmcounter{i}" for i in range(3, 13)])
                self.i32(f"csrw {c}, {self.rs()}")
            else:
                self.i32(f"csrr {rd}, mhpmcounter{r.randrange(3, 13)}")
        elif k == 11:  # mcountinhibit (rare), mostly re-enable
            v = r.choice([0, 0, 0, 1, 4, 0x1ff8, 0x18])
            t = self.rd()
            self.i32(f"li {t}, {v}")
            self.i32(f"csrw mcountinhibit, {t}")
        elif k == 12:
            self.i32(r.choice(["fence", "fence.i", "fence rw, rw"]))
        else:
            self.i32(f"csrrs {rd}, mstatus, x0")

    def exc(self):
        r = self.r
        k = r.randrange(9)
        if k == 0:
            self.i32("ecall")
        elif k == 1:
            self.i32("ebreak")
        elif k == 2:
            self.c16("c.ebreak")
        elif k == 3:
            self.i32(".word 0xffffffff")
        elif k == 4:
            self.c16(".half 0x0000")
        elif k == 5:
            self.i32(f"csrw mvendorid, {self.rs()}")
        elif k == 6:
            self.i32(f"lw {self.rd()}, {r.choice([0, 4, 8])}(x0)")
        elif k == 7:
            self.i32(f"sw {self.rs()}, {r.choice([0, 4, 8])}(x0)")
        else:
            self.i32(f"csrr {self.rd()}, {r.choice(['0xbc0', 'dcsr', 'time'])}")

    def arm(self, delta=None):
        r = self.r
        b, v = self.rd(), self.rd()
        while v == b:
            v = self.rd()
        if delta is None:
            delta = r.choice([r.randint(1, 40), r.randint(20, 400)])
        self.i32(f"lui {b}, 0x30")
        self.i32(f"lw {v}, 0({b})")
        self.i32(f"addi {v}, {v}, {delta}")
        self.i32(f"sw {v}, 8({b})")
        self.i32(f"sw x0, 12({b})")

    def timer(self):
        r = self.r
        k = r.randrange(4)
        if k < 2:
            self.arm()
            if r.random() < 0.7:
                t = self.rd()
                self.i32(f"li {t}, 0x80")
                self.i32(f"csrs mie, {t}")
            if r.random() < 0.6:
                self.i32("csrsi mstatus, 8")
        elif k == 2:  # disarm
            b, v = self.rd(), self.rd()
            self.i32(f"lui {b}, 0x30")
            self.i32(f"li {v}, -1")
            self.i32(f"sw {v}, 12({b})")
        else:         # arm immediately pending
            b = self.rd()
            self.i32(f"lui {b}, 0x30")
            self.i32(f"sw x0, 8({b})")
            self.i32(f"sw x0, 12({b})")

    def wfi(self):
        # MIE=0 while arming, so no trap can disarm the timer before the wfi; after the csrsi the
        # trap can only be taken with mepc = the wfi (the handler skips it) or after the wfi
        r = self.r
        self.i32("csrci mstatus, 8")
        self.arm(r.choice([r.randint(1, 12), r.randint(10, 300)]))
        t = self.rd()
        self.i32(f"li {t}, 0x80")
        self.i32(f"csrs mie, {t}")
        for _ in range(r.randint(0, 2)):
            self.simple()
        self.pad()
        if r.random() < 0.5:
            self.i32("csrsi mstatus, 8")
        self.i32("wfi")

    def mret(self):
        r = self.r
        t, L = self.rd(), self.label()
        self.i32("csrci mstatus, 8")   # no trap may overwrite mepc before the mret
        self.i32(f"la {t}, {L}")
        self.i32(f"csrw mepc, {t}")
        self.i32(f"li {t}, 0x1800")
        self.i32(f"csrs mstatus, {t}")
        if r.random() < 0.5:
            self.i32(f"li {t}, 0x80")
            self.i32(f"csrs mstatus, {t}")   # MPIE=1: mret enables MIE
        else:
            self.i32(f"li {t}, 0x80")
            self.i32(f"csrc mstatus, {t}")
        self.i32("mret")
        if r.random() < 0.5:
            self.i32(".word 0xffffffff")
        self.pad()
        self.put_label(L)

    def item(self):
        r = self.r.random()
        top = self.depth < 2
        if r < 0.55:
            self.simple()
        elif r < 0.63 and top:
            self.fwd_branch()
        elif r < 0.68:
            self.jump()
        elif r < 0.70 and top:
            self.back_jump()
        elif r < 0.74 and top and not self.in_loop:
            self.loop()
        elif r < 0.84:
            self.csr()
        elif r < 0.88:
            self.exc()
        elif r < 0.92:
            self.timer()
        elif r < 0.945 and not self.in_loop:
            self.wfi()
        elif r < 0.96:
            self.mret()
        else:
            self.simple()

    # ---- program ---------------------------------------------------------------------------
    def program(self):
        r = self.r
        o = self.out
        o.append(f"/* fuzz program, gen.py seed {self.seed} */")
        o.append('#include "macros.h"')
        o.append("  START")
        self.i32("la gp, fz_buf")
        self.i32("addi sp, gp, 128")
        self.i32("li x28, 0")
        # timer disarmed, budget
        self.i32("lui x26, 0x30")
        self.i32("li x27, -1")
        self.i32("sw x27, 12(x26)")
        for i in WRITABLE:
            self.i32(f"li x{i}, {r.choice([r.getrandbits(32), r.randint(-4, 4), 1 << r.randrange(32)])}")
        self.pad()
        o.append("  /* body */")
        n = r.randint(60, 160)
        self.block(n)
        self.set_mode("norvc")
        o.append("  /* end body */")
        o.append("fz_end:")
        o.append("  csrci mstatus, 8")
        o.append("  csrw mie, x0")
        for i in range(1, 32):
            o.append(f"  sw x{i}, {BUF + 4 * i}(gp)")
        o.append(f"  csrr x5, mcycle; sw x5, {BUF + 128}(gp)")
        o.append(f"  csrr x5, minstret; sw x5, {BUF + 132}(gp)")
        for i in range(3, 13):
            o.append(f"  csrr x5, mhpmcounter{i}; sw x5, {BUF + 136 + 4 * (i - 3)}(gp)")
        # buffer checksum
        o.append("  li x6, 0; mv x7, gp; addi x8, gp, %d" % BUF)
        o.append("1: lw x9, 0(x7); slli x10, x6, 5; add x6, x6, x10; xor x6, x6, x9; addi x7, x7, 4; bne x7, x8, 1b")
        o.append(f"  sw x6, {BUF + 184}(gp)")
        o.append("  .option rvc")
        for i in range(1, 32):
            o.append(f"  lw s0, {BUF + 4 * i}(gp); PRINT \"x{i}\", s0")
        o.append(f"  lw s0, {BUF + 184}(gp); PRINT \"bufsum\", s0")
        o.append(f"  lw s0, {BUF + 128}(gp); PRINT \"mcycle\", s0")
        o.append(f"  lw s0, {BUF + 132}(gp); PRINT \"minstret\", s0")
        for i in range(3, 13):
            o.append(f"  lw s0, {BUF + 136 + 4 * (i - 3)}(gp); PRINT \"hpm{i}\", s0")
        o.append("  HALT")
        o.append(HANDLERS.replace("@DMIN@", str(r.choice([8, 20, 60]))).replace(
            "@MASK@", str(r.choice([0x3f, 0xff, 0x1ff]))))
        o.append("  .section .data")
        o.append("  .balign 4")
        o.append(f"fz_budget: .word {r.randint(0, 8)}")
        o.append("fz_buf:")
        words = [r.getrandbits(32) for _ in range(BUF // 4)]
        for i in range(0, len(words), 8):
            o.append("  .word " + ", ".join(f"0x{w:08x}" for w in words[i:i + 8]))
        o.append(f"  .space {256}")
        return "\n".join(o) + "\n"


HANDLERS = r"""
  .section .text
  .option norvc
  .balign 4
  .global exc_handler
exc_handler:
  csrr x26, mcause
  csrr x27, mtval
  slli x29, x28, 5
  add x28, x28, x29
  xor x28, x28, x27
  add x28, x28, x26
  csrr x27, mepc
  lhu x26, 0(x27)
  andi x26, x26, 3
  addi x27, x27, 2
  li x29, 3
  bne x26, x29, 1f
  addi x27, x27, 2
1: csrw mepc, x27
  li x27, 0x1800
  csrs mstatus, x27
  mret

  .global timer_handler
timer_handler:
  csrr x26, mcause
  csrr x27, mepc
  slli x29, x28, 5
  add x28, x28, x29
  xor x28, x28, x27
  add x28, x28, x26
  /* trap taken just before a wfi: skip it (it could sleep forever once disarmed) */
  lhu x26, 0(x27)
  lhu x29, 2(x27)
  slli x29, x29, 16
  or x26, x26, x29
  li x29, 0x10500073
  bne x26, x29, 1f
  addi x27, x27, 4
  csrw mepc, x27
1:
  la x26, fz_budget
  lw x27, 0(x26)
  addi x27, x27, -1
  sw x27, 0(x26)
  lui x26, 0x30
  li x29, -1
  sw x29, 12(x26)
  blt x27, x0, 2f
  lw x29, 0(x26)
  andi x27, x28, @MASK@
  addi x27, x27, @DMIN@
  add x29, x29, x27
  sw x29, 8(x26)
  sw x0, 12(x26)
2:
  li x27, 0x1800
  csrs mstatus, x27
  mret
"""


def main():
    seed = int(sys.argv[1])
    text = Gen(seed).program()
    if len(sys.argv) > 2:
        with open(sys.argv[2], "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
