// Live updates for the web client: follows GET /v1/sessions/{id}/stream, so a change made on any
// device of the session shows here at once, and a window that was offline catches up when it
// reconnects (it names the last version it saw in Last-Event-ID; the server answers with the
// current State if it is newer).
//
// It reads the stream with fetch() rather than EventSource: EventSource cannot send headers, so
// the bearer token would have to travel in the URL, where proxies and servers log it. fetch()
// sends it in Authorization, like every other call.
"use strict";

const Live = (() => {
  let generation = 0;      // bumped by follow/stop: an older loop sees it and ends
  let controller = null;   // aborts the current fetch

  // Offline: drop the stream at once (it would only time out); it resumes when back online.
  window.addEventListener("offline", () => { if (controller) controller.abort(); });

  // Follows `session` ({id, token}). `version()` is the last version shown; `onState(state)` gets
  // each newer State; `onEnded(reason)` is called when the token no longer opens the session;
  // `onStatus(text)` gets "live", "reconnecting…" or "offline".
  function follow(session, version, onState, onEnded, onStatus) {
    stop();
    const mine = ++generation;
    loop(mine, session, version, onState, onEnded, onStatus || (() => {}));
  }

  function stop() {
    generation++;
    if (controller) controller.abort();
    controller = null;
  }

  async function loop(mine, session, version, onState, onEnded, onStatus) {
    let delay = 500;
    while (mine === generation) {
      let reconnectNow = false;
      controller = new AbortController();
      const signal = controller.signal;
      try {
        if (!navigator.onLine) throw new Error("offline");
        const headers = { "Accept": "text/event-stream", "Authorization": "Bearer " + session.token };
        const seen = version();
        if (seen) headers["Last-Event-ID"] = String(seen);
        const response = await fetch("/v1/sessions/" + encodeURIComponent(session.id) + "/stream",
                                     { headers, signal, cache: "no-store" });
        if (response.status === 401 || response.status === 404) { onEnded("unauthorized"); return; }
        if (!response.ok || !response.body) throw new Error("HTTP " + response.status);
        onStatus("live");
        delay = 500;
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = "";
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += value.replace(/\r\n?/g, "\n");
          let end;
          while ((end = buffer.indexOf("\n\n")) >= 0) {
            const frame = parse(buffer.slice(0, end));
            buffer = buffer.slice(end + 2);
            if (!frame) continue;
            if (frame.event === "ended") {
              const data = JSON.parse(frame.data || "{}");
              if (data.reconnect) { reconnectNow = true; break; }
              onEnded(data.reason || "ended");
              return;
            }
            if (frame.event === "status") {
              onStatus(JSON.parse(frame.data || "{}").connected ? "live" : "reconnecting…");
            } else if (frame.event === undefined && frame.data) {
              const state = JSON.parse(frame.data);
              if (state.version > version()) onState(state);
            }
          }
          if (reconnectNow) break;
        }
      } catch (error) {
        if (mine !== generation) return;   // stopped
      }
      if (mine !== generation) return;
      onStatus(navigator.onLine ? "reconnecting…" : "offline");
      if (!reconnectNow) {
        await pause(delay);
        delay = Math.min(delay * 2, 10000);
      }
    }
  }

  // One SSE frame's fields, or null for a comment (a heartbeat).
  function parse(text) {
    const frame = {};
    let data = [];
    let any = false;
    for (const line of text.split("\n")) {
      if (line.startsWith(":")) continue;
      any = true;
      const colon = line.indexOf(":");
      const name = colon < 0 ? line : line.slice(0, colon);
      let value = colon < 0 ? "" : line.slice(colon + 1);
      if (value.startsWith(" ")) value = value.slice(1);
      if (name === "data") data.push(value);
      else if (name === "event") frame.event = value;
      else if (name === "id") frame.id = value;
    }
    if (!any) return null;
    frame.data = data.join("\n");
    return frame;
  }

  // Waits `ms`, or less when the browser comes back online.
  function pause(ms) {
    return new Promise(resolve => {
      const done = () => { window.removeEventListener("online", done); clearTimeout(timer); resolve(); };
      const timer = setTimeout(done, ms);
      window.addEventListener("online", done);
    });
  }

  return { follow, stop };
})();
