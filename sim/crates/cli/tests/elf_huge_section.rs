//! An ELF whose executable section claims to span most of the address space (a corrupt
//! `sh_size`, found by tests/fuzz_inputs.rs): the observers' code map walked the section two
//! bytes at a time, past 2^32 with a wrapping address -- a run with `--profile` never ended.
//! The map covers RAM only: the run ends at once.

mod support;
use std::time::{Duration, Instant};
use support::*;

#[test]
fn a_huge_executable_section_does_not_hang_the_observers() {
    let mut elf = std::fs::read(firmware("hello")).unwrap();
    // The section headers: e_shoff at byte 32, 40 bytes each; section 1 is .vectors (AX).
    let shoff = u32::from_le_bytes(elf[32..36].try_into().unwrap()) as usize;
    let sh1 = shoff + 40;
    let flags = u32::from_le_bytes(elf[sh1 + 8..sh1 + 12].try_into().unwrap());
    assert_eq!(
        flags & 6,
        6,
        "section 1 of hello.elf is expected to be alloc + exec"
    );
    elf[sh1 + 20..sh1 + 24].copy_from_slice(&0xffff_00beu32.to_le_bytes()); // sh_size
    let d = scratch("huge-section");
    let p = d.join("huge.elf");
    std::fs::write(&p, &elf).unwrap();
    let prof = d.join("p.csv");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_ubik"))
        .arg("run")
        .arg(&p)
        .arg("--profile")
        .arg(&prof)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let t0 = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break Some(s);
        }
        if t0.elapsed() > Duration::from_secs(10) {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let status = status.expect("ubik run --profile did not end within 10 s");
    assert_eq!(status.code(), Some(0));
    assert!(std::fs::read_to_string(&prof).unwrap().contains("main"));
}
