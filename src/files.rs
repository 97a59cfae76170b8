//! The files Sente reads and writes for its users: training data, networks, tournament records.
//!
//! A file named on a command line may be anything: a FIFO (opening it blocks until a writer
//! comes), `/dev/zero` (endless), a gigabyte of garbage. So what is read is first checked to be
//! a regular file, line files are streamed a bounded line at a time (an error names the file
//! and the line), and whole files are read only up to a size their kind allows. What is
//! written goes to a temporary file beside the target, renamed over it only once the run has
//! succeeded: a run that fails leaves the old file as it was (even when it was one of the
//! run's own inputs).

use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read as _, Write};
use std::path::{Path, PathBuf};

use crate::lines;

/// The longest line a data file may have: far longer than any position's.
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// Why a file could not be read or written; each names the file, and a line where it is one.
#[derive(Debug, thiserror::Error)]
pub enum FileError {
    #[error("{}: {source}", path.display())]
    Io { path: PathBuf, source: io::Error },
    #[error(
        "{}: not a regular file (a directory, a FIFO or a device): Sente reads only files",
        path.display()
    )]
    NotARegularFile { path: PathBuf },
    /// `cap` in words: whole MiB where it is whole MiB, else bytes (never "at most 0 MiB").
    #[error("{}: {size} bytes or more; {what} is at most {cap}", path.display())]
    TooLarge {
        path: PathBuf,
        size: u64,
        what: String,
        cap: String,
    },
    #[error("{}: line {line}: longer than {} KiB: not a line of data", path.display(), MAX_LINE_BYTES >> 10)]
    LineTooLong { path: PathBuf, line: usize },
    #[error("{}: line {line}: not UTF-8 text", path.display())]
    NotUtf8 { path: PathBuf, line: usize },
    /// A line the reader refused, in the reader's words.
    #[error("{}: line {line}: {problem}", path.display())]
    BadLine {
        path: PathBuf,
        line: usize,
        problem: String,
    },
    #[error("{}: not JSON (it does not begin with {{): not {what}", path.display())]
    NotJson { path: PathBuf, what: String },
    #[error("{}: empty: not {what}", path.display())]
    Empty { path: PathBuf, what: String },
}

impl FileError {
    /// An input or output error on the file at `path`.
    pub fn io(path: &Path, source: io::Error) -> FileError {
        FileError::Io {
            path: path.to_owned(),
            source,
        }
    }
}

/// `path`, opened for reading if it is a regular file.
pub fn open(path: &Path) -> Result<File, FileError> {
    // Asked before opening: opening a FIFO waits for a writer.
    let metadata = std::fs::metadata(path).map_err(|error| FileError::io(path, error))?;
    if !metadata.is_file() {
        return Err(FileError::NotARegularFile {
            path: path.to_owned(),
        });
    }
    File::open(path).map_err(|error| FileError::io(path, error))
}

/// The whole of the regular file at `path`, if it holds at most `max` bytes (`what` names its
/// kind in the refusal).
pub fn read_at_most(path: &Path, max: u64, what: &str) -> Result<Vec<u8>, FileError> {
    let file = open(path)?;
    let too_large = |size: u64| FileError::TooLarge {
        path: path.to_owned(),
        size,
        what: what.to_owned(),
        cap: if max >= 1 << 20 && max.is_multiple_of(1 << 20) {
            format!("{} MiB", max >> 20)
        } else {
            format!("{max} bytes")
        },
    };
    let size = file
        .metadata()
        .map_err(|error| FileError::io(path, error))?
        .len();
    if size > max {
        return Err(too_large(size));
    }
    let mut bytes = Vec::new();
    // Read to the cap and no further: a file that grew since its size was asked stops there.
    file.take(max + 1)
        .read_to_end(&mut bytes)
        .map_err(|error| FileError::io(path, error))?;
    if bytes.len() as u64 > max {
        return Err(too_large(bytes.len() as u64));
    }
    Ok(bytes)
}

