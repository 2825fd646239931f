//! `ladya analyse`: the annotated PGN of a fixture with every PGN feature a real file has
//! (comments, variations, NAGs, `%clk`/`%eval`, odd tags, Chess960, a broken game).

use ladya::analyse::{analyse_game, annotated_pgn, play_out, AnalyseError, Mark};
use ladya::book::parse_pgn;
use ladya::search::{Limits, Searcher};

const FIXTURE: &str = include_str!("data/analyse_features.pgn");

fn limits() -> Limits {
    Limits {
        depth: Some(6),
        multipv: 1,
        ..Limits::default()
    }
}

#[test]
fn every_feature_is_read_and_the_broken_game_is_named() {
    let games = parse_pgn(FIXTURE);
    assert_eq!(games.len(), 4);
    let checked: Vec<_> = games.iter().map(play_out).collect();
    assert_eq!(checked[0].as_ref().unwrap().1.len(), 31);
    assert_eq!(
        checked[1].as_ref().unwrap_err(),
        &AnalyseError::BadMove {
            text: "Kxe9".into(),
            at: "4...".into()
        }
    );
    let (start, moves) = checked[2].as_ref().unwrap();
    assert_eq!(moves.len(), 14, "Chess960 game with castling");
    assert!(moves.iter().any(|m| m.is_castling()));
    assert_eq!(start.fullmove_number(), 9);
    assert_eq!(checked[3].as_ref().unwrap().1.len(), 5);
}

#[test]
fn annotated_pgn_reads_back_with_every_move_and_eval() {
    let games = parse_pgn(FIXTURE);
    let mut searcher = Searcher::new(16);
    for game in games.iter().filter(|g| play_out(g).is_ok()) {
        let mut positions = 0;
        let analysed = analyse_game(game, &mut searcher, &limits(), &mut || positions += 1)
            .expect("analysable");
        assert_eq!(positions, analysed.moves.len() + 1);
        let text = annotated_pgn(&analysed, "Ladya test");
        // Our own reader sees the same moves (marks are stripped when the moves are read).
        let back = parse_pgn(&text);
        assert_eq!(back.len(), 1, "{text}");
        let (_, replayed) = play_out(&back[0]).expect("the annotated game replays");
        let (_, original) = play_out(game).unwrap();
        assert_eq!(replayed, original, "{text}");
        assert_eq!(back[0].tag("Annotator"), Some("Ladya test"));
        for (name, value) in &game.tags {
            assert_eq!(back[0].tag(name), Some(value.as_str()), "tag {name}");
        }
        let evals = text.matches("[%eval ").count();
        let variations = text.split_whitespace().filter(|w| *w == "(").count();
        let mates = analysed.moves.iter().filter(|m| m.gives_mate).count();
        assert_eq!(evals, analysed.moves.len() - mates + variations, "{text}");
        let marked = analysed
            .moves
            .iter()
            .filter(|m| m.mark != Mark::Good)
            .count();
        assert!(variations <= marked);
    }
}

#[test]
fn annotated_files_joined_end_to_end_read_back_as_separate_games() {
    // `cat a.pgn b.pgn`: each game ends with the empty line that keeps the next game's tags
    // from being read as part of its movetext.
    let one = annotated_pgn(&scholars_mate("A", "B"), "Ladya test");
    let two = annotated_pgn(&scholars_mate("C", "D"), "Ladya test");
    assert!(one.ends_with("1-0\n\n"), "{one:?}");
    let back = parse_pgn(&(one + &two));
    assert_eq!(back.len(), 2);
    assert_eq!(back[1].tag("White"), Some("C"));
    assert_eq!(play_out(&back[1]).expect("replays").1.len(), 7);
}

/// 1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6?? 4. Qxf7#, analysed: Black's third move allows mate.
fn scholars_mate(white: &str, black: &str) -> ladya::analyse::GameAnalysis {
    let pgn = format!(
        "[White \"{white}\"]\n[Black \"{black}\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n"
    );
    let games = parse_pgn(&pgn);
    let mut searcher = Searcher::new(16);
    analyse_game(&games[0], &mut searcher, &limits(), &mut || {}).unwrap()
}

