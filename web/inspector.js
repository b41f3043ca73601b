// The operator's inspector: opens a session by id with the operator key, shows its coordinator
// tree, its journal as a timeline, and each step's State and what changed, step by step.
// The key lives only in this script's memory: never in the URL, storage or a cookie.
"use strict";

const inspector = {
  key: "",
  session: "",
  entries: [], // oldest first
  index: -1,
  states: new Map(), // version -> State (or null when not retained)
};

const $ = (id) => document.getElementById(id);

function say(text, isError) {
  $("message").textContent = text;
  $("message").className = isError ? "error" : "";
}

async function operatorGet(path) {
  const response = await fetch(path, { headers: { Authorization: "Bearer " + inspector.key } });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) {
    const error = new Error(body.detail || body.title || "HTTP " + response.status);
    error.status = response.status;
    throw error;
  }
  return body;
}

function base() {
  return "/v1/operator/sessions/" + encodeURIComponent(inspector.session);
}

async function loadHistory() {
  const entries = [];
  let cursor = null;
  for (let page = 0; page < 50; page++) {
    const query = "?limit=200" + (cursor ? "&before=" + encodeURIComponent(cursor) : "");
    const body = await operatorGet(base() + "/history" + query);
    entries.push(...body.entries);
    if (!body.next) break;
    cursor = body.next;
  }
  return entries.reverse();
}

async function stateAt(version) {
  if (version < 1) return null;
  if (!inspector.states.has(version)) {
    try {
      inspector.states.set(version, await operatorGet(base() + "/history/" + version));
    } catch (error) {
      if (error.status !== 404) throw error;
      inspector.states.set(version, null);
    }
  }
  return inspector.states.get(version);
}

// The tree: each coordinator with its type, key, screens and children.
function renderTree(node) {
  const item = document.createElement("div");
  item.className = "node";
  const title = document.createElement("div");
  title.className = "node-title";
  title.textContent = (node.type || "?") + (node.key ? "  ·  " + node.key : "");
  item.appendChild(title);
  const screens = node.screens || [];
  if (screens.length) {
    const list = document.createElement("div");
    list.className = "node-screens";
    list.textContent = "screens: " + screens.map((s) => (s.name || s.id || s)).join(", ");
    item.appendChild(list);
  }
  for (const child of node.children || []) item.appendChild(renderTree(child));
  return item;
}

function renderTimeline() {
  const list = $("timeline");
  list.replaceChildren();
  inspector.entries.forEach((entry, index) => {
    const item = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.className = "entry" + (index === inspector.index ? " selected" : "") + (entry.replay ? " replay" : "");
    const version = document.createElement("span");
    version.className = "version";
    version.textContent = "v" + entry.version;
    const what = document.createElement("span");
    what.className = "what";
    what.textContent = (entry.screenName ? entry.screenName + " → " : "") + entry.event + (entry.replay ? " (replay)" : "");
    button.append(version, what);
    button.addEventListener("click", () => select(index));
    item.appendChild(button);
    list.appendChild(item);
  });
}

// Every leaf of a JSON value by its path, for the diff.
function flatten(value, path, out) {
  if (value !== null && typeof value === "object") {
    const keys = Object.keys(value);
    if (keys.length === 0) out.set(path, Array.isArray(value) ? "[]" : "{}");
    for (const key of keys) flatten(value[key], path + (Array.isArray(value) ? "[" + key + "]" : "." + key), out);
  } else {
    out.set(path, JSON.stringify(value));
  }
  return out;
}

function renderDiff(before, after) {
  const list = $("diff");
  list.replaceChildren();
  if (!after) {
    list.appendChild(line("none", "The journal does not hold this version's State."));
    return;
  }
  if (!before) {
    list.appendChild(line("none", "No earlier State to compare with."));
    return;
  }
  const old = flatten(before, "", new Map());
  const now = flatten(after, "", new Map());
  let count = 0;
  for (const [path, value] of now) {
    if (!old.has(path)) { list.appendChild(line("added", "+ " + path + " = " + value)); count++; }
    else if (old.get(path) !== value) { list.appendChild(line("changed", "~ " + path + ": " + old.get(path) + " → " + value)); count++; }
  }
  for (const [path, value] of old) {
    if (!now.has(path)) { list.appendChild(line("removed", "− " + path + " = " + value)); count++; }
  }
  if (count === 0) list.appendChild(line("none", "Nothing changed."));
}

function line(kind, text) {
  const item = document.createElement("li");
  item.className = kind;
  item.textContent = text;
  return item;
}

function fact(term, value) {
  const dt = document.createElement("dt");
  dt.textContent = term;
  const dd = document.createElement("dd");
  dd.textContent = value;
  return [dt, dd];
}

async function select(index) {
  if (index < 0 || index >= inspector.entries.length) return;
  inspector.index = index;
  const entry = inspector.entries[index];
  renderTimeline();
  $("position").textContent = (index + 1) + " of " + inspector.entries.length;
  $("back").disabled = index === 0;
  $("forward").disabled = index === inspector.entries.length - 1;
  $("step-title").textContent = "v" + entry.previousVersion + " → v" + entry.version + ": " + entry.event;
  $("step-facts").replaceChildren(
    ...fact("screen", entry.screenName ? entry.screenName + " (" + entry.screen + ")" : "—"),
    ...fact("payload", JSON.stringify(entry.payload)),
    ...fact("left out", entry.redacted.length ? entry.redacted.join(", ") : "—"),
    ...fact("at", entry.at),
    ...fact("node", entry.node),
    ...fact("replay", entry.replay ? "yes: nothing changed" : "no"),
  );
  try {
    const [before, after] = await Promise.all([stateAt(entry.replay ? entry.version : entry.previousVersion), stateAt(entry.version)]);
    if (inspector.index !== index) return;
    renderDiff(entry.replay ? after : before, after);
    $("state").textContent = after ? JSON.stringify(after, null, 2) : "(not retained)";
  } catch (error) {
    say(error.message, true);
  }
}

async function open(event) {
  event.preventDefault();
  inspector.key = $("key").value;
  inspector.session = $("session").value.trim();
  inspector.states = new Map();
  say("Loading…");
  try {
    const [tree, entries] = await Promise.all([operatorGet(base() + "/tree"), loadHistory()]);
    inspector.entries = entries;
    $("tree").replaceChildren(renderTree(tree.root || tree));
    $("inspector").hidden = false;
    say(entries.length + " journal entries of session " + inspector.session + ".");
    if (entries.length) await select(entries.length - 1);
    else renderTimeline();
  } catch (error) {
    $("inspector").hidden = true;
    say(error.status === 401 ? "The operator key is not right." : error.message, true);
  }
}

$("open").addEventListener("submit", open);
$("back").addEventListener("click", () => select(inspector.index - 1));
$("forward").addEventListener("click", () => select(inspector.index + 1));
document.addEventListener("keydown", (event) => {
  if (event.target instanceof HTMLInputElement) return;
  if (event.key === "ArrowLeft") select(inspector.index - 1);
  if (event.key === "ArrowRight") select(inspector.index + 1);
});