/// Calls `each` with every line of the file at `path` (its number from 1, its text without
/// the line break), streamed; stops at the first error, which names the file and the line.
/// Lines longer than [`MAX_LINE_BYTES`] and lines that are not UTF-8 are errors.
pub fn for_each_line<E: std::fmt::Display>(
    path: &Path,
    mut each: impl FnMut(usize, &str) -> Result<(), E>,
) -> Result<(), FileError> {
    let mut input = BufReader::new(open(path)?);
    let mut bytes = Vec::new();
    let path = || path.to_owned();
    for line in 1.. {
        let read = lines::read_line(&mut input, &mut bytes, MAX_LINE_BYTES).map_err(|error| {
            FileError::BadLine {
                path: path(),
                line,
                problem: error.to_string(),
            }
        })?;
        match read {
            lines::Read::End => return Ok(()),
            lines::Read::TooLong => return Err(FileError::LineTooLong { path: path(), line }),
            lines::Read::Line => {
                let text = std::str::from_utf8(lines::text(&bytes))
                    .map_err(|_| FileError::NotUtf8 { path: path(), line })?;
                each(line, text).map_err(|error| FileError::BadLine {
                    path: path(),
                    line,
                    problem: error.to_string(),
                })?;
            }
        }
    }
    unreachable!("the lines end")
}

/// Writes the file at `path` with `write`, all or nothing: into a temporary file beside it,
/// renamed over `path` once `write` has succeeded and the bytes are flushed; removed if not.
pub fn write_atomically<T, E: From<FileError>>(
    path: &Path,
    write: impl FnOnce(&mut (dyn Write + Send)) -> Result<T, E>,
) -> Result<T, E> {
    let in_file = |error: io::Error| FileError::io(path, error);
    let temporary = temporary_beside(path);
    let file = File::create(&temporary).map_err(in_file)?;
    let mut out = BufWriter::new(file);
    let written = write(&mut out).and_then(|value| {
        let file = out
            .into_inner()
            .map_err(|error| in_file(error.into_error()))?;
        file.sync_all().map_err(in_file)?;
        Ok(value)
    });
    match written {
        Ok(value) => {
            std::fs::rename(&temporary, path).map_err(|error| {
                let _ = std::fs::remove_file(&temporary);
                in_file(error)
            })?;
            Ok(value)
        }
        Err(error) => {
            let _ = std::fs::remove_file(&temporary);
            Err(error)
        }
    }
}

/// `bytes` as the file at `path`, all or nothing ([`write_atomically`]).
pub fn write_bytes(path: &Path, bytes: &[u8]) -> Result<(), FileError> {
    write_atomically(path, |out| {
        out.write_all(bytes)
            .map_err(|error| FileError::io(path, error))
    })
}

/// The recorded games of a JSON file (a tournament's answer, a shard's results): at most this
/// many bytes, read whole since JSON is not read a line at a time.
pub const MAX_RECORDS_FILE_BYTES: u64 = 1 << 30;

/// The JSON file at `path`, whole, at most [`MAX_RECORDS_FILE_BYTES`]; one whose first byte
/// (after white space) cannot begin an object is refused at once, before the rest is read.
pub fn read_json(path: &Path, what: &str) -> Result<Vec<u8>, FileError> {
    let mut start = [0u8; 512];
    let read = open(path)?
        .read(&mut start)
        .map_err(|error| FileError::io(path, error))?;
    match start[..read]
        .iter()
        .find(|byte| !byte.is_ascii_whitespace())
    {
        Some(b'{') => read_at_most(path, MAX_RECORDS_FILE_BYTES, what),
        Some(_) => Err(FileError::NotJson {
            path: path.to_owned(),
            what: what.to_owned(),
        }),
        None if read == 0 => Err(FileError::Empty {
            path: path.to_owned(),
            what: what.to_owned(),
        }),
        None => read_at_most(path, MAX_RECORDS_FILE_BYTES, what),
    }
}

