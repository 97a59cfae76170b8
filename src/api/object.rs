//! Request objects decoded field by field, and the 400 problem of a body that does not decode.
//!
//! A `/move` request carries its player's knobs at its top level, beside its own fields. serde's
//! derive cannot combine `flatten` with `deny_unknown_fields`, so the request types are decoded
//! through [`Object`] instead: one pass over the JSON object, no intermediate tree (this is the
//! hot path of the service), and one definition of the knobs for `/move` and `/tournament`.
//!
//! Each key is checked as it is read, as a derived decoder checks its keys. A key that is not
//! one of the object's fields is an error, and so is a field given twice: were it not, the
//! last value would silently win, and a client that sent `"algorithm"` twice would not learn
//! which one played. Both errors belong to the key, so that the path of the error (the
//! problem's `field`) ends with it. Only a JSON object is accepted, where a derived decoder
//! also takes an array of the fields in order.

use std::fmt;
use std::marker::PhantomData;

use serde::de::{self, DeserializeSeed, MapAccess};
use serde::{Deserialize, Deserializer};

use super::Problem;

/// A request type decoded field by field. Implement it, then `Deserialize` with
/// [`deserialize_as_object!`].
pub(crate) trait Object: Default {
    /// What the object is, for "invalid type: ..., expected ...".
    const EXPECTING: &'static str;
    /// The names of its fields (at most 64).
    const FIELDS: &'static [&'static str];

    /// Reads the value of field `key` (one of [`Object::FIELDS`]) from `map` into its place.
    fn read_field<'de, A: MapAccess<'de>>(
        &mut self,
        key: &'static str,
        map: &mut A,
    ) -> Result<(), A::Error>;
}

/// The fields of an object that holds another's beside its own: `first`'s, then `then`'s
/// (`N`, their total, is checked when compiling).
pub(crate) const fn fields<const N: usize>(
    first: &[&'static str],
    then: &[&'static str],
) -> [&'static str; N] {
    assert!(first.len() + then.len() == N, "N is the number of fields");
    let mut fields = [""; N];
    let mut i = 0;
    while i < N {
        fields[i] = if i < first.len() {
            first[i]
        } else {
            then[i - first.len()]
        };
        i += 1;
    }
    fields
}

/// Implements `Deserialize` for [`Object`] types, through [`deserialize`]. (A blanket
/// implementation over `Object` is not allowed: `Deserialize` is serde's.)
macro_rules! deserialize_as_object {
    ($($type:ty),+) => {$(
        impl<'de> serde::Deserialize<'de> for $type {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                $crate::api::object::deserialize(deserializer)
            }
        }
    )+};
}
pub(crate) use deserialize_as_object;

/// Decodes a `T` from a JSON object.
pub(crate) fn deserialize<'de, T: Object, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<T, D::Error> {
    deserializer.deserialize_map(Visitor(PhantomData))
}

/// The next value of `map`, its errors prefixed with the field's name.
pub(crate) fn value<'de, A: MapAccess<'de>, T: Deserialize<'de>>(
    key: &str,
    map: &mut A,
) -> Result<T, A::Error> {
    map.next_value()
        .map_err(|error| de::Error::custom(format_args!("{key}: {error}")))
}

/// An object whose keys are free (an engine's options), each given at most once: a map would
/// keep the last of two silently, and which one a client meant is not the service's to guess.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct UniqueKeys(pub std::collections::BTreeMap<String, serde_json::Value>);

impl<'de> Deserialize<'de> for UniqueKeys {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Keys;
        impl<'de> de::Visitor<'de> for Keys {
            type Value = UniqueKeys;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object")
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<UniqueKeys, A::Error> {
                let mut keys = std::collections::BTreeMap::new();
                while let Some(key) = map.next_key::<String>()? {
                    let value = map.next_value()?;
                    if keys.contains_key(&key) {
                        return Err(de::Error::custom(format_args!("duplicate field `{key}`")));
                    }
                    keys.insert(key, value);
                }
                Ok(UniqueKeys(keys))
            }
        }
        deserializer.deserialize_map(Keys)
    }
}

/// The next value of `map` as an optional integer of any size and sign, its errors prefixed
/// with the field's name. Every JSON integer decodes, so that the range check, not the decoder,
/// refuses `-1` where counts begin at 1, with the same words as any value out of range; a
/// fraction or another type is the decoder's error.
pub(crate) fn integer<'de, A: MapAccess<'de>>(
    key: &str,
    map: &mut A,
) -> Result<Option<i128>, A::Error> {
    Ok(value::<_, Option<Integer>>(key, map)?.map(|integer| integer.0))
}

