//! Lines of the text protocols Sente speaks with engines (UCI, xboard), read as bytes with a
//! cap on their length: the other side may write anything, of any length, and neither a byte
//! that is not UTF-8 nor a line without end may stop the reader or grow its memory. What a
//! line too long means (the engine has failed; the line is ignored) is the reader's to say.

use std::io::{self, BufRead};

/// What [`read_line`] found.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Read {
    /// A line, in the buffer with its line break (if the input did not end first).
    Line,
    /// The first `max + 1` bytes of a line longer than `max`, read no further.
    TooLong,
    /// The end of the input.
    End,
}

/// Reads the next line of `input` into `bytes` (cleared first), reading at most `max + 1`
/// bytes of it: one byte past the cap tells a line of exactly the cap from a longer one.
pub fn read_line(input: &mut impl BufRead, bytes: &mut Vec<u8>, max: usize) -> io::Result<Read> {
    bytes.clear();
    if io::Read::take(&mut *input, max as u64 + 1).read_until(b'\n', bytes)? == 0 {
        return Ok(Read::End);
    }
    if bytes.last() != Some(&b'\n') && bytes.len() > max {
        return Ok(Read::TooLong);
    }
    Ok(Read::Line)
}

/// Skips the rest of a line too long to read, up to its end, a buffer at a time.
pub fn skip_line(input: &mut impl BufRead) -> io::Result<()> {
    loop {
        let buffer = input.fill_buf()?;
        if buffer.is_empty() {
            return Ok(());
        }
        match buffer.iter().position(|&byte| byte == b'\n') {
            Some(at) => {
                input.consume(at + 1);
                return Ok(());
            }
            None => {
                let all = buffer.len();
                input.consume(all);
            }
        }
    }
}

/// A line's text without its line break.
pub fn text(bytes: &[u8]) -> &[u8] {
    let end = bytes
        .iter()
        .rposition(|&byte| byte != b'\n' && byte != b'\r')
        .map_or(0, |at| at + 1);
    &bytes[..end]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_read_to_the_cap_and_the_rest_of_a_long_one_skipped() {
        let mut input = io::Cursor::new(b"short\r\n0123456789abc\nlast".to_vec());
        let mut bytes = Vec::new();
        assert_eq!(read_line(&mut input, &mut bytes, 8).unwrap(), Read::Line);
        assert_eq!(text(&bytes), b"short");
        assert_eq!(read_line(&mut input, &mut bytes, 8).unwrap(), Read::TooLong);
        assert_eq!(bytes, b"012345678");
        skip_line(&mut input).unwrap();
        assert_eq!(read_line(&mut input, &mut bytes, 8).unwrap(), Read::Line);
        assert_eq!(text(&bytes), b"last");
        assert_eq!(read_line(&mut input, &mut bytes, 8).unwrap(), Read::End);
    }
}
