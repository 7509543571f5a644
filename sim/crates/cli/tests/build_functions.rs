//! Issue 28, item 27: a function `system.toml` names (task entry, signal handler, timer
//! function, LISR, HISR) that the application does not define is reported where it is named,
//! `FILE:LINE:COLUMN` with the key, exit 65, one line -- not as the linker's undefined
//! reference from the generated code (`uk_gen.c.o:(.rodata...): undefined reference to ...`).
//! Likewise `main`, which the start-up code calls.
//! Against this repository's kernel and BSP; one build directory throughout, so the kernel is
//! compiled once.

mod support;
use std::path::Path;
use support::*;

fn write(p: &Path, text: &str) {
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap_or_else(|e| panic!("write {}: {e}", p.display()));
}

fn build(dir: &Path) -> Run {
    ubik_in(dir, &["build", "app"])
}

const SYSTEM_TOML: &str = r#"[kernel]
scheduler = "prio"

[task.worker]
entry = "work"
priority = 2
signal = "on_signal"

[timer.beat]
call = "beat"
delay = 5
period = 5

[interrupt.dev]
line = 3
lisr = "dev_lisr"
hisr = "dev_hisr"
hisr_stack_bytes = 256
"#;

/// Defines every function of SYSTEM_TOML (without uk_gen.h, so that a renamed one is simply
/// missing rather than a compile error).
const MAIN_C: &str = r#"#include <stdint.h>
#include <ubik/ubik.h>

void work(void *arg) { (void)arg; for (;;) uk_task_sleep(10); }
void on_signal(uint32_t sigs) { (void)sigs; }
void beat(uk_timer_t *tm, void *arg) { (void)tm; (void)arg; }
void dev_lisr(unsigned line) { (void)line; }
void dev_hisr(uk_hisr_t *h) { (void)h; }
int main(void) { uk_init(); uk_start(); return 0; }
"#;

#[test]
fn missing_functions_are_reported_where_system_toml_names_them() {
    require_gcc();
    let d = scratch("build-functions");
    let app = d.join("app");
    write(&app.join("main.c"), MAIN_C);
    // (what, the name renamed in system.toml, expected message).
    let cases: [(&str, &str, &str); 5] = [
        (
            "task entry",
            "\"work\"",
            "app/system.toml:5:9: entry = \"gone\" names a function that no source of the application defines; expected a task entry `void gone(void *arg)` defined with external linkage in the application's sources",
        ),
        (
            "signal handler",
            "\"on_signal\"",
            "app/system.toml:7:10: signal = \"gone\" names a function that no source of the application defines; expected a signal handler `void gone(uint32_t sigs)`",
        ),
        (
            "timer function",
            "\"beat\"",
            "app/system.toml:10:8: call = \"gone\" names a function that no source of the application defines; expected a timer function `void gone(uk_timer_t *tm, void *arg)`",
        ),
        (
            "LISR",
            "\"dev_lisr\"",
            "app/system.toml:16:8: lisr = \"gone\" names a function that no source of the application defines; expected a LISR `void gone(unsigned line)`",
        ),
        (
            "HISR",
            "\"dev_hisr\"",
            "app/system.toml:17:8: hisr = \"gone\" names a function that no source of the application defines; expected a HISR entry `void gone(uk_hisr_t *h)`",
        ),
    ];
    for (what, name, message) in cases {
        write(
            &app.join("system.toml"),
            &SYSTEM_TOML.replacen(name, "\"gone\"", 1),
        );
        let r = build(&d);
        assert_one_line_failure(&r, 65, &[message], what);
        assert!(
            !r.stderr.contains("undefined reference"),
            "{what}: {}",
            r.stderr
        );
    }

    // Two missing: the first in the text is reported, the others named with it.
    write(
        &app.join("system.toml"),
        &SYSTEM_TOML
            .replacen("\"dev_lisr\"", "\"gone_lisr\"", 1)
            .replacen("\"work\"", "\"consumer_main\"", 1),
    );
    let r = build(&d);
    assert_one_line_failure(
        &r,
        65,
        &["app/system.toml:5:9: entry = \"consumer_main\" names a function that no source of the application defines (so do lisr = \"gone_lisr\" (line 16));"],
        "two missing",
    );

    // Defined, but static: the generated code cannot reach it.
    write(&app.join("system.toml"), SYSTEM_TOML);
    write(
        &app.join("main.c"),
        &MAIN_C.replace(
            "void beat(uk_timer_t",
            "__attribute__((used)) static void beat(uk_timer_t",
        ),
    );
    let r = build(&d);
    assert_one_line_failure(
        &r,
        65,
        &["app/system.toml:10:8: call = \"beat\" names a function that main.c defines only for itself (static in C, or without .globl in assembly)"],
        "static",
    );

    // A variable of that name: it would link, and the kernel would jump into data.
    write(
        &app.join("main.c"),
        &MAIN_C.replace(
            "void dev_hisr(uk_hisr_t *h) { (void)h; }",
            "int dev_hisr = 1;",
        ),
    );
    let r = build(&d);
    assert_one_line_failure(
        &r,
        65,
        &["app/system.toml:17:8: hisr = \"dev_hisr\" names a variable of main.c, not a function"],
        "variable",
    );

    // No main: crt0 calls it; the linker blamed crt0.S.o.
    write(
        &app.join("main.c"),
        &MAIN_C.replace("int main(void)", "int start(void)"),
    );
    let r = build(&d);
    assert_one_line_failure(
        &r,
        65,
        &["app: no source of the application defines main; expected `int main(void)` with external linkage in one of its sources"],
        "no main",
    );

    // Everything defined: it builds, silently.
    write(&app.join("main.c"), MAIN_C);
    let r = build(&d);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stderr.is_empty(), "{}", r.stderr);
    assert!(app.join("build/app.elf").is_file());
    let _ = std::fs::remove_dir_all(&d);
}
