"""Test plumbing, not client code: httpx event hooks that write each exchange of a generated
client as one JSON line to the file `OPENAPI_EXCHANGE_LOG` names (when set), the format
`scripts/validate-exchanges.py` reads. A live stream is not recorded: its body is read by the
journey as it arrives, and its frames are checked there with the generated types."""
import json
import os

_path = os.environ.get("OPENAPI_EXCHANGE_LOG")


def _record(response):
    request = response.request
    if response.headers.get("content-type", "").startswith("text/event-stream"):
        return
    response.read()
    exchange = {
        "method": request.method,
        "path": request.url.raw_path.decode(),
        "headers": dict(request.headers),
        "body": request.content.decode(),
        "status": response.status_code,
        "responseHeaders": dict(response.headers),
        "responseBody": response.text,
    }
    with open(_path, "a") as log:
        log.write(json.dumps(exchange) + "\n")


def httpx_args():
    """What to give a generated `Client`/`AuthenticatedClient` as `httpx_args`."""
    return {"event_hooks": {"response": [_record]}} if _path else {}
