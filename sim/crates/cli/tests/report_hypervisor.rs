//! `ubik report` over the hypervisor experiment's `bench/hypervisor.json` (real output of
//! `ubik experiment bench/hypervisor.toml`, tests/data/hypervisor.json): its section is its
//! tables -- the figures beside the paper's, each run by load and policy, the setup in one
//! line -- and not the generic flattened table of `key.key.key` rows.

mod support;
use support::*;

#[test]
fn the_hypervisor_section_is_its_tables_not_a_flattened_dump() {
    let d = scratch("report-hv");
    let bench = d.join("out").join("bench");
    std::fs::create_dir_all(&bench).unwrap();
    std::fs::copy(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/hypervisor.json"),
        bench.join("hypervisor.json"),
    )
    .unwrap();
    let page = d.join("page");
    let r = ubik(&[
        "report".as_ref(),
        d.join("out").as_os_str(),
        "-o".as_ref(),
        page.as_os_str(),
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let html = std::fs::read_to_string(page.join("index.html")).unwrap();
    let section = &html[html
        .find("<h3>hypervisor.json</h3>")
        .expect("no hypervisor section")..];
    assert!(section.contains("<td>rt policy</td>"), "no figures table");
    let light = section
        .find("<tr><td>light</td><td>fair</td>")
        .expect("no run by load");
    let heavy = section
        .find("<tr><td>heavy</td><td>rt</td>")
        .expect("no run by load");
    assert!(light < heavy, "loads not in the file's order");
    assert!(section.contains("Setup: "), "no setup line");
    for flat in [
        "by_load.",
        "ratio_to_alone.",
        "setup.",
        "<th>figure</th><th>value</th>",
    ] {
        assert!(!section.contains(flat), "a flattened dump: {flat}");
    }
}
