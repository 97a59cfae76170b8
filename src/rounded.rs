//! Figures written to the precision they mean: a score or a share to four decimals (a search's
//! values are whole ten-thousandths of a win, so four lose nothing of them), an Elo difference
//! to a tenth, milliseconds to a tenth. Answers are read by people and compared by scripts;
//! `0.06251373464974197` and `2.7755575615628914e-17` serve neither. Used with serde's
//! `serialize_with`; the values kept in memory stay exact.

use serde::Serializer;

/// `value` rounded to `DECIMALS` decimal places.
pub fn to<const DECIMALS: i32, S: Serializer>(
    value: &f64,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    serializer.serialize_f64(round(*value, DECIMALS))
}

/// `value`, where there is one, rounded to `DECIMALS` decimal places.
pub fn some<const DECIMALS: i32, S: Serializer>(
    value: &Option<f64>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    match value {
        Some(value) => serializer.serialize_some(&round(*value, DECIMALS)),
        None => serializer.serialize_none(),
    }
}

/// Every value of a list rounded to `DECIMALS` decimal places.
pub fn each<const DECIMALS: i32, S: Serializer>(
    values: &[f64],
    serializer: S,
) -> Result<S::Ok, S::Error> {
    serializer.collect_seq(values.iter().map(|value| round(*value, DECIMALS)))
}

/// Both ends of an interval rounded to `DECIMALS` decimal places.
pub fn pair<const DECIMALS: i32, S: Serializer>(
    values: &[f64; 2],
    serializer: S,
) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeTuple;
    let mut tuple = serializer.serialize_tuple(2)?;
    for value in values {
        tuple.serialize_element(&round(*value, DECIMALS))?;
    }
    tuple.end()
}

/// Both ends of an interval, each rounded or null where it has none.
pub fn optional_pair<const DECIMALS: i32, S: Serializer>(
    values: &[Option<f64>; 2],
    serializer: S,
) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeTuple;
    let mut tuple = serializer.serialize_tuple(2)?;
    for value in values {
        tuple.serialize_element(&value.map(|value| round(value, DECIMALS)))?;
    }
    tuple.end()
}

fn round(value: f64, decimals: i32) -> f64 {
    let scale = 10f64.powi(decimals);
    let rounded = (value * scale).round() / scale;
    // No "-0.0" for a value that rounds to zero from below.
    if rounded == 0.0 { 0.0 } else { rounded }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_rounded_to_their_decimals_and_zero_has_no_sign() {
        assert_eq!(round(0.912_378_398_802_713_5, 4), 0.9124);
        assert_eq!(round(2.775_557_561_562_891_4e-17, 4), 0.0);
        assert_eq!(round(-1e-9, 1).to_string(), "0");
        assert_eq!(round(83_051.664_733, 1), 83_051.7);
        assert_eq!(round(-275.449, 1), -275.4);
    }
}