/// A name beside `path` no other run writes at the same time: `.NAME.PID.tmp`.
fn temporary_beside(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_else(|| "output".to_owned());
    path.with_file_name(format!(".{name}.{}.tmp", std::process::id()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let directory = std::env::temp_dir().join(format!("sente-files-{}", std::process::id()));
        std::fs::create_dir_all(&directory).unwrap();
        directory.join(name)
    }

    #[test]
    fn what_is_not_a_regular_file_is_refused_before_it_is_opened() {
        let error = open(Path::new("/dev/zero")).unwrap_err().to_string();
        assert!(error.contains("not a regular file"), "{error}");
        let error = read_at_most(Path::new("/dev/zero"), 1 << 20, "a network")
            .unwrap_err()
            .to_string();
        assert!(error.contains("not a regular file"), "{error}");
        let directory = std::env::temp_dir();
        assert!(for_each_line(&directory, |_, _| Ok::<_, String>(())).is_err());
        // A FIFO with no writer: opening it would wait for ever.
        let fifo = scratch("fifo");
        let _ = std::fs::remove_file(&fifo);
        let name = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: mkfifo reads a NUL-terminated path and changes nothing else.
        assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o600) }, 0);
        assert!(open(&fifo).unwrap_err().to_string().contains("FIFO"));
        std::fs::remove_file(&fifo).unwrap();
    }

    #[test]
    fn lines_are_streamed_and_an_error_names_the_file_and_line() {
        let path = scratch("lines.txt");
        std::fs::write(&path, "one\r\ntwo\n\nfour").unwrap();
        let mut seen = Vec::new();
        for_each_line(&path, |number, line| {
            seen.push((number, line.to_owned()));
            Ok::<_, String>(())
        })
        .unwrap();
        assert_eq!(
            seen,
            [(1, "one"), (2, "two"), (3, ""), (4, "four")].map(|(n, l)| (n, l.to_owned()))
        );
        let error = for_each_line(&path, |number, _| {
            if number == 2 {
                Err("bad".to_owned())
            } else {
                Ok(())
            }
        })
        .unwrap_err();
        assert_eq!(
            error.to_string(),
            format!("{}: line 2: bad", path.display())
        );
        std::fs::write(&path, vec![b'x'; 2 << 20]).unwrap();
        let error = for_each_line(&path, |_, _| Ok::<_, String>(()))
            .unwrap_err()
            .to_string();
        assert!(error.contains("line 1: longer than 64 KiB"), "{error}");
        let error = read_at_most(&path, 1 << 20, "a thing")
            .unwrap_err()
            .to_string();
        assert!(error.contains("a thing is at most 1 MiB"), "{error}");
        // A cap of less than a MiB is said in bytes, not as "0 MiB".
        let error = read_at_most(&path, 600_000, "a net")
            .unwrap_err()
            .to_string();
        assert!(error.contains("a net is at most 600000 bytes"), "{error}");
        std::fs::remove_file(&path).unwrap();
    }

    /// A run's own failure, as a writer of a file has one.
    #[derive(Debug)]
    struct Failed;

    impl From<FileError> for Failed {
        fn from(_: FileError) -> Failed {
            Failed
        }
    }

    #[test]
    fn a_failed_write_leaves_the_old_file_as_it_was() {
        let path = scratch("kept.txt");
        std::fs::write(&path, "precious").unwrap();
        let error = write_atomically(&path, |out| {
            out.write_all(b"half").unwrap();
            Err::<(), _>(Failed)
        })
        .unwrap_err();
        assert!(matches!(error, Failed));
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "precious");
        write_bytes(&path, b"new").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new");
        let leftovers = std::fs::read_dir(path.parent().unwrap())
            .unwrap()
            .filter(|entry| {
                entry
                    .as_ref()
                    .unwrap()
                    .file_name()
                    .to_string_lossy()
                    .ends_with(".tmp")
            })
            .count();
        assert_eq!(leftovers, 0);
        std::fs::remove_file(&path).unwrap();
    }
}
