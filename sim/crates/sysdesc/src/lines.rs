//! Line and column of a byte offset in a description, in logarithmic time: every object's
//! location is taken, so scanning the text from its start for each one made resolving a
//! description quadratic in its length.

/// The byte offsets at which the lines of one text start.
pub(crate) struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    pub(crate) fn new(text: &str) -> LineIndex {
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
    /// made from; as `machine::config::line_col`.
    pub(crate) fn line_col(&self, text: &str, offset: usize) -> (usize, usize) {
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
    use machine::config::line_col;

    #[test]
    fn agrees_with_the_linear_scan() {
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
