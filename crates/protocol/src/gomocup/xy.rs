//! Points as the protocol writes them: `x,y`, the column then the row.

use inarow_core::Point;

/// Why a text is not `x,y`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum XyError {
    /// Not two fields parted by one comma; the text as read.
    #[error("expected x,y but got {0:?}")]
    Fields(String),
    /// Two fields, not both whole numbers; the text as read.
    #[error("expected x,y with whole numbers but got {0:?}")]
    Numbers(String),
}

/// Reads `x,y` (spaces allowed around the numbers).
pub fn parse_xy(text: &str) -> Result<(usize, usize), XyError> {
    let fields: Vec<&str> = text.split(',').map(str::trim).collect();
    if fields.len() != 2 {
        return Err(XyError::Fields(text.to_string()));
    }
    let num = |s: &str| {
        s.parse::<usize>()
            .map_err(|_| XyError::Numbers(text.to_string()))
    };
    Ok((num(fields[0])?, num(fields[1])?))
}

/// Writes `point` as `x,y` on a board `size` wide.
pub fn format_xy(point: Point, size: usize) -> String {
    let (x, y) = point.xy(size);
    format!("{x},{y}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xy_is_two_whole_numbers_and_reads_back_as_written() {
        assert_eq!(parse_xy(" 3 , 14 "), Ok((3, 14)));
        assert_eq!(parse_xy("3"), Err(XyError::Fields("3".into())));
        assert_eq!(parse_xy("1,2,3"), Err(XyError::Fields("1,2,3".into())));
        assert_eq!(parse_xy("1,-2"), Err(XyError::Numbers("1,-2".into())));
        assert_eq!(
            parse_xy("a,1").unwrap_err().to_string(),
            "expected x,y with whole numbers but got \"a,1\""
        );
        let p = Point::from_xy(4, 9, 15).unwrap();
        assert_eq!(parse_xy(&format_xy(p, 15)), Ok((4, 9)));
    }
}
