//! Which file of the crate uses which, read from the source as a reader follows a path: a `use`
//! or a path written in the code (`super::`, `crate::`, `self::`) leads to the file that defines
//! the item, through the re-exports (`pub use`) on the way. A folder's `mod.rs` and the files
//! in it are one room (the folder's front door declares them, they may use what it defines),
//! so the edges between a module and the modules above it are left out; every other edge is
//! an arrow between two rooms, and arrows must not go round in a circle.

use std::collections::{BTreeMap, BTreeSet};

/// A module's path below the crate's root, its segments (`["search", "record"]`).
pub type Module = Vec<String>;

/// The code of a file as the graph reads it: no comments, no string literals, no test module.
pub fn code(text: &str) -> String {
    let text = text
        .split("#[cfg(test)]\nmod tests")
        .next()
        .unwrap_or_default();
    let mut code = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    let mut previous = ' ';
    while let Some(c) = chars.next() {
        let word_start = !(previous.is_alphanumeric() || previous == '_');
        previous = c;
        match c {
            // A raw string, r#"..."#, which may hold quotes.
            'r' if word_start && chars.peek() == Some(&'#') => {
                let hashes: String = std::iter::from_fn(|| chars.next_if_eq(&'#')).collect();
                if chars.next_if_eq(&'"').is_none() {
                    code.push('r');
                    code.push_str(&hashes);
                    continue;
                }
                let end = format!("\"{hashes}");
                let mut read = String::new();
                for c in chars.by_ref() {
                    read.push(c);
                    if read.ends_with(&end) {
                        break;
                    }
                }
                code.push_str("\"\"");
            }
            '/' if chars.peek() == Some(&'/') => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        code.push('\n');
                        break;
                    }
                }
            }
            '"' => {
                while let Some(c) = chars.next() {
                    match c {
                        '\\' => {
                            chars.next();
                        }
                        '"' => break,
                        _ => {}
                    }
                }
                code.push_str("\"\"");
            }
            // A char literal such as '"' or '{' would read as code; a lifetime stays.
            '\'' => {
                let mut look = chars.clone();
                let literal = match (look.next(), look.next()) {
                    (Some('\\'), _) => look.position(|c| c == '\'').map(|at| at + 3),
                    (Some(_), Some('\'')) => Some(2),
                    _ => None,
                };
                match literal {
                    Some(length) => {
                        chars.nth(length - 1);
                        code.push_str("' '");
                    }
                    None => code.push('\''),
                }
            }
            _ => code.push(c),
        }
    }
    code
}

/// The paths a `use` tree names, braces expanded: `a::{b, c::{d, self}}` gives `a::b`,
/// `a::c::d` and `a::c`; a rename (`as x`) is dropped.
fn expand(tree: &str) -> Vec<String> {
    let tree: String = tree.chars().filter(|c| !c.is_whitespace()).collect();
    let Some(open) = tree.find('{') else {
        let path = tree.split("as").next().unwrap_or_default();
        return vec![path.trim_end_matches(':').to_owned()];
    };
    let mut depth = 0;
    let close = open
        + tree[open..]
            .char_indices()
            .find(|&(_, c)| {
                depth += match c {
                    '{' => 1,
                    '}' => -1,
                    _ => 0,
                };
                depth == 0
            })
            .map_or(tree.len() - open - 1, |(at, _)| at);
    let (prefix, inner, suffix) = (&tree[..open], &tree[open + 1..close], &tree[close + 1..]);
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (at, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&inner[start..at]);
                start = at + 1;
            }
            _ => {}
        }
    }
    parts.push(&inner[start..]);
    parts
        .into_iter()
        .filter(|part| !part.is_empty())
        .flat_map(|part| match part {
            "self" => vec![prefix.trim_end_matches(':').to_owned()],
            part => expand(&format!("{prefix}{part}{suffix}")),
        })
        .collect()
}