/// Any JSON integer. (serde_json's own `i128` misreads `1.5` as a syntax error.)
struct Integer(i128);

impl<'de> Deserialize<'de> for Integer {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(IntegerVisitor)
    }
}

struct IntegerVisitor;

impl de::Visitor<'_> for IntegerVisitor {
    type Value = Integer;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an integer")
    }

    fn visit_i64<E: de::Error>(self, value: i64) -> Result<Integer, E> {
        Ok(Integer(value.into()))
    }

    fn visit_u64<E: de::Error>(self, value: u64) -> Result<Integer, E> {
        Ok(Integer(value.into()))
    }

    /// A whole number written with a fraction or an exponent (`2.0`, `1e3`) is that integer:
    /// JSON does not tell them apart, nor do JavaScript clients. Integers beyond 64 bits
    /// arrive this way too (the conversion saturates at i128's bounds, out of every range).
    fn visit_f64<E: de::Error>(self, value: f64) -> Result<Integer, E> {
        if value.is_finite() && value.fract() == 0.0 {
            Ok(Integer(value as i128))
        } else {
            Err(E::invalid_type(de::Unexpected::Float(value), &self))
        }
    }
}

struct Visitor<T>(PhantomData<T>);

impl<'de, T: Object> de::Visitor<'de> for Visitor<T> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(T::EXPECTING)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<T, A::Error> {
        const { assert!(T::FIELDS.len() <= 64, "one bit per field in a u64") };
        let mut object = T::default();
        // Bit `i` is set once field `T::FIELDS[i]` has been read.
        let mut read = 0;
        while let Some(key) = map.next_key_seed(FieldName::<T>(&mut read, PhantomData))? {
            object.read_field(key, &mut map)?;
        }
        // No field is required here: a request without its position or its players is well
        // formed, and checking it says what is missing with its field (422).
        Ok(object)
    }
}

/// A key of a `T` being read: the field it names, if it names one not read before (the bits
/// set in `read`). It is matched without being copied, whether or not it holds escapes.
struct FieldName<'a, T>(&'a mut u64, PhantomData<T>);

impl<'de, T: Object> DeserializeSeed<'de> for FieldName<'_, T> {
    type Value = &'static str;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<&'static str, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl<T: Object> de::Visitor<'_> for FieldName<'_, T> {
    type Value = &'static str;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a field name")
    }

    fn visit_str<E: de::Error>(self, key: &str) -> Result<&'static str, E> {
        let read = self.0;
        let Some(index) = T::FIELDS.iter().position(|name| *name == key) else {
            return Err(E::unknown_field(key, T::FIELDS));
        };
        if *read & 1 << index != 0 {
            return Err(E::duplicate_field(T::FIELDS[index]));
        }
        *read |= 1 << index;
        Ok(T::FIELDS[index])
    }
}

/// Decodes a request body. One that does not decode is a 400, with `field` saying where the
/// decoding failed when it failed inside a field.
pub(crate) fn decode<'de, T: Deserialize<'de>>(body: &'de [u8]) -> Result<T, Problem> {
    serde_json::from_slice(body).map_err(|error| {
        // serde_json would say "EOF while parsing a value at line 1 column 0".
        if body.iter().all(u8::is_ascii_whitespace) {
            return Problem::malformed("the body is empty: expected a JSON object");
        }
        let mut problem = Problem::malformed(plain_words(&error.to_string()));
        problem.field = error_field::<T>(body);
        problem
    })
}

/// serde's wording of a value of the wrong type or range, said plainly: `depth: invalid type:
/// string "deep", expected i128 at line 1 column 30` becomes `depth must be an integer, got the
/// string "deep" (at line 1, column 30)`. Any other message is left as it is.
fn plain_words(message: &str) -> String {
    let (message, place) = match message.rsplit_once(" at line ") {
        Some((message, place)) => match place.split_once(" column ") {
            Some((line, column)) => (message, format!(" (at line {line}, column {column})")),
            None => (message, String::new()),
        },
        None => (message, String::new()),
    };
    if let Some(unknown) = unknown_field(message) {
        return format!("{unknown}{place}");
    }
    // A body of the wrong type has no field before serde's words: the body is the field.
    let whole;
    let message = if message.starts_with("invalid ") {
        whole = format!("the body: {message}");
        whole.as_str()
    } else {
        message
    };
    let Some((field, rest)) = message.rsplit_once(": invalid ") else {
        return format!("{message}{place}");
    };
    let rest = rest
        .strip_prefix("type: ")
        .or_else(|| rest.strip_prefix("value: "));
    let Some((got, expected)) = rest.and_then(|rest| rest.rsplit_once(", expected ")) else {
        return format!("{message}{place}");
    };
    // The field's own name ends the prefix (`players: depth` when nested).
    let field = field.rsplit(": ").next().unwrap_or(field);
    let expected = match expected {
        "i128" | "u64" | "i64" | "u32" | "usize" => "an integer",
        "f64" => "a number",
        "a boolean" => "true or false",
        "a sequence" => "an array",
        other => other,
    };
    let got = match got.split_once(' ') {
        Some(("string", text)) => format!("the string {text}"),
        Some(("integer" | "floating" | "boolean", value)) => value
            .trim_start_matches("point ")
            .trim_matches('`')
            .to_owned(),
        _ => match got {
            "map" => "an object".to_owned(),
            "sequence" => "an array".to_owned(),
            "unit" | "null" => "null".to_owned(),
            other => other.to_owned(),
        },
    };
    format!("{field} must be {expected}, got {got}{place}")
}

