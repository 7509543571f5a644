//! Names in `system.toml` become C identifiers (issue 10, item 12): every name `ubik gen`
//! accepts must compile. Names the generated C already sees (types, macros and functions of
//! the headers it includes, keywords, reserved prefixes) are refused where they are written,
//! one line with FILE:LINE:COLUMN; a task may have its entry's name (issue 10, item 8).

use sysdesc::gen::{gen_header, gen_source};
use sysdesc::SystemDesc;

fn parse(text: &str) -> Result<SystemDesc, String> {
    SystemDesc::from_str(text, "system.toml").map_err(|e| {
        assert_eq!(e.exit_code(), 65, "{e}");
        let s = e.to_string();
        assert!(!s.contains('\n'), "multi-line error: {s}");
        s
    })
}

/// The names of the issue and one of each class: a type, a macro, a function of a header the
/// generated C includes, keywords (C11, C23, GNU), reserved prefixes, the C start-up's `main`.
const REFUSED: &[&str] = &[
    "size_t",
    "uint8_t",
    "va_list",
    "INT32_MAX",
    "RAM_SIZE",
    "TIMER_BASE",
    "NULL",
    "offsetof",
    "bool",
    "true",
    "va_start",
    "csr_read",
    "mmio_read32",
    "MSTATUS_MIE",
    "MMIO32",
    "memcpy",
    "main",
    "int",
    "while",
    "alignas",
    "static_assert",
    "typeof",
    "asm",
    "uk_x",
    "UK_X",
    "bsp_x",
    "BSP_X",
    "UBIK_H",
    "__x",
    "_x",
    "_Bool",
];

#[test]
fn names_the_generated_c_sees_are_refused_where_written() {
    let mut bad = Vec::new();
    for name in REFUSED {
        // As an object's name: `[sem.NAME]` names it at line 1, column 6.
        match parse(&format!("[sem.{name}]\n")) {
            Ok(_) => bad.push(format!("sem \"{name}\" accepted")),
            Err(e) => {
                let want = format!("system.toml:1:6: sem \"{name}\" ");
                if !e.starts_with(&want) || !e.contains("; expected ") {
                    bad.push(format!("sem \"{name}\": {e}"));
                }
            }
        }
        // As a function's name: `entry = "NAME"` at line 2, column 9.
        match parse(&format!("[task.t]\nentry = \"{name}\"\npriority = 1\n")) {
            Ok(_) => bad.push(format!("entry = \"{name}\" accepted")),
            Err(e) => {
                let want = format!("system.toml:2:9: entry = \"{name}\" ");
                if !e.starts_with(&want) || !e.contains("; expected ") {
                    bad.push(format!("entry = \"{name}\": {e}"));
                }
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn messages_say_what_the_name_is_and_what_is_expected() {
    for (text, want) in [
        (
            "[queue.size_t]\nmsg_bytes = 4\ncapacity = 1\n",
            "system.toml:1:8: queue \"size_t\" is already a name in <stddef.h>, which the generated C includes; expected a name that no header of the generated C declares (docs/system.md, \"Names\")",
        ),
        (
            "[task.t]\nentry = \"f\"\npriority = 1\n[timer.RAM_SIZE]\nactivate = \"t\"\ndelay = 1\n",
            "system.toml:4:8: timer \"RAM_SIZE\" is already a name in the BSP's headers (bsp/*.h), which the generated C includes; expected a name that no header of the generated C declares (docs/system.md, \"Names\")",
        ),
        (
            "[interrupt.i]\nline = 1\nlisr = \"INT32_MAX\"\n",
            "system.toml:3:8: lisr = \"INT32_MAX\" is already a name in <stdint.h>, which the generated C includes; expected a function name that no header of the generated C declares (docs/system.md, \"Names\")",
        ),
        (
            "[mutex.alignas]\n",
            "system.toml:1:8: mutex \"alignas\" is a C keyword; expected a name that is not a C keyword",
        ),
    ] {
        assert_eq!(parse(text).unwrap_err(), want);
    }
}

/// Names close to the refused ones, or equal to parameter, member and local names of the
/// headers and of the generated code, are fine.
#[test]
fn near_misses_are_accepted() {
    for name in [
        "size", "uint8", "va", "INT32", "RAM", "TIMER", "count", "next", "name", "prio", "state",
        "arg", "line", "sigs", "h", "tm", "i", "d", "r", "printf", "strlen", "exit", "signal",
        "index", "time", "stack", "task", "queue", "Bool", "u_k", "bspx", "UBIK",
    ] {
        let text = format!("[sem.{name}]\n[task.t_{name}]\nentry = \"e_{name}\"\npriority = 1\n");
        parse(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let text = format!("[task.t]\nentry = \"{name}\"\npriority = 1\n");
        parse(&text).unwrap_or_else(|e| panic!("entry {name}: {e}"));
    }
}

/// A task named as its entry function (the commonest way to name both): the function keeps
/// the name in C; the task object gets a symbol of the generator's own, reached with
/// UK_GEN_OBJECT(NAME). The same holds for any object named as a function.
#[test]
fn a_task_may_have_its_entry_s_name() {
    let d = parse(
        "[task.blink]\nentry = \"blink\"\npriority = 1\n\
         [task.other]\nentry = \"o\"\npriority = 2\narg = \"blink\"\n\
         [timer.kick]\nactivate = \"blink\"\ndelay = 5\n\
         [interrupt.uart]\nline = 2\nlisr = \"uart_lisr\"\nhisr = \"uart\"\nhisr_stack_bytes = 256\n",
    )
    .unwrap();
    let h = gen_header(&d);
    assert!(h.contains("void blink(void *arg);\n"), "{h}");
    assert!(!h.contains("uk_task_t blink;"), "{h}");
    assert!(h.contains("extern uk_task_t uk__gen_obj_blink;"), "{h}");
    assert!(h.contains("extern uk_hisr_t uk__gen_obj_uart;"), "{h}");
    assert!(h.contains("void uart(uk_hisr_t *h);\n"), "{h}");
    assert!(
        h.contains("#define UK_GEN_OBJECT(name) (&uk__gen_obj_##name)\n"),
        "{h}"
    );
    let c = gen_source(&d);
    assert!(c.contains("uk_task_t uk__gen_obj_blink;\n"), "{c}");
    assert!(c.contains("&uk__gen_obj_blink"), "{c}");
    // Its kernel name stays the description's.
    assert!(c.contains("\"blink\""), "{c}");
}
