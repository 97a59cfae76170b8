use super::*;
use crate::api::request::MoveRequest;

#[test]
fn a_malformed_request_names_the_field_where_it_goes_wrong() {
    let field = |body: &[u8]| TournamentRequest::from_json(body).unwrap_err().field;
    let cases: [(&[u8], Option<&str>); 9] = [
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
