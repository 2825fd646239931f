//! The shape of the code, read from the sources: no two modules import each other, and the
//! rules of chess (the board, move generation and what they stand on) import nothing of the
//! thinking (search, evaluation, networks, UCI and the tools built on them).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

type Module = Vec<String>;

/// The rules: they may be imported by anything and import only each other.
const RULES: [&str; 6] = [
    "attacks",
    "bitboard",
    "board",
    "chess_move",
    "movegen",
    "types",
];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// `src/search/tt.rs` is `search::tt`, `src/search/mod.rs` is `search`.
fn module_of(path: &Path) -> Module {
    let rel = path.strip_prefix("src").unwrap().with_extension("");
    let mut parts: Module = rel
        .iter()
        .map(|s| s.to_string_lossy().into_owned())
        .collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts
}

/// The code of a file without comments and without its `#[cfg(test)]` module (tests may
/// reach anywhere).
fn code(text: &str) -> String {
    let text = text.split("#[cfg(test)]").next().unwrap_or("");
    text.lines()
        .map(|line| line.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The module paths named after `prefix` (`crate::` or `super::`): `crate::search::tt::X`
/// gives `["search", "tt", "X"]`.
fn paths_after(code: &str, prefix: &str) -> Vec<Vec<String>> {
    code.match_indices(prefix)
        .filter(|(at, _)| {
            // `crate::` itself, not the end of another word.
            !code[..*at]
                .chars()
                .next_back()
                .is_some_and(|c| c.is_alphanumeric() || c == '_')
        })
        .map(|(at, _)| {
            code[at + prefix.len()..]
                .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                .next()
                .unwrap_or("")
                .split("::")
                .filter(|s| !s.is_empty())
                .map(str::to_string)
                .collect()
        })
        .collect()
}

/// Edges between modules: the top-level ones (`search -> board`), and between the
/// sub-modules of one module (`nnue::accumulator -> nnue::network`), through `crate::`
/// paths and through a sibling's `super::name`.
fn import_graph() -> BTreeMap<Module, BTreeSet<Module>> {
    let mut files = Vec::new();
    rust_files(Path::new("src"), &mut files);
    let modules: BTreeSet<Module> = files.iter().map(|f| module_of(f)).collect();
    let mut edges: BTreeMap<Module, BTreeSet<Module>> = BTreeMap::new();
    for file in &files {
        let me = module_of(file);
        let code = code(&std::fs::read_to_string(file).unwrap());
        let mut targets: Vec<Module> = paths_after(&code, "crate::");
        if file.file_name().is_some_and(|n| n != "mod.rs") && me.len() > 1 {
            let parent = &me[..me.len() - 1];
            targets.extend(paths_after(&code, "super::").into_iter().map(|rest| {
                let mut path = parent.to_vec();
                path.extend(rest);
                path
            }));
        }
        for target in targets {
            for depth in 1..=2 {
                if me.len() < depth || target.len() < depth || me[..depth] == target[..depth] {
                    continue;
                }
                // Sub-modules only within one module, and only real modules.
                if depth == 2 && (me[0] != target[0] || !modules.contains(&target[..2])) {
                    continue;
                }
                edges
                    .entry(me[..depth].to_vec())
                    .or_default()
                    .insert(target[..depth].to_vec());
            }
        }
    }
    edges
}

#[test]
fn no_two_modules_import_each_other() {
    let edges = import_graph();
    assert!(edges.values().map(BTreeSet::len).sum::<usize>() > 100);
    // The graph sees what is there: the accumulator reads the network's weights.
    let accumulator = vec!["nnue".to_string(), "accumulator".to_string()];
    assert!(edges[&accumulator].contains(&vec!["nnue".to_string(), "network".to_string()]));
    let mutual: Vec<String> = edges
        .iter()
        .flat_map(|(a, targets)| targets.iter().map(move |b| (a, b)))
        .filter(|(a, b)| a < b && edges.get(*b).is_some_and(|t| t.contains(*a)))
        .map(|(a, b)| format!("{} <-> {}", a.join("::"), b.join("::")))
        .collect();
    assert!(
        mutual.is_empty(),
        "modules importing each other: {mutual:?}"
    );
}

#[test]
fn the_rules_import_nothing_of_the_thinking() {
    let edges = import_graph();
    let board = vec!["board".to_string()];
    assert!(edges[&board].contains(&vec!["types".to_string()]));
    for rules in RULES {
        for target in edges.get(&vec![rules.to_string()]).into_iter().flatten() {
            assert!(
                RULES.contains(&target[0].as_str()),
                "{rules} imports {}",
                target.join("::")
            );
        }
    }
}

/// The repository paths a text names (`src/…`, `tools/…`, `docs/…`, …), not counting
/// those inside another path (`$(ABLATE_DIR)/src/…`) or with a wildcard.
fn named_paths(text: &str) -> Vec<String> {
    const ROOTS: [&str; 9] = [
        "src/", "tools/", "tests/", "docs/", "nets/", "benches/", "book/", "assets/", ".ci/",
    ];
    let is_path_char = |c: char| c.is_ascii_alphanumeric() || "_./-".contains(c);
    let mut out = Vec::new();
    for (at, _) in text.char_indices() {
        let rest = &text[at..];
        let before = text[..at].chars().next_back();
        if before.is_some_and(|c| is_path_char(c) || c == ')' || c == '$')
            || !ROOTS.iter().any(|r| rest.starts_with(r))
        {
            continue;
        }
        let end = rest.find(|c: char| !is_path_char(c)).unwrap_or(rest.len());
        if rest[end..].starts_with(['*', '<', '{']) {
            continue;
        }
        let path = rest[..end].trim_end_matches(['.', '-', '/']);
        if !ROOTS.contains(&format!("{path}/").as_str()) {
            out.push(path.to_string());
        }
    }
    out
}

/// The Makefile, CI, the README and the docs, and the code's comments, name no file or
/// folder that is not there (a renamed file once left `make ablate` answering "no switch"
/// for every step).
#[test]
fn texts_name_only_paths_that_exist() {
    let mut texts = vec![
        PathBuf::from("Makefile"),
        PathBuf::from("README.md"),
        PathBuf::from("nets/README.md"),
        PathBuf::from(".ci/run"),
    ];
    for dir in ["docs", ".ci", "tools"] {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path
                .extension()
                .is_some_and(|e| e == "md" || e == "sh" || e == "py")
            {
                texts.push(path);
            }
        }
    }
    rust_files(Path::new("src"), &mut texts);
    let mut missing = Vec::new();
    for text in &texts {
        for path in named_paths(&std::fs::read_to_string(text).unwrap()) {
            if !Path::new(&path).exists() {
                missing.push(format!("{}: {path}", text.display()));
            }
        }
    }
    assert!(missing.is_empty(), "paths that do not exist: {missing:#?}");
}
