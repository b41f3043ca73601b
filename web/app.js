// coordinatord's thin web client. It knows no screen by name: it renders any State from the
// screen catalog (GET /v1/screens) and the State's props and events, and reports what the user
// did as events of the top screen.
"use strict";

const SYSTEM_EVENTS = new Set(["back", "dismiss", "selectTab"]);
const STORE_KEY = "coordinatord.session";
const app = document.getElementById("app");
const message = document.getElementById("message");
const status = document.getElementById("status");

let catalog = {};          // screen name → {props, events: {name → fields}}
let session = null;        // {id, token}
let state = null;          // the last State
let busy = false;          // a request is in flight: buttons are disabled
let lastTop = null;

// ---- HTTP ----

async function call(method, path, body) {
  const headers = { "Accept": "application/json" };
  if (session) headers["Authorization"] = "Bearer " + session.token;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  let json = null;
  try { json = text ? JSON.parse(text) : null; } catch (_) { json = null; }
  return { status: response.status, json };
}

function save() { sessionStorage.setItem(STORE_KEY, JSON.stringify(session)); }

async function start() {
  const answer = await call("GET", "/v1/screens");
  for (const screen of answer.json.screens) {
    catalog[screen.name] = { props: screen.props, events: Object.fromEntries(screen.events.map(e => [e.name, e.fields])) };
  }
  const stored = sessionStorage.getItem(STORE_KEY);
  if (stored) {
    session = JSON.parse(stored);
    const resumed = await call("GET", "/v1/sessions/" + encodeURIComponent(session.id));
    if (resumed.status === 200) { show(resumed.json); return; }
  }
  await createSession();
}

async function createSession() {
  session = null;
  const created = await call("POST", "/v1/sessions", { platform: "web" });
  if (created.status !== 201) { problem(created); return; }
  session = { id: created.json.session.id, token: created.json.token };
  save();
  show(created.json.session);
}

async function send(event, payload) {
  if (busy || !state) return;
  setBusy(true);
  hideMessage();
  try {
    const body = { screen: state.top, event };
    if (payload && Object.keys(payload).length) body.payload = payload;
    const answer = await call("POST", "/v1/sessions/" + encodeURIComponent(session.id) + "/events", body);
    if (answer.status === 200) {
      if (answer.json.token) { session.token = answer.json.token; save(); delete answer.json.token; }
      show(answer.json);
    } else if ((answer.status === 409 || answer.status === 412) && answer.json && answer.json.state) {
      show(answer.json.state);
      problem(answer);
    } else if (answer.status === 401) {
      problem(answer);
      await createSession();
    } else {
      problem(answer);
    }
  } catch (error) {
    showMessage("The server cannot be reached: " + error.message);
  } finally {
    setBusy(false);
  }
}

function problem(answer) {
  const json = answer.json || {};
  let text = (json.title || ("HTTP " + answer.status)) + (json.detail ? ": " + json.detail : "");
  if (Array.isArray(json.errors)) text += " " + json.errors.map(e => e.field + " " + e.message).join("; ");
  showMessage(text);
}

function showMessage(text) { message.textContent = text; message.hidden = false; }
function hideMessage() { message.hidden = true; message.textContent = ""; }

function setBusy(value) {
  busy = value;
  status.textContent = value ? "…" : (state ? "v" + state.version : "");
  for (const control of document.querySelectorAll("button, input, textarea")) control.disabled = value;
}

// ---- Browser history: the back button sends `back` (or `dismiss`) ----

window.addEventListener("popstate", () => {
  const events = topScreen() ? topScreen().events : [];
  if (events.includes("back")) send("back");
  else if (events.includes("dismiss")) send("dismiss");
  else history.pushState({ top: state && state.top }, "");
});

function syncHistory(previousDepth) {
  const depth = stackDepth();
  if (lastTop !== null && state.top !== lastTop && depth > previousDepth) history.pushState({ top: state.top }, "");
  lastTop = state.top;
}

function stackDepth() {
  return state.stack.reduce((sum, layer) => sum + visibleScreens(layer).length, 0);
}

// ---- Rendering ----

function show(next) {
  const previousDepth = state ? stackDepth() : 0;
  state = next;
  render();
  syncHistory(previousDepth);
  status.textContent = "v" + state.version;
}

