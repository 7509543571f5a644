//! Reading the files Ubik takes as input (machine files, input-stream files, system
//! descriptions, experiment files, ELF files) without trusting them. A path naming a
//! directory, a device or a socket is refused before it is opened, and no more than a fixed
//! number of bytes is read, so `/dev/zero`, an endless pipe or a huge file ends in one line
//! instead of a hang or an exhausted memory.

use std::fmt;
use std::io::Read;
use std::path::Path;
use std::sync::Arc;

/// The most a machine file, `system.toml` or experiment file may hold: 16 MiB.
pub const MAX_TOML_BYTES: u64 = 16 << 20;
/// The most an input-stream file may hold: 64 MiB (some 10 million samples).
pub const MAX_STREAM_BYTES: u64 = 64 << 20;
/// The most an ELF file may hold: 256 MiB.
pub const MAX_ELF_BYTES: u64 = 256 << 20;

/// Whether a pipe (a FIFO, `<(...)` in a shell) is an acceptable source. A pipe is read
/// until its writer closes it (at most the limit); it can be read only once, so files that
/// are read more than once (input streams: by `--check` and by every run) refuse it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pipes {
    Allowed,
    Refused,
}

/// Why a file was not read.
#[derive(Debug)]
pub enum ReadError {
    /// The system refused (missing file, permissions, ...): exit 66.
    Io(std::io::Error),
    /// Not something a file can be read from: a directory, a device, a socket, or a pipe
    /// where pipes are refused (its kind, for the message): exit 66.
    NotAFile(&'static str),
    /// More than `limit` bytes: exit 65 (the file is there, but it is not what Ubik reads).
    TooLarge { limit: u64 },
}

impl ReadError {
    /// True for a file that is too large (bad input, exit 65); the others cannot be read (66).
    pub fn is_too_large(&self) -> bool {
        matches!(self, ReadError::TooLarge { .. })
    }
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::Io(e) => {
                // "No such file or directory (os error 2)": keep the text, drop the code.
                let s = e.to_string();
                f.write_str(s.find(" (os error").map_or(&s[..], |i| &s[..i]))
            }
            ReadError::NotAFile(kind) => write!(f, "it is {kind}, not a regular file"),
            ReadError::TooLarge { limit } => write!(f, "it is larger than {}", size_text(*limit)),
        }
    }
}

impl std::error::Error for ReadError {}

/// A size limit as text: "16 MiB".
pub fn size_text(bytes: u64) -> String {
    if bytes >= 1 << 20 && bytes.is_multiple_of(1 << 20) {
        format!("{} MiB", bytes >> 20)
    } else {
        format!("{bytes} bytes")
    }
}

/// What a path names, when it is not a regular file (or a pipe, if `pipes` allows one).
fn refused_kind(meta: &std::fs::Metadata, pipes: Pipes) -> Option<&'static str> {
    let ft = meta.file_type();
    if ft.is_file() {
        return None;
    }
    if ft.is_dir() {
        return Some("a directory");
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if ft.is_fifo() {
            return (pipes == Pipes::Refused).then_some("a pipe (FIFO)");
        }
        if ft.is_char_device() {
            return Some("a character device");
        }
        if ft.is_block_device() {
            return Some("a block device");
        }
        if ft.is_socket() {
            return Some("a socket");
        }
    }
    let _ = pipes;
    Some("not a regular file")
}

/// Reads the whole file at `path`, refusing anything that is not a regular file (or a pipe,
/// if `pipes` allows one) and anything longer than `limit` bytes.
pub fn read_bounded(path: &Path, limit: u64, pipes: Pipes) -> Result<Vec<u8>, ReadError> {
    let meta = std::fs::metadata(path).map_err(ReadError::Io)?;
    if let Some(kind) = refused_kind(&meta, pipes) {
        return Err(ReadError::NotAFile(kind));
    }
    if meta.is_file() && meta.len() > limit {
        return Err(ReadError::TooLarge { limit });
    }
    let file = std::fs::File::open(path).map_err(ReadError::Io)?;
    // Sized once for a regular file (grown by doubling, a 60 MiB file would pass through a
    // 128 MiB buffer and a copy).
    let mut bytes = Vec::with_capacity(if meta.is_file() {
        meta.len().min(limit) as usize + 1
    } else {
        0
    });
    // One byte more than the limit tells a file of exactly `limit` bytes from a longer one
    // (a file can grow between the size check and the read; a pipe has no size).
    file.take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(ReadError::Io)?;
    if bytes.len() as u64 > limit {
        return Err(ReadError::TooLarge { limit });
    }
    Ok(bytes)
}

