//! A `system.toml` that can be read but is not UTF-8 text is bad data: one line naming the
//! file, line and column of the first bad byte, exit 65 -- not "cannot read" (66). Found by
//! the fuzzer (tests/fuzz_inputs.rs).

mod support;
use support::*;

#[test]
fn a_system_toml_that_is_not_utf8_is_65_at_the_byte() {
    let d = scratch("gen-utf8");
    let p = d.join("system.toml");
    std::fs::write(&p, b"[kernel]\nscheduler = \"prio\" # caf\xe9\n").unwrap();
    let r = ubik(&[
        "gen".as_ref(),
        p.as_os_str(),
        "-o".as_ref(),
        d.join("gen").as_os_str(),
    ]);
    assert_one_line_failure(&r, 65, &["system.toml:2:25:", "UTF-8"], "gen");
    let r = ubik(&["build".as_ref(), d.as_os_str()]);
    assert_one_line_failure(&r, 65, &["system.toml:2:25:", "UTF-8"], "build");
}