function visibleScreens(layer) {
  if (layer.tabs) {
    const tab = layer.tabs.find(t => t.name === layer.selectedTab) || layer.tabs[0];
    return tab ? tab.screens : [];
  }
  return layer.screens || [];
}

function topScreen() {
  if (!state) return null;
  for (const layer of state.stack) for (const screen of visibleScreens(layer)) if (screen.id === state.top) return screen;
  return null;
}

function render() {
  app.replaceChildren();
  state.stack.forEach((layer, index) => {
    const isTop = index === state.stack.length - 1;
    const element = renderLayer(layer, isTop);
    if (layer.presentation === "root") { app.append(element); return; }
    const backdrop = el("div", { class: "backdrop " + layer.presentation, "data-presentation": layer.presentation });
    element.classList.add(layer.presentation === "alert" ? "dialog" : "sheet");
    element.setAttribute("role", "dialog");
    element.setAttribute("aria-modal", "true");
    backdrop.append(element);
    app.append(backdrop);
  });
}

function renderLayer(layer, isTop) {
  const container = el("section", { class: "layer", "data-layer": layer.presentation });
  const screens = visibleScreens(layer);
  const screen = screens[screens.length - 1];
  if (screen) container.append(renderScreen(screen, screens, layer));
  if (layer.tabs) {
    const bar = el("nav", { class: "tabbar", role: "tablist" });
    for (const tab of layer.tabs) {
      const selected = tab.name === layer.selectedTab;
      const button = el("button", { role: "tab", "aria-selected": String(selected), "data-tab": tab.name }, tab.title);
      const accepts = isTop && screen && screen.events.includes("selectTab");
      button.disabled = busy || !accepts;
      if (!selected) button.addEventListener("click", () => send("selectTab", { tab: tab.name }));
      bar.append(button);
    }
    container.append(bar);
  }
  return container;
}

function renderScreen(screen, stack, layer) {
  const definition = catalog[screen.name] || { props: [], events: {} };
  const card = el("article", { class: "screen", "data-screen": screen.name, "data-id": screen.id });
  if (screen.id === state.top) card.setAttribute("data-top", "");

  if (stack.length > 1) card.append(el("div", { class: "crumbs" }, stack.map(s => humanize(s.name)).join(" › ")));
  const nav = el("div", { class: "nav" });
  if (screen.events.includes("back")) nav.append(button("‹ Back", "back", {}, "secondary"));
  nav.append(el("h1", {}, humanize(screen.name)));
  if (screen.events.includes("dismiss")) nav.append(button("✕", "dismiss", {}, "secondary close", "Close"));
  card.append(nav);

  const props = screen.props || {};
  if (typeof props.error === "string" && props.error) card.append(el("div", { class: "error", role: "alert" }, props.error));
  const bound = new Set();
  // A scalar prop that prefills a form field of the top screen shows as that field's value.
  const prefilled = new Set(screen.id === state.top
    ? screen.events.flatMap(event => (definition.events[event] || []).map(field => field.name)) : []);
  const order = definition.props.map(p => p.name).concat(Object.keys(props).filter(k => !definition.props.some(p => p.name === k)));
  for (const name of order) {
    if (name === "error" || !(name in props)) continue;
    if (prefilled.has(name) && (props[name] === null || typeof props[name] !== "object")) continue;
    card.append(renderProp(name, props[name], screen, definition, bound));
  }

  const actions = el("div", { class: "actions" });
  const forms = [];
  for (const event of screen.events) {
    if (SYSTEM_EVENTS.has(event)) continue;
    const fields = definition.events[event] || [];
    if (fields.length === 0) actions.append(button(humanize(event), event, {}));
    else if (!bound.has(event)) forms.push(renderForm(event, fields, props));
  }
  if (actions.children.length) card.append(actions);
  for (const form of forms) card.append(form);
  return card;
}

