//! `ubik run`'s output files may name neither a file the run reads nor another output
//! (docs/contract.md, "Output files"): paths are compared by the file they name, not by
//! their text, so `./a` and `a`, a symbolic link and a hard link are the same file.
//!
//! Only regular files (and paths not there yet, which become regular files) are compared:
//! a device (`/dev/null`, a terminal), a pipe or a socket is a stream, not a file that
//! writing truncates or overwrites, so it may stand for several outputs. A directory, or a
//! path in a folder that does not exist, is left to the output's creation to refuse (74).

use crate::{code, Failure};
use std::path::{Path, PathBuf};

/// The file a path names, for comparing paths.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FileId {
    /// An existing regular file: its device and inode.
    Node(u64, u64),
    /// A file not there yet: where it will be created (the canonical folder and the name);
    /// elsewhere than on unix, also an existing file's canonical path.
    Path(PathBuf),
}

/// The regular file `path` names (following symbolic links) or will name once created;
/// `None` for anything else (see the module's comment).
pub fn identity(path: &Path) -> Option<FileId> {
    match std::fs::metadata(path) {
        Ok(m) => regular(&m, path),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => to_be(path, 0),
        Err(_) => None,
    }
}

fn regular(m: &std::fs::Metadata, path: &Path) -> Option<FileId> {
    if !m.is_file() {
        return None;
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let _ = path;
        Some(FileId::Node(m.dev(), m.ino()))
    }
    #[cfg(not(unix))]
    {
        path.canonicalize().ok().map(FileId::Path)
    }
}

/// Where creating `path`, which does not exist, puts the file: a dangling symbolic link
/// creates its target.
fn to_be(path: &Path, links: u32) -> Option<FileId> {
    if let Ok(target) = std::fs::read_link(path) {
        if links >= 40 {
            return None;
        }
        let target = match path.parent() {
            Some(dir) if target.is_relative() => dir.join(target),
            _ => target,
        };
        return to_be(&target, links + 1);
    }
    let name = path.file_name()?;
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    dir.canonicalize().ok().map(|d| FileId::Path(d.join(name)))
}

/// The regular file an open standard stream writes to, if it is one.
#[cfg(unix)]
fn stream_identity(fd: std::os::fd::BorrowedFd) -> Option<FileId> {
    let f = std::fs::File::from(fd.try_clone_to_owned().ok()?);
    regular(&f.metadata().ok()?, Path::new(""))
}

/// A file the run reads or writes: `label` says which in messages (`--stats s.json`, `the
/// firmware fw.elf`), `path` is the path as given.
pub struct Named<'a> {
    pub label: String,
    pub path: &'a Path,
}

impl<'a> Named<'a> {
    /// An output: its flag and its path.
    pub fn output(flag: &str, path: &'a Path) -> Named<'a> {
        Named {
            label: format!("{flag} {}", path.display()),
            path,
        }
    }

    /// An input: `label` names it, its path included.
    pub fn input(label: String, path: &'a Path) -> Named<'a> {
        Named { label, path }
    }
}

/// Checks that no two `outputs` name one file, that no output is one of `inputs`, and that
/// none is the file stdout or stderr writes to: a usage error (64) otherwise.
pub fn check(outputs: &[Named], inputs: &[Named]) -> Result<(), Failure> {
    let ids: Vec<Option<FileId>> = outputs.iter().map(|o| identity(o.path)).collect();
    #[cfg(unix)]
    let streams = {
        use std::os::fd::AsFd;
        [
            (
                "stdout (the console)",
                stream_identity(std::io::stdout().as_fd()),
            ),
            ("stderr", stream_identity(std::io::stderr().as_fd())),
        ]
    };
    #[cfg(not(unix))]
    let streams: [(&str, Option<FileId>); 0] = [];
    for (i, o) in outputs.iter().enumerate() {
        let Some(id) = &ids[i] else { continue };
        for inp in inputs {
            if identity(inp.path).as_ref() == Some(id) {
                return Err(usage(format!(
                    "{} is {}, which the run reads; expected an output path that is no input",
                    o.label, inp.label
                )));
            }
        }
        for (j, p) in outputs.iter().enumerate().take(i) {
            if ids[j].as_ref() == Some(id) {
                return Err(usage(format!(
                    "{} and {} name the same file; expected a separate file for each output",
                    p.label, o.label
                )));
            }
        }
        for (name, s) in &streams {
            if s.as_ref() == Some(id) {
                return Err(usage(format!(
                    "{} is the file {name} goes to; expected a separate file for each output",
                    o.label
                )));
            }
        }
    }
    Ok(())
}

fn usage(message: String) -> Failure {
    Failure::new(code::USAGE, format!("usage error: {message}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(tag: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("ubik-outputs-{}-{tag}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d.canonicalize().unwrap()
    }

    #[test]
    fn spellings_and_links_of_one_file_are_one_identity() {
        let d = scratch("ids");
        let a = d.join("a");
        std::fs::write(&a, b"x").unwrap();
        let dotted = d.join(".").join("a");
        let up = d.join("sub/../a");
        std::fs::create_dir(d.join("sub")).unwrap();
        let hard = d.join("hard");
        std::fs::hard_link(&a, &hard).unwrap();
        #[cfg(unix)]
        std::os::unix::fs::symlink(&a, d.join("soft")).unwrap();
        let id = identity(&a).expect("a regular file");
        for p in [dotted, up, hard] {
            assert_eq!(identity(&p).as_ref(), Some(&id), "{}", p.display());
        }
        #[cfg(unix)]
        assert_eq!(identity(&d.join("soft")).as_ref(), Some(&id));
        std::fs::write(d.join("b"), b"y").unwrap();
        assert_ne!(identity(&d.join("b")), Some(id));
    }

    #[test]
    fn files_not_there_yet_compare_by_where_they_will_be() {
        let d = scratch("tobe");
        std::fs::create_dir(d.join("sub")).unwrap();
        let n = identity(&d.join("new")).expect("a file to be");
        assert_eq!(identity(&d.join("sub/../new")), Some(n.clone()));
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink("new", d.join("dangling")).unwrap();
            assert_eq!(identity(&d.join("dangling")), Some(n));
        }
        assert_eq!(identity(&d.join("no/such/dir/x")), None);
    }

    #[test]
    fn devices_and_directories_are_not_compared() {
        let d = scratch("dev");
        assert_eq!(identity(&d), None);
        #[cfg(unix)]
        {
            assert_eq!(identity(Path::new("/dev/null")), None);
            let null = Path::new("/dev/null");
            check(
                &[
                    Named::output("--trace", null),
                    Named::output("--itrace", null),
                ],
                &[],
            )
            .unwrap_or_else(|f| panic!("/dev/null twice: {}", f.message));
        }
    }
}
