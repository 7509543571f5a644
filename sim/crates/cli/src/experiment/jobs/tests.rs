//! The engine without a cross compiler: builds by a shell script (which counts its calls),
//! runs of images that are not firmware.

use super::*;

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("ubik-jobs-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A build command that appends a line to `count` and writes `elf_text` as the ELF.
fn script(d: &Path, elf_text: &str) -> BuildWith {
    let s = d.join("build.sh");
    std::fs::write(
        &s,
        format!(
            "#!/bin/sh\necho built >> {}\nmkdir -p \"$1/build\"\nprintf '{elf_text}' > \"$2\"\n",
            d.join("count").display()
        ),
    )
    .unwrap();
    BuildWith::Command {
        program: "/bin/sh".into(),
        args: vec![s.display().to_string()],
        env: vec![],
    }
}

fn job(label: &str, define: &str, build: &BuildWith) -> Job {
    Job {
        label: label.into(),
        source: Source {
            files: vec![],
            generated: vec![("cfg.h".into(), format!("#define X {define}\n"))],
            build: build.clone(),
        },
        run: RunOpts::default(),
    }
}

fn engine(d: &Path) -> Engine {
    let mut e = Engine::new("t", d, &d.join("work"), 2)
        .map_err(|f| f.message)
        .unwrap();
    e.quiet = true;
    e
}

#[test]
fn equal_sources_are_built_once_in_the_first_jobs_directory() {
    let d = tmp("dedup");
    let b = script(&d, "x");
    let jobs = [job("a", "1", &b), job("b", "2", &b), job("c", "1", &b)];
    let elfs = engine(&d)
        .build_all(&jobs, &std::sync::atomic::AtomicBool::new(false))
        .map_err(|f| f.message)
        .unwrap();
    let count = std::fs::read_to_string(d.join("count")).unwrap();
    assert_eq!(count.lines().count(), 2, "two distinct sources");
    assert_eq!(elfs[0], elfs[2]);
    assert_ne!(elfs[0], elfs[1]);
    assert!(elfs[2].starts_with(d.join("work/build/a")));
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn a_run_that_fails_names_the_job_and_its_console_file() {
    let d = tmp("badelf");
    let b = script(&d, "not an ELF");
    let f = engine(&d).run(&[job("basic-x", "1", &b)]).unwrap_err();
    assert_eq!(f.code, code::DATA, "{}", f.message);
    assert!(
        f.message.starts_with("experiment t: job basic-x: "),
        "{}",
        f.message
    );
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn a_build_that_fails_names_the_job_and_its_log() {
    let d = tmp("badbuild");
    let b = BuildWith::Command {
        program: "/bin/false".into(),
        args: vec![],
        env: vec![],
    };
    let f = engine(&d).run(&[job("j1", "1", &b)]).unwrap_err();
    assert_eq!(f.code, 1);
    assert!(
        f.message
            .contains("experiment t: job j1 does not build (exit 1)")
            && f.message.contains("work/build/j1/build.log"),
        "{}",
        f.message
    );
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn labels_must_be_unique_directory_names() {
    let b = BuildWith::Ubik {
        system_toml: String::new(),
    };
    for bad in [vec!["a", "a"], vec!["../x"], vec![""], vec![".hidden"]] {
        let jobs: Vec<Job> = bad.iter().map(|l| job(l, "1", &b)).collect();
        assert_eq!(check_labels(&jobs).unwrap_err().code, code::INTERNAL);
    }
    assert!(check_labels(&[job("basic-ubik-prio", "1", &b), job("nos.1", "1", &b)]).is_ok());
}

#[test]
fn an_inline_machine_is_read_and_its_errors_located() {
    let m = MachineSrc::Inline {
        name: "tm.toml".into(),
        text: "\n\nnot_a_key = 1\n".into(),
    };
    let f = m.load().unwrap_err();
    assert_eq!(f.code, code::DATA);
    assert!(f.message.contains("tm.toml:3:1"), "{}", f.message);
    assert!(MachineSrc::Default.load().is_ok());
}