/// The `use` declarations of `code`: (re-exported, path).
fn uses(code: &str) -> Vec<(bool, String)> {
    let mut found = Vec::new();
    for (at, _) in code.match_indices("use ") {
        let before = code[..at].trim_end();
        let word_start =
            at == 0 || !code[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_');
        if !word_start {
            continue;
        }
        let statement = before
            .rsplit(['\n', ';', '{', '}'])
            .next()
            .unwrap_or_default();
        let exported = statement.trim_start().starts_with("pub");
        if !statement.trim().is_empty() && !exported {
            continue;
        }
        let rest = &code[at + 4..];
        let end = rest.find(';').unwrap_or(rest.len());
        found.extend(
            expand(&rest[..end])
                .into_iter()
                .map(|path| (exported, path)),
        );
    }
    found
}

/// The paths written in code outside `use` declarations that start at the crate, the module
/// or its parent.
fn written_paths(code: &str) -> Vec<String> {
    let mut found = Vec::new();
    for start in ["crate::", "super::", "self::"] {
        for (at, _) in code.match_indices(start) {
            if code[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_' || c == ':') {
                continue;
            }
            let path: String = code[at..]
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
                .collect();
            found.push(path.trim_end_matches(':').to_owned());
        }
    }
    found
}

/// The module a path starts from, in `module`, and the segments after it; `None` for a path
/// outside the crate.
fn anchored(
    module: &Module,
    modules: &BTreeSet<Module>,
    path: &str,
) -> Option<(Module, Vec<String>)> {
    let mut segments: Vec<String> = path.split("::").map(str::to_owned).collect();
    let mut at = module.clone();
    match segments[0].as_str() {
        "crate" => at.clear(),
        "super" => {
            while segments.first().map(String::as_str) == Some("super") {
                at.pop();
                segments.remove(0);
            }
            return Some((at, segments));
        }
        "self" => {}
        first => {
            let mut child = at.clone();
            child.push(first.to_owned());
            return modules.contains(&child).then_some((at, segments));
        }
    }
    segments.remove(0);
    Some((at, segments))
}

/// The crate's files as modules and what each uses of the others.
pub struct Graph {
    pub modules: BTreeSet<Module>,
    /// (module, name) -> where the name it re-exports comes from.
    exports: BTreeMap<(Module, String), (Module, Vec<String>)>,
    code: BTreeMap<Module, String>,
}

impl Graph {
    /// The graph of `files`: each module with its code (see [`code`]).
    pub fn new(files: BTreeMap<Module, String>) -> Graph {
        let modules: BTreeSet<Module> = files.keys().cloned().collect();
        let mut exports = BTreeMap::new();
        for (module, code) in &files {
            for (exported, path) in uses(code) {
                if let (true, Some((from, segments))) =
                    (exported, anchored(module, &modules, &path))
                    && let Some(name) = segments.last()
                {
                    exports.insert((module.clone(), name.clone()), (from, segments));
                }
            }
        }
        Graph {
            modules,
            exports,
            code: files,
        }
    }

    /// The module that defines what `segments` name, walking down from `at`.
    fn resolve(&self, mut at: Module, segments: &[String], hops: usize) -> Module {
        for (index, segment) in segments.iter().enumerate() {
            let mut child = at.clone();
            child.push(segment.clone());
            if self.modules.contains(&child) {
                at = child;
                continue;
            }
            if hops < 16
                && let Some((from, path)) = self.exports.get(&(at.clone(), segment.clone()))
            {
                let mut path = path.clone();
                path.extend_from_slice(&segments[index + 1..]);
                return self.resolve(from.clone(), &path, hops + 1);
            }
            break;
        }
        at
    }

    /// What each module uses of the modules that are not above or below it.
    pub fn edges(&self) -> BTreeMap<Module, BTreeSet<Module>> {
        let mut edges: BTreeMap<Module, BTreeSet<Module>> = BTreeMap::new();
        for (module, code) in &self.code {
            let paths = uses(code)
                .into_iter()
                .map(|(_, path)| path)
                .chain(written_paths(code));
            for path in paths {
                let Some((from, segments)) = anchored(module, &self.modules, &path) else {
                    continue;
                };
                let used = self.resolve(from, &segments, 0);
                let related = used.starts_with(module) || module.starts_with(&used);
                if !related {
                    edges.entry(module.clone()).or_default().insert(used);
                }
            }
        }
        edges
    }

    /// A circle of modules, each using the next and the last the first, if there is one.
    pub fn circle(&self) -> Option<Vec<Module>> {
        let edges = self.edges();
        let mut done = BTreeSet::new();
        for start in &self.modules {
            let mut path = Vec::new();
            if let Some(circle) = walk(start, &edges, &mut path, &mut done) {
                return Some(circle);
            }
        }
        None
    }
}

/// Depth first from `module`; the circle met on the way, if any.
fn walk(
    module: &Module,
    edges: &BTreeMap<Module, BTreeSet<Module>>,
    path: &mut Vec<Module>,
    done: &mut BTreeSet<Module>,
) -> Option<Vec<Module>> {
    if let Some(at) = path.iter().position(|on| on == module) {
        return Some(path[at..].to_vec());
    }
    if done.contains(module) {
        return None;
    }
    path.push(module.clone());
    for next in edges.get(module).into_iter().flatten() {
        if let Some(circle) = walk(next, edges, path, done) {
            return Some(circle);
        }
    }
    path.pop();
    done.insert(module.clone());
    None
}

/// The module a file under `src/` is: `src/search/mod.rs` is `["search"]`, `src/lib.rs` the
/// root.
pub fn module_of(file: &str) -> Module {
    let path = file.trim_start_matches("src/").trim_end_matches(".rs");
    let mut segments: Module = path.split('/').map(str::to_owned).collect();
    if matches!(segments.last().map(String::as_str), Some("mod" | "lib")) {
        segments.pop();
    }
    segments
}
