//! Diagnostics: every problem the loaders find, as values with a location.

use std::fmt;

/// One problem in an input file, with its 1-based line and column.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Diagnostic {
    pub file: String,
    pub line: u64,
    pub column: u64,
    pub message: String,
    /// The offending source line with a caret under the column, when the
    /// text is at hand.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snippet: Option<String>,
}

impl Diagnostic {
    pub fn new(file: &str, line: u64, column: u64, message: impl Into<String>) -> Diagnostic {
        Diagnostic { file: file.to_string(), line, column, message: message.into(), snippet: None }
    }

    /// Attaches a snippet of `text` (the whole file) around the diagnostic's line.
    /// `file:line:column: message`, without the word `error` or the
    /// snippet: where a bundled scenario parts from a user's rules.
    pub fn located(&self) -> String {
        format!("{}:{}:{}: {}", self.file, self.line, self.column, self.message)
    }

    pub fn with_snippet_from(mut self, text: &str) -> Diagnostic {
        if let Some(src) = text.lines().nth(self.line.saturating_sub(1) as usize) {
            let src: String = src.chars().take(160).collect();
            let before = src.chars().take(self.column.saturating_sub(1).min(160) as usize);
            let pad: String = before.map(pad_for).collect();
            let gutter = self.line.to_string();
            let blank = " ".repeat(gutter.len());
            self.snippet = Some(format!("{blank} |\n{gutter} | {src}\n{blank} | {pad}^"));
        }
        self
    }
}

/// What goes under `c` so that the caret lines up with the text above it:
/// a tab under a tab, two spaces under a wide (East Asian or emoji)
/// character, nothing under a combining mark, else one space.
fn pad_for(c: char) -> &'static str {
    let u = c as u32;
    let combining = matches!(u, 0x0300..=0x036F | 0x1AB0..=0x1AFF | 0x1DC0..=0x1DFF | 0x20D0..=0x20FF | 0xFE20..=0xFE2F | 0x200B..=0x200F);
    let wide = matches!(
        u,
        0x1100..=0x115F
            | 0x2E80..=0x303E
            | 0x3041..=0x33FF
            | 0x3400..=0x4DBF
            | 0x4E00..=0x9FFF
            | 0xA000..=0xA4CF
            | 0xAC00..=0xD7A3
            | 0xF900..=0xFAFF
            | 0xFE30..=0xFE4F
            | 0xFF00..=0xFF60
            | 0xFFE0..=0xFFE6
            | 0x1F300..=0x1F64F
            | 0x1F900..=0x1F9FF
            | 0x20000..=0x3FFFD
    );
    match c {
        '\t' => "\t",
        _ if combining => "",
        _ if wide => "  ",
        _ => " ",
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}: error: {}", self.file, self.line, self.column, self.message)?;
        if let Some(s) = &self.snippet {
            write!(f, "\n{s}")?;
        }
        Ok(())
    }
}

/// Collects diagnostics while lowering; a loader returns them all at once.
#[derive(Debug, Default)]
pub struct Diagnostics {
    pub items: Vec<Diagnostic>,
}

impl Diagnostics {
    pub fn push(&mut self, d: Diagnostic) {
        self.items.push(d);
    }
    pub fn error(&mut self, file: &str, at: (u64, u64), message: impl Into<String>) {
        self.items.push(Diagnostic::new(file, at.0, at.1, message));
    }
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }
}
