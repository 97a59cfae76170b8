//! `POST /position`.

use super::body::JsonBody;
use super::json::Json;
use crate::api::Problem;
use crate::api::describe::{PositionRequest, PositionResponse};

/// Cheap: the rules only, no search, so it answers in place.
pub async fn post_position(JsonBody(body): JsonBody) -> Result<Json<PositionResponse>, Problem> {
    Ok(Json(PositionRequest::from_json(&body)?.describe()?))
}
