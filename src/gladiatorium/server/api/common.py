"""What the JSON API's routes share: reading a JSON body (checked at the edge) and
describing it in the OpenAPI document."""

from __future__ import annotations

from typing import Any

from fastapi import Request

from gladiatorium.server.edge import BadJson, NotJson, checked_json
from gladiatorium.server.errors import BadRequest

MAX_JSON = 256 * 1024


async def json_body(request: Request) -> dict[str, Any]:
    raw = await request.body()
    if len(raw) > MAX_JSON:
        raise BadRequest(f"request body over {MAX_JSON} bytes")
    try:
        data = checked_json(raw or b"{}")
    except NotJson as err:
        raise BadRequest(f"request body is {err}") from None
    except BadJson as err:
        raise BadRequest(str(err)) from None
    if not isinstance(data, dict):
        raise BadRequest("request body must be a JSON object")
    return data


def json_request(required: list[str], **properties: Any) -> dict[str, Any]:
    """The OpenAPI description of a route's JSON body (``openapi_extra``: the routes read
    their bodies themselves, so FastAPI cannot describe them), for clients and the fuzz."""
    schema = {"type": "object", "properties": properties, "required": required}
    return {"requestBody": {"required": True, "content": {"application/json": {"schema": schema}}}}


TEXT: dict[str, Any] = {"type": "string"}
NUMBER: dict[str, Any] = {"type": "number"}