#[test]
fn a_blunder_is_marked_and_the_better_move_given() {
    let analysed = scholars_mate("W", "B");
    let nf6 = &analysed.moves[5];
    assert_eq!(nf6.san, "Nf6");
    assert_eq!(nf6.mark, Mark::Blunder);
    assert!(nf6.best.is_some_and(|b| b != nf6.mv));
    let mate = analysed.moves.last().unwrap();
    assert!(mate.gives_mate);
    assert_eq!(mate.mark, Mark::Good);
    let text = annotated_pgn(&analysed, "Ladya test");
    assert!(text.contains("3... Nf6??"), "{text}");
    assert!(text.contains("Blunder."), "{text}");
    let black = analysed.summary(ladya::Color::Black);
    assert_eq!(black.blunders, 1);
    assert!(black.accuracy < analysed.summary(ladya::Color::White).accuracy);
}

#[test]
fn the_html_report_stands_alone_with_graph_moves_and_a_diagram_of_the_blunder() {
    let analysed = scholars_mate("W<1>", "B&B");
    let html = ladya::analyse::html_report(&[analysed], "Report <test>").unwrap();
    assert!(html.starts_with("<!DOCTYPE html>") && html.trim_end().ends_with("</html>"));
    // Names are escaped, never markup.
    assert!(html.contains("W&lt;1&gt; - B&amp;B") && html.contains("Report &lt;test&gt;"));
    // The accuracy table, the graph, every move, the blunder with its better move.
    assert!(html.contains("<th>accuracy</th>"));
    assert_eq!(html.matches("<svg").count(), 2, "the graph and one diagram");
    // Each move as its own text, with or without a mark (what the search thinks of 2. Qh5
    // at depth 6 depends on the search: an inaccuracy or not).
    for san in ["e4", "e5", "Qh5", "Nc6", "Bc4", "Qxf7#"] {
        let shown = ["<", "?!<", "?<"]
            .iter()
            .any(|end| html.contains(&format!(">{san}{end}")));
        assert!(shown, "{san}");
    }
    assert!(html.contains("class=\"blunder\">Nf6??</span>"));
    assert!(
        html.contains("aria-label=\"3... Nf6??\""),
        "the diagram of the blunder"
    );
    // Self-contained: nothing is fetched (the only address is SVG's namespace).
    let without_namespace = html.replace("http://www.w3.org/2000/svg", "");
    for outside in ["http:", "https:", "src=", "href=", "@import"] {
        assert!(!without_namespace.contains(outside), "{outside}");
    }
}

#[test]
fn a_board_diagram_has_every_piece_and_both_arrows() {
    let pos = ladya::Position::startpos();
    let e4 = pos.parse_uci_move("e2e4").unwrap();
    let d4 = pos.parse_uci_move("d2d4").unwrap();
    let svg = ladya::analyse::board_svg(&pos, e4, Some(d4), "start");
    assert_eq!(svg.matches("<text").count(), 32);
    assert_eq!(svg.matches("<rect").count(), 64);
    assert_eq!(svg.matches("<line").count(), 2);
    // a1 is dark, h1 light.
    assert!(svg.contains("<rect x=\"0\" y=\"308\" width=\"44\" height=\"44\" fill=\"#b58863\"/>"));
    assert!(svg.contains("<rect x=\"308\" y=\"308\" width=\"44\" height=\"44\" fill=\"#f0d9b5\"/>"));
    // The engine's move is drawn only where it differs.
    assert_eq!(
        ladya::analyse::board_svg(&pos, e4, Some(e4), "x")
            .matches("<line")
            .count(),
        1
    );
}

#[test]
fn the_graph_is_written_as_png_or_svg_by_the_name() {
    let analysed = vec![scholars_mate("W", "B")];
    let dir = std::env::temp_dir().join(format!("ladya-graph-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    ladya::analyse::draw_graph(&analysed, &dir.join("g.png")).unwrap();
    let png = std::fs::read(dir.join("g.png")).unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    // Width and height from the IHDR chunk: one 900 x 320 panel.
    assert_eq!(u32::from_be_bytes(png[16..20].try_into().unwrap()), 900);
    assert_eq!(u32::from_be_bytes(png[20..24].try_into().unwrap()), 320);
    ladya::analyse::draw_graph(&analysed, &dir.join("g.SVG")).unwrap();
    let svg = std::fs::read_to_string(dir.join("g.SVG")).unwrap();
    assert!(svg.contains("<svg") && svg.contains("Blunder"));
    assert!(ladya::analyse::draw_graph(&analysed, &dir.join("g.gif")).is_err());
    std::fs::remove_dir_all(&dir).ok();
}
