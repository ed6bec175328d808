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
    pub fn with_snippet_from(mut self, text: &str) -> Diagnostic {
        if let Some(src) = text.lines().nth(self.line.saturating_sub(1) as usize) {
            let src: String = src.chars().take(160).collect();
            let pad = " ".repeat(self.column.saturating_sub(1).min(160) as usize);
            let gutter = self.line.to_string();
            let blank = " ".repeat(gutter.len());
            self.snippet = Some(format!("{blank} |\n{gutter} | {src}\n{blank} | {pad}^"));
        }
        self
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
