//! Scale (issue 10, item 13): `ubik gen` is linear in the number of objects, the C it writes
//! is tables of descriptors walked by loops (not code per object, which GCC -O2 took minutes
//! over), and a description whose objects cannot fit in RAM is refused before any C is
//! written.

use std::time::{Duration, Instant};
use sysdesc::gen::{gen_header, gen_source};
use sysdesc::SystemDesc;

/// `n` tasks with `stack_bytes` stacks, one entry function.
fn tasks(n: usize, stack_bytes: u32) -> String {
    let mut s = String::from("[kernel]\nscheduler = \"prio\"\n");
    for i in 0..n {
        s.push_str(&format!(
            "[task.t{i}]\nentry = \"work\"\npriority = {}\nstack_bytes = {stack_bytes}\n",
            1 + i % 200
        ));
    }
    s
}

/// `n` objects of most kinds in turn, about 100 bytes of RAM each on average (so that
/// thousands fit).
fn mixed(n: usize) -> String {
    let mut s = String::new();
    for i in 0..n {
        s.push_str(&match i % 10 {
            0 | 3 | 6 => format!("[sem.s{i}]\ninitial = 1\nmax = 2\n"),
            1 | 4 => format!("[mutex.m{i}]\n"),
            2 | 5 => format!("[flags.f{i}]\ninitial = 3\n"),
            7 => format!(
                "[timer.k{i}]\nflags = \"f{}\"\nbits = 1\ndelay = 9\n",
                i - 2
            ),
            8 => format!("[port.p{i}]\ncapacity = 1\n"),
            _ => format!(
                "[task.t{i}]\nentry = \"work\"\npriority = 5\nstack_bytes = 128\narg = \"s{}\"\n",
                i - 3
            ),
        });
    }
    s
}

#[test]
fn thousands_of_objects_resolve_and_generate_in_a_blink() {
    // Before: name checks and line numbers were quadratic (20,000 objects: 27 s; 8,000 about
    // 4 s); now 8,000 take a few hundredths of a second. The bounds are generous: they fail
    // only on a return of quadratic time.
    let text = mixed(8_000);
    let t0 = Instant::now();
    let d = SystemDesc::from_str(&text, "system.toml").unwrap();
    let c = gen_source(&d);
    let h = gen_header(&d);
    let took = t0.elapsed();
    assert!(c.len() > 8_000 && h.len() > 8_000);
    assert!(
        took < Duration::from_secs(2),
        "8,000 objects took {took:?} to resolve and generate"
    );
    // 20,000 semaphores do not fit in RAM: refused after every name and place is checked.
    let mut text = String::new();
    for i in 0..20_000 {
        text.push_str(&format!("[sem.s{i}]\n"));
    }
    let t0 = Instant::now();
    let e = SystemDesc::from_str(&text, "system.toml").unwrap_err();
    let took = t0.elapsed();
    assert!(e.to_string().contains("RAM"), "{e}");
    assert!(
        took < Duration::from_secs(2),
        "20,000 objects took {took:?} to resolve"
    );
}

/// The lines of `uk_gen.c` that are code (inside a function body).
fn code_lines(c: &str) -> usize {
    let mut depth = 0i32;
    let mut in_function = false;
    let mut n = 0;
    for l in c.lines() {
        if depth == 0 && l.ends_with(')') && !l.starts_with(' ') && !l.contains('=') {
            in_function = true; // a function's head; its body starts on the next line
        }
        if in_function && depth > 0 {
            n += 1;
        }
        depth += l.matches('{').count() as i32 - l.matches('}').count() as i32;
        if depth == 0 && l.starts_with('}') {
            in_function = false;
        }
    }
    n
}

#[test]
fn generated_code_is_constant_and_tables_linear() {
    let small = SystemDesc::from_str(&mixed(60), "system.toml").unwrap();
    let large = SystemDesc::from_str(&mixed(6_000), "system.toml").unwrap();
    let (cs, cl) = (gen_source(&small), gen_source(&large));
    // The start-up code does not grow with the objects: one loop per kind.
    assert_eq!(
        code_lines(&cs),
        code_lines(&cl),
        "uk_gen.c's code grows with the objects"
    );
    assert_eq!(cl.matches("uk_task_create(").count(), 1, "{}", &cl[..4000]);
    // The tables grow linearly: a bounded number of bytes per object.
    let per_object = (cl.len() - cs.len()) / (6_000 - 60);
    assert!(
        per_object < 200,
        "{per_object} bytes of uk_gen.c per object"
    );
    let (hs, hl) = (gen_header(&small), gen_header(&large));
    assert!((hl.len() - hs.len()) / (6_000 - 60) < 120);
}

#[test]
fn a_description_larger_than_ram_is_refused_where_it_overflows() {
    // 10,000 tasks of 1 KiB: 10 MiB of stacks on a 1 MiB machine.
    let e = SystemDesc::from_str(&tasks(10_000, 1024), "system.toml").unwrap_err();
    assert_eq!(e.exit_code(), 65, "{e}");
    let s = e.to_string();
    assert!(!s.contains('\n'), "{s}");
    // About 800 tasks of 1 KiB + their control blocks fit in the 960 KiB left for objects.
    let task: usize = s
        .split("task \"t")
        .nth(1)
        .and_then(|r| r.split('"').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no task named in {s}"));
    assert!((700..960).contains(&task), "{s}");
    let line = 3 + 4 * task;
    assert!(
        s.starts_with(&format!("system.toml:{line}:7: task \"t{task}\" ")),
        "{s}"
    );
    assert!(s.contains("RAM"), "{s}");
    assert!(s.contains("; expected "), "{s}");
    // What fits is accepted: 1,000 tasks of 256 bytes.
    SystemDesc::from_str(&tasks(1_000, 256), "system.toml").unwrap();
    // One buffer larger than RAM on its own.
    let e = SystemDesc::from_str("[heap.a]\nbytes = 16777216\n", "system.toml")
        .unwrap_err()
        .to_string();
    assert!(e.starts_with("system.toml:1:7: heap \"a\" "), "{e}");
}
