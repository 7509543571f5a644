//! Line and column of a byte offset in a text: by a scan from the start ([`line_col`]), or
//! in logarithmic time from an index of the line starts ([`LineIndex`]), for a document
//! whose every object's place is taken.

/// 1-based line and character column of byte `offset` in `text`.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map(|i| i + 1).unwrap_or(0);
    let column = text[line_start..offset].chars().count() + 1;
    (line, column)
}

/// The byte offsets at which the lines of one text start.
pub struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    pub fn new(text: &str) -> LineIndex {
        let mut starts = vec![0];
        starts.extend(
            text.bytes()
                .enumerate()
                .filter(|(_, b)| *b == b'\n')
                .map(|(i, _)| i + 1),
        );
        LineIndex { starts }
    }

    /// 1-based line and column (in characters) of `offset` in `text`, the text the index was
    /// made from; as [`line_col`].
    pub fn line_col(&self, text: &str, offset: usize) -> (usize, usize) {
        let mut offset = offset.min(text.len());
        while !text.is_char_boundary(offset) {
            offset -= 1;
        }
        // The last line start at or before offset.
        let line = self.starts.partition_point(|&s| s <= offset);
        let start = self.starts[line - 1];
        (line, text[start..offset].chars().count() + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_col_counts_chars() {
        assert_eq!(line_col("ab\ncd", 0), (1, 1));
        assert_eq!(line_col("ab\ncd", 3), (2, 1));
        assert_eq!(line_col("ab\ncd", 4), (2, 2));
        assert_eq!(line_col("é\néx", 5), (2, 2)); // 'é' is 2 bytes
    }

    #[test]
    fn the_index_agrees_with_the_scan() {
        let text = "a = 1\n\n[x.é]\r\nb = \"ü\"\nlast";
        let idx = LineIndex::new(text);
        for offset in 0..=text.len() + 2 {
            assert_eq!(
                idx.line_col(text, offset),
                line_col(text, offset),
                "offset {offset}"
            );
        }
        assert_eq!(LineIndex::new("").line_col("", 0), (1, 1));
    }
}
