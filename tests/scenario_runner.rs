//! The scenario runner itself: failures, strict mode, malformed files, catalog changes.