// Scalars as text, arrays as lists, objects as fields. An item with an `id` gets a button for the
// event whose one integer field names it (`posts` item → `openPost {postId}`); a nested object
// with an `id` (an author) gets the other such event.
function renderProp(name, value, screen, definition, bound) {
  const wrapper = el("div", { class: "prop", "data-prop": name });
  if (Array.isArray(value)) {
    wrapper.append(el("div", { class: "label" }, humanize(name)));
    const list = el("ul", { class: "items" });
    for (const item of value) list.append(el("li", {}, renderValue(item, singular(name), screen, definition, bound)));
    if (!value.length) list.append(el("li", { class: "meta" }, "Nothing yet."));
    wrapper.append(list);
  } else if (value && typeof value === "object") {
    wrapper.append(el("div", { class: "label" }, humanize(name)), renderValue(value, name, screen, definition, bound));
  } else {
    wrapper.append(el("span", { class: "label" }, humanize(name) + ":"), el("span", { class: "value" }, value === null ? "—" : String(value)));
  }
  return wrapper;
}

function renderValue(value, stem, screen, definition, bound) {
  if (!value || typeof value !== "object") return el("span", {}, value === null ? "—" : String(value));
  const box = el("div", {});
  const idEvents = screen.id === state.top ? idEventsOf(screen, definition) : [];
  for (const [key, field] of Object.entries(value)) {
    if (key === "id") continue;
    if (field && typeof field === "object" && !Array.isArray(field)) {
      const nested = idEvents.find(e => e.stem !== stem);
      const label = field.displayName || field.name || field.title || JSON.stringify(field);
      if (nested && field.id !== undefined) {
        bound.add(nested.event);
        box.append(el("div", { class: "meta" }, humanize(key) + ": ", button(label, nested.event, { [nested.field]: field.id }, "link")));
      } else {
        box.append(el("div", { class: "meta" }, humanize(key) + ": " + label));
      }
    } else if (Array.isArray(field)) {
      box.append(el("div", { class: "meta" }, humanize(key) + ": " + field.length));
    } else {
      box.append(el("div", { class: key === "text" ? "item-text" : "meta", "data-field": key }, (key === "text" ? "" : humanize(key) + ": ") + String(field)));
    }
  }
  const own = idEvents.find(e => e.stem === stem);
  if (own && value.id !== undefined) {
    bound.add(own.event);
    box.append(button(humanize(own.event), own.event, { [own.field]: value.id }, "secondary"));
  }
  return box;
}

function idEventsOf(screen, definition) {
  return screen.events.flatMap(event => {
    const fields = definition.events[event] || [];
    if (fields.length !== 1 || fields[0].type !== "integer" || !fields[0].name.endsWith("Id")) return [];
    return [{ event, field: fields[0].name, stem: fields[0].name.slice(0, -2) }];
  });
}

function renderForm(event, fields, props) {
  const form = el("form", { class: "event", "data-event": event });
  for (const field of fields) {
    const input = field.name === "text"
      ? el("textarea", { name: field.name, rows: "3" })
      : el("input", { name: field.name, type: inputType(field.type), autocomplete: field.type === "password" ? "current-password" : "on" });
    if (field.type !== "password" && typeof props[field.name] === "string") input.value = props[field.name];
    if (!field.optional && field.type !== "boolean") input.required = true;
    form.append(el("label", {}, humanize(field.name), input));
  }
  form.append(el("button", { type: "submit" }, humanize(event)));
  form.addEventListener("submit", (submitted) => {
    submitted.preventDefault();
    const payload = {};
    for (const field of fields) {
      const input = form.elements[field.name];
      if (field.type === "integer") payload[field.name] = parseInt(input.value, 10);
      else if (field.type === "boolean") payload[field.name] = input.checked;
      else payload[field.name] = input.value;
    }
    send(event, payload);
  });
  return form;
}

function inputType(type) {
  return { password: "password", integer: "number", boolean: "checkbox" }[type] || "text";
}

function button(label, event, payload, kind, ariaLabel) {
  const element = el("button", { type: "button", class: kind || "", "data-event": event }, label);
  if (ariaLabel) element.setAttribute("aria-label", ariaLabel);
  element.disabled = busy;
  element.addEventListener("click", () => send(event, payload));
  return element;
}

function el(tag, attributes, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes || {})) element.setAttribute(name, value);
  for (const child of children) element.append(child);
  return element;
}

function humanize(name) {
  const words = name.replace(/[._]/g, " ").replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function singular(name) { return name.endsWith("s") ? name.slice(0, -1) : name; }

start().catch(error => showMessage("Could not start: " + error.message));