/// As [`read_bounded`] (pipes refused), into one shared buffer: a regular file is read in
/// place, with no second copy (an input stream of 64 MiB is held once, by every copy of the
/// machine).
pub fn read_bounded_shared(path: &Path, limit: u64) -> Result<Arc<[u8]>, ReadError> {
    let meta = std::fs::metadata(path).map_err(ReadError::Io)?;
    if let Some(kind) = refused_kind(&meta, Pipes::Refused) {
        return Err(ReadError::NotAFile(kind));
    }
    if meta.len() > limit {
        return Err(ReadError::TooLarge { limit });
    }
    let mut file = std::fs::File::open(path).map_err(ReadError::Io)?;
    let mut buf: Arc<[u8]> = std::iter::repeat_n(0u8, meta.len() as usize).collect();
    let exact = match Arc::get_mut(&mut buf) {
        Some(b) => file.read_exact(b).is_ok() && file.read(&mut [0u8]).ok() == Some(0),
        None => false,
    };
    if exact {
        Ok(buf)
    } else {
        // The file changed size under us: read it as it is now.
        drop(buf);
        read_bounded(path, limit, Pipes::Refused).map(Arc::from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tmp(tag: &str) -> std::path::PathBuf {
        let d = std::env::temp_dir().join(format!("ubik-infile-{}-{tag}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn reads_a_file_up_to_the_limit() {
        let d = tmp("limit");
        let p = d.join("f");
        std::fs::write(&p, b"12345").unwrap();
        assert_eq!(read_bounded(&p, 5, Pipes::Refused).unwrap(), b"12345");
        let e = read_bounded(&p, 4, Pipes::Refused).unwrap_err();
        assert!(e.is_too_large());
        assert_eq!(e.to_string(), "it is larger than 4 bytes");
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn refuses_directories_and_devices_at_once() {
        let d = tmp("dir");
        let e = read_bounded(&d, 100, Pipes::Allowed).unwrap_err();
        assert_eq!(e.to_string(), "it is a directory, not a regular file");
        assert!(!e.is_too_large());
        #[cfg(unix)]
        {
            // An endless file: refused before a single byte is read.
            let e = read_bounded(Path::new("/dev/zero"), 100, Pipes::Allowed).unwrap_err();
            assert_eq!(
                e.to_string(),
                "it is a character device, not a regular file"
            );
        }
        let e = read_bounded(&d.join("missing"), 100, Pipes::Allowed).unwrap_err();
        assert_eq!(e.to_string(), "No such file or directory");
        let _ = std::fs::remove_dir_all(&d);
    }

    #[cfg(unix)]
    #[test]
    fn an_endless_pipe_stops_at_the_limit() {
        let d = tmp("fifo");
        let fifo = d.join("fifo");
        let ok = std::process::Command::new("mkfifo").arg(&fifo).status();
        if !ok.map(|s| s.success()).unwrap_or(false) {
            eprintln!("note: mkfifo unavailable; pipe limit not tested");
            return;
        }
        let e = read_bounded(&fifo, 100, Pipes::Refused).unwrap_err();
        assert_eq!(e.to_string(), "it is a pipe (FIFO), not a regular file");
        // A writer that never stops: the read ends after limit + 1 bytes.
        let writer_path = fifo.clone();
        let writer = std::thread::spawn(move || {
            use std::io::Write;
            if let Ok(mut f) = std::fs::OpenOptions::new().write(true).open(&writer_path) {
                let block = [b'x'; 4096];
                while f.write_all(&block).is_ok() {}
            }
        });
        let e = read_bounded(&fifo, 10_000, Pipes::Allowed).unwrap_err();
        assert!(e.is_too_large(), "{e}");
        writer.join().unwrap(); // the writer stops when the reader closes the pipe
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn a_shared_read_is_the_file() {
        let d = tmp("shared");
        let p = d.join("f");
        std::fs::write(&p, b"12345").unwrap();
        assert_eq!(&read_bounded_shared(&p, 5).unwrap()[..], b"12345");
        assert!(read_bounded_shared(&p, 4).unwrap_err().is_too_large());
        std::fs::write(&p, b"").unwrap();
        assert!(read_bounded_shared(&p, 4).unwrap().is_empty());
        assert!(read_bounded_shared(&d, 4).is_err(), "a directory");
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn sizes_read_as_text() {
        assert_eq!(size_text(16 << 20), "16 MiB");
        assert_eq!(size_text(1000), "1000 bytes");
    }
}