/// serde's "unknown field `dept`, expected one of `game`, `board`, ..." with the field that was
/// probably meant: "unknown field `dept`: did you mean `depth`? The fields are: `game`, ...".
fn unknown_field(message: &str) -> Option<String> {
    let rest = message.strip_prefix("unknown field `")?;
    let (given, rest) = rest.split_once('`')?;
    let names = rest
        .strip_prefix(", expected one of ")
        .or_else(|| rest.strip_prefix(", expected "))?;
    let fields: Vec<&str> = names
        .split(", ")
        .map(|name| name.trim_matches('`'))
        .collect();
    let suggestion = super::names::closest(given, &fields)
        .map(|name| format!(": did you mean `{name}`?"))
        .unwrap_or_else(|| ".".to_owned());
    Some(format!(
        "unknown field `{given}`{suggestion} The fields are: {names}"
    ))
}

/// Where decoding `body` as a `T` fails, as a field path (`players[1].depth`, `bord`); `None`
/// when the error is not inside a field (a body that is not JSON, say).
///
/// The body is decoded a second time with its path tracked: only bodies that have already
/// failed pay for the tracking, not the requests that decode.
fn error_field<'de, T: Deserialize<'de>>(body: &'de [u8]) -> Option<String> {
    use serde_path_to_error::Segment;
    let mut deserializer = serde_json::Deserializer::from_slice(body);
    let error = serde_path_to_error::deserialize::<_, T>(&mut deserializer).err()?;
    let mut field = String::new();
    for segment in error.path() {
        match segment {
            Segment::Seq { index } => field.push_str(&format!("[{index}]")),
            Segment::Map { key } => {
                if !field.is_empty() {
                    field.push('.');
                }
                field.push_str(key);
            }
            // A key that could not be read (the body ends before it, say): the path is known up
            // to the object that holds it.
            Segment::Enum { .. } | Segment::Unknown => break,
        }
    }
    (!field.is_empty()).then_some(field)
}

#[cfg(test)]
mod tests {
    use super::plain_words;

    #[test]
    fn serde_wording_is_said_plainly() {
        for (serde, plain) in [
            (
                "depth: invalid type: string \"deep\", expected i128 at line 1 column 30",
                "depth must be an integer, got the string \"deep\" (at line 1, column 30)",
            ),
            (
                "uct_c: invalid type: boolean `true`, expected f64 at line 1 column 14",
                "uct_c must be a number, got true (at line 1, column 14)",
            ),
            (
                "depth: invalid type: floating point `2.5`, expected i128 at line 1 column 12",
                "depth must be an integer, got 2.5 (at line 1, column 12)",
            ),
            (
                "pvs: invalid type: null, expected a boolean at line 1 column 11",
                "pvs must be true or false, got null (at line 1, column 11)",
            ),
            (
                "moves: invalid type: map, expected a sequence at line 1 column 10",
                "moves must be an array, got an object (at line 1, column 10)",
            ),
            (
                "invalid type: sequence, expected a move request: a JSON object at line 1 column 0",
                "the body must be a move request: a JSON object, got an array (at line 1, column 0)",
            ),
            (
                "unknown field `dept`, expected one of `game`, `depth`, `pvs` at line 1 column 49",
                "unknown field `dept`: did you mean `depth`? The fields are: `game`, `depth`, `pvs` \
                 (at line 1, column 49)",
            ),
            (
                "unknown field `zzz`, expected one of `game`, `depth` at line 1 column 9",
                "unknown field `zzz`. The fields are: `game`, `depth` (at line 1, column 9)",
            ),
            (
                "duplicate field `algorithm` at line 1 column 40",
                "duplicate field `algorithm` (at line 1, column 40)",
            ),
        ] {
            assert_eq!(plain_words(serde), plain);
        }
    }
}
