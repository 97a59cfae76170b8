use std::sync::Arc;

use super::*;
use crate::api::knobs::Given;
use crate::api::request::MoveRequest;

#[test]
fn a_malformed_request_names_the_field_where_it_goes_wrong() {
    let field = |body: &[u8]| TournamentRequest::from_json(body).unwrap_err().field;
    let cases: [(&[u8], Option<&str>); 10] = [
        (
            br#"{"players":[{},{"depth":"deep"}]}"#,
            Some("players[1].depth"),
        ),
        // Repeated fields of the tournament and of its start, as of its players.
        (br#"{"players":[{},{}],"games":1,"games":2}"#, Some("games")),
        (
            br#"{"players":[{},{}],"start":{"moves":[],"moves":[4]}}"#,
            Some("start.moves"),
        ),
        (br#"{"players":[{},{"dpeth":1}]}"#, Some("players[1].dpeth")),
        // An engine's option given twice: which was meant is not the service's to guess.
        (
            br#"{"players":[{"engine":"sf","options":{"Hash":1,"Hash":2}},{}]}"#,
            Some("players[0].options"),
        ),
        (
            br#"{"players":[{},{}],"start":{"moves":[0,true]}}"#,
            Some("start.moves[1]"),
        ),
        (br#"{"players":[{},{}],"games":1.5}"#, Some("games")),
        // Not inside any field: not JSON, or not an object (not even an array of the
        // fields in order, which serde's derived decoders take).
        (b"{", None),
        (br#""players""#, None),
        (br#"["tictactoe",[{},{}],2,0,1,null]"#, None),
    ];
    for (body, expected) in cases {
        let body_text = String::from_utf8_lossy(body);
        assert_eq!(field(body).as_deref(), expected, "{body_text}");
    }
    let problem = MoveRequest::from_json(br#"{"moves":[4,true]}"#).unwrap_err();
    assert_eq!(problem.field.as_deref(), Some("moves[1]"));
    // The detail names the field once, not once per level.
    let problem =
        TournamentRequest::from_json(br#"{"players":[{},{"depth":"deep"}]}"#).unwrap_err();
    assert_eq!(
        problem.detail,
        "depth must be an integer, got the string \"deep\" (at line 1, column 30)"
    );
    // Any integer decodes: one out of range is refused by the checks, not here.
    for body in [
        &br#"{"players":[{},{}],"games":-1}"#[..],
        br#"{"players":[{},{}],"games":1e30}"#,
        br#"{"players":[{},{}],"seed":-1}"#,
    ] {
        assert!(TournamentRequest::from_json(body).is_ok());
    }
}

#[test]
fn a_players_field_given_twice_is_refused() {
    let problem = TournamentRequest::from_json(
        br#"{"players":[{"algorithm":"random","algorithm":"minimax"},{}]}"#,
    )
    .unwrap_err();
    assert_eq!(problem.status, 400);
    assert!(
        problem.detail.contains("duplicate field `algorithm`"),
        "{problem}"
    );
    assert_eq!(problem.field.as_deref(), Some("players[0].algorithm"));
}

fn engines() -> Vec<Arc<EngineConfig>> {
    vec![Arc::new(
        EngineConfig::parse("sf=/usr/games/stockfish,Hash=16").unwrap(),
    )]
}

#[test]
fn a_player_on_the_command_line_is_an_algorithm_or_a_configured_engine() {
    let spec =
        ContestantSpec::from_text("mcts:simulations=50,tc=10+0.1,nodes=5000", &engines()).unwrap();
    assert_eq!(spec.player.algorithm.as_deref(), Some("mcts"));
    assert_eq!(
        (spec.tc.as_deref(), spec.nodes),
        (Some("10+0.1"), Some(5000))
    );
    assert_eq!(spec.engine, None);
    let spec =
        ContestantSpec::from_text("sf:UCI_Elo=1500,depth=8,tc=0.1/move", &engines()).unwrap();
    assert_eq!(spec.engine.as_deref(), Some("sf"));
    assert_eq!(spec.player.given("depth"), Some(&Given::Integer(8)));
    assert_eq!(spec.options.unwrap()["UCI_Elo"], "1500");
    // An algorithm's knobs are checked as they are in a request.
    assert!(ContestantSpec::from_text("mcts:dpeth=3", &engines()).is_err());
}

fn job(body: serde_json::Value) -> Result<TournamentJob, Problem> {
    TournamentJob::new(
        TournamentRequest::from_json(body.to_string().as_bytes())?,
        &engines(),
        &[],
    )
}

#[test]
fn engine_players_are_checked_against_the_configured_engines_and_the_game() {
    let refused = |body: serde_json::Value| job(body).unwrap_err();
    let players = |a: serde_json::Value| serde_json::json!([a, {"algorithm": "random"}]);
    let problem = refused(
        serde_json::json!({"game": "chess", "players": players(serde_json::json!({"engine": "stockfish"}))}),
    );
    assert_eq!(problem.field.as_deref(), Some("players[0].engine"));
    assert!(
        problem.detail.ends_with("The engines are: sf."),
        "{problem}"
    );
    let problem = refused(
        serde_json::json!({"game": "connect4", "players": players(serde_json::json!({"engine": "sf"}))}),
    );
    assert!(
        problem
            .detail
            .contains("no external engine plays Connect Four"),
        "{problem}"
    );
    let problem = refused(
        serde_json::json!({"game": "chess", "players": players(serde_json::json!({"engine": "sf", "algorithm": "mcts"}))}),
    );
    assert_eq!(problem.field.as_deref(), Some("players[0].algorithm"));
    let problem = refused(
        serde_json::json!({"game": "chess", "players": players(serde_json::json!({"engine": "sf", "simulations": 3}))}),
    );
    assert_eq!(problem.field.as_deref(), Some("players[0].simulations"));
    let problem = refused(
        serde_json::json!({"game": "chess", "players": players(serde_json::json!({"engine": "sf", "tc": "1/move", "options": {"Hash\nquit": 1}}))}),
    );
    assert_eq!(
        problem.field.as_deref(),
        Some("players[0].options.Hash\nquit")
    );
    let problem = refused(
        serde_json::json!({"game": "chess", "players": players(serde_json::json!({"algorithm": "random", "options": {"Hash": 1}}))}),
    );
    assert_eq!(problem.field.as_deref(), Some("players[0].options"));
    let accepted = job(serde_json::json!({"game": "chess", "players": players(serde_json::json!({"engine": "sf", "depth": 6, "tc": "1+0.01", "options": {"UCI_LimitStrength": true}}))})).unwrap();
    assert_eq!(accepted.setup().players[0].engine.as_deref(), Some("sf"));
    assert_eq!(accepted.setup().players[0].tc.as_deref(), Some("1+0.01"));
}

/// GTP has no depth or node count: a GTP engine given one is refused, not left to ignore it.
#[test]
fn a_gtp_engine_is_given_no_depth_or_nodes() {
    let rhino = Arc::new(EngineConfig::parse("rhino=/usr/games/gtp-rhino,protocol=gtp").unwrap());
    for (limit, field) in [
        (serde_json::json!({"depth": 3}), "players[0].depth"),
        (serde_json::json!({"nodes": 1000}), "players[0].nodes"),
    ] {
        let mut player = serde_json::json!({"engine": "rhino", "tc": "1/move"});
        player
            .as_object_mut()
            .unwrap()
            .extend(limit.as_object().unwrap().clone());
        let body =
            serde_json::json!({"game": "othello", "players": [player, {"algorithm": "random"}]});
        let problem = TournamentJob::new(
            TournamentRequest::from_json(body.to_string().as_bytes()).unwrap(),
            std::slice::from_ref(&rhino),
            &[],
        )
        .unwrap_err();
        assert_eq!(problem.field.as_deref(), Some(field), "{problem}");
        assert!(problem.detail.contains("speaks GTP"), "{problem}");
    }
    // An option of a GTP engine (which lists none) says what it takes instead.
    let mut listed = (*rhino).clone();
    listed.listed = Some(Vec::new());
    let said = super::engine_options::no_such_option(&listed, "level");
    assert!(said.contains("args="), "{said}");
    assert!(!said.contains("Its options are: ."), "{said}");
}

#[test]
fn an_engine_without_a_clock_is_refused_with_what_to_give_it() {
    for limits in [
        serde_json::json!({}),
        serde_json::json!({"depth": 6, "nodes": 1000}),
    ] {
        let mut player = serde_json::json!({"engine": "sf"});
        player
            .as_object_mut()
            .unwrap()
            .extend(limits.as_object().unwrap().clone());
        let problem =
            job(serde_json::json!({"game": "chess", "players": [player, {"algorithm": "random"}]}))
                .unwrap_err();
        assert_eq!(problem.status, 422);
        assert_eq!(problem.field.as_deref(), Some("players[0].tc"), "{problem}");
        assert!(problem.detail.contains("give it tc"), "{problem}");
    }
}

/// Stockfish as `--engine sf=...,Hash=16` learns it, with some of the options it lists.
fn probed_engine(settable: Option<&[&str]>) -> Arc<EngineConfig> {
    use crate::tournament::engines::{EngineOption, OptionKind};
    let mut config = EngineConfig::parse("sf=/usr/games/stockfish,Hash=16").unwrap();
    config.settable = settable.map(|names| names.iter().map(|name| name.to_string()).collect());
    let option = |name: &str, kind| EngineOption {
        name: name.into(),
        kind,
    };
    config.listed = Some(vec![
        option("Threads", OptionKind::Spin { min: 1, max: 1024 }),
        option(
            "Hash",
            OptionKind::Spin {
                min: 1,
                max: 33554432,
            },
        ),
        option("Debug Log File", OptionKind::Text),
        option("UCI_LimitStrength", OptionKind::Check),
        option(
            "UCI_Elo",
            OptionKind::Spin {
                min: 1320,
                max: 3190,
            },
        ),
        option("Clear Hash", OptionKind::Button),
    ]);
    Arc::new(config)
}

#[test]
fn a_requests_engine_options_are_checked_against_the_engines_list_and_the_operators_limits() {
    let check = |engine: Arc<EngineConfig>, options: serde_json::Value| {
        let request = serde_json::json!({"game": "chess", "players": [
            {"engine": "sf", "tc": "0.1/move", "options": options}, {"algorithm": "random"}]});
        let request = TournamentRequest::from_json(request.to_string().as_bytes()).unwrap();
        TournamentJob::new(request, &[engine], &[])
            .map(|_| ())
            .map_err(|problem| {
                assert_eq!(problem.status, 422, "{problem}");
                (problem.field.unwrap_or_default(), problem.detail)
            })
    };
    let engine = || probed_engine(None);
    // A misspelt option names the one meant.
    let (field, detail) =
        check(engine(), serde_json::json!({"UCI_LimitStrenght": true})).unwrap_err();
    assert_eq!(field, "players[0].options.UCI_LimitStrenght");
    assert!(
        detail.contains("Did you mean \"UCI_LimitStrength\"?"),
        "{detail}"
    );
    // Names are not case sensitive in UCI.
    assert_eq!(
        check(
            engine(),
            serde_json::json!({"uci_limitstrength": true, "UCI_Elo": 1500})
        ),
        Ok(())
    );
    // Values within the engine's own bounds, and Hash and Threads within the operator's.
    let (_, detail) = check(engine(), serde_json::json!({"UCI_Elo": 9000})).unwrap_err();
    assert!(detail.contains("from 1320 to 3190"), "{detail}");
    let (_, detail) = check(engine(), serde_json::json!({"UCI_LimitStrength": "yes"})).unwrap_err();
    assert!(detail.contains("true or false"), "{detail}");
    let (_, detail) = check(engine(), serde_json::json!({"Threads": 1024})).unwrap_err();
    assert!(detail.contains("at most 1 on this service"), "{detail}");
    assert_eq!(check(engine(), serde_json::json!({"Threads": 1})), Ok(()));
    // What the operator fixed, and texts such as a file's path, are not a request's to set.
    let (_, detail) = check(engine(), serde_json::json!({"Hash": 8})).unwrap_err();
    assert!(detail.contains("set by the service's operator"), "{detail}");
    let (_, detail) = check(
        engine(),
        serde_json::json!({"Debug Log File": "/etc/passwd"}),
    )
    .unwrap_err();
    assert!(
        detail.contains("A request may set: Threads, UCI_LimitStrength, UCI_Elo."),
        "{detail}"
    );
    // The operator's list is the whole list.
    let listed = || probed_engine(Some(&["UCI_Elo"]));
    assert_eq!(
        check(listed(), serde_json::json!({"UCI_Elo": 2000})),
        Ok(())
    );
    let (_, detail) = check(listed(), serde_json::json!({"Threads": 1})).unwrap_err();
    assert!(detail.ends_with("A request may set: UCI_Elo."), "{detail}");
}

#[test]
fn sprt_adjudication_and_openings_are_checked() {
    let players = serde_json::json!([{"algorithm": "random"}, {"algorithm": "random"}]);
    let field = |extra: serde_json::Value| {
        let mut body = serde_json::json!({"players": players});
        body.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        job(body).err().and_then(|problem| problem.field)
    };
    assert_eq!(
        field(serde_json::json!({"sprt": {"elo0": 0, "elo1": 5}})),
        None
    );
    assert_eq!(
        field(serde_json::json!({"sprt": {"elo0": 0, "elo1": 5, "alpha": 0.6}})).as_deref(),
        Some("sprt")
    );
    assert_eq!(
        field(serde_json::json!({"sprt": {"elo0": 0, "elo1": 5, "elo_model": "normalized"}}))
            .as_deref(),
        Some("sprt")
    );
    assert_eq!(
        field(serde_json::json!({"sprt": {"elo0": 0}})).as_deref(),
        Some("sprt")
    );
    assert_eq!(field(serde_json::json!({"adjudication": {"draw": {"move_number": 1, "move_count": 0, "score": 5}}})).as_deref(), Some("adjudication.draw"));
    assert_eq!(
        field(serde_json::json!({"openings": {"random_plies": 41}})).as_deref(),
        Some("openings")
    );
    assert_eq!(
        field(serde_json::json!({"openings": {"random_plies": 4, "balanced": 20}})),
        None
    );
    assert_eq!(
        field(serde_json::json!({"openings": {"random_plies": 8, "random_plies_max": 12}})),
        None
    );
    for most in [7, 41] {
        assert_eq!(
            field(serde_json::json!({"openings": {"random_plies": 8, "random_plies_max": most}}))
                .as_deref(),
            Some("openings")
        );
    }
    assert_eq!(
        field(serde_json::json!({"openings": [{"moves": [0]}, {"moves": [0, 9]}]})).as_deref(),
        Some("openings[1].moves[1]")
    );
}

#[test]
fn shards_split_the_pairs_and_cover_the_games() {
    let games = 10..31;
    let shards: Vec<_> = (0..4).map(|index| shard(&games, index, 4)).collect();
    assert_eq!(shards, vec![10..14, 14..20, 20..24, 24..31]);
    assert!(shards.iter().all(|shard| shard.start % 2 == 0));
}
