// coordinatord's thin web client. It knows no screen by name: it renders any State from the
// screen catalog (GET /v1/screens): each screen's props and events, and the presentation its app
// declares (titles, labels, input kinds, event roles, how list items open events). It reports
// what the user did as events of the top screen.
"use strict";

const SYSTEM_EVENTS = new Set(["back", "dismiss", "selectTab"]);
const STORE_KEY = "coordinatord.session";
// A device credential the app gave this browser when it signed in (the answer's `deviceToken`):
// kept across tabs and sessions, and sent with every event as `Device-Token`, so that an account
// locked against unknown clients still lets this browser's owner in.
const DEVICE_KEY = "coordinatord.deviceToken";
const app = document.getElementById("app");
const message = document.getElementById("message");
const status = document.getElementById("status");

let catalog = {};          // screen name → {props, events: {name → fields}, presentation}
let session = null;        // {id, token}
let state = null;          // the last State
let busy = false;          // a request is in flight: buttons are disabled
let lastTop = null;

// ---- HTTP ----

async function call(method, path, body) {
  const headers = { "Accept": "application/json" };
  if (session) headers["Authorization"] = "Bearer " + session.token;
  const device = localStorage.getItem(DEVICE_KEY);
  if (device && path.endsWith("/events")) headers["Device-Token"] = device;
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
    const presentation = Object.assign({ fields: {}, events: {}, itemActions: [] }, screen.presentation || {});
    // A date-time prop shows in the reader's local time unless the app says how to show it.
    for (const prop of screen.props) {
      if (prop.type === "date-time") presentation.fields[prop.name] = Object.assign({ display: "timestamp" }, presentation.fields[prop.name]);
    }
    catalog[screen.name] = {
      props: screen.props, events: Object.fromEntries(screen.events.map(e => [e.name, e.fields])), presentation,
    };
  }
  const stored = sessionStorage.getItem(STORE_KEY);
  if (stored) {
    session = JSON.parse(stored);
    const resumed = await call("GET", "/v1/sessions/" + encodeURIComponent(session.id));
    if (resumed.status === 200) { show(resumed.json); followLive(); return; }
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
  followLive();
}

// Changes made on the session's other devices show here at once (live.js).
function followLive() {
  const token = session.token;
  Live.follow({ id: session.id, token }, () => (state ? state.version : 0),
    next => { if (!busy && (!state || next.version > state.version)) show(next); },
    async () => {
      // This window's own sign-in rotates its token too: its answer restarts the stream.
      if (busy || !session || session.token !== token) return;
      showMessage("This session was signed in or out on another device; starting a new one.");
      await createSession();
    },
    text => { app.dataset.live = text; });
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
      if (answer.json.token) { session.token = answer.json.token; save(); delete answer.json.token; followLive(); }
      if (answer.json.deviceToken) { localStorage.setItem(DEVICE_KEY, answer.json.deviceToken); delete answer.json.deviceToken; }
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

function definitionOf(name) {
  return catalog[name] || { props: [], events: {}, presentation: { fields: {}, events: {}, itemActions: [] } };
}

function titleOf(name) { return definitionOf(name).presentation.title || humanize(name); }

function renderScreen(screen, stack, layer) {
  const definition = definitionOf(screen.name);
  const look = definition.presentation;
  const isTop = screen.id === state.top;
  const card = el("article", { class: "screen", "data-screen": screen.name, "data-id": screen.id });
  if (isTop) card.setAttribute("data-top", "");

  if (stack.length > 1) card.append(el("div", { class: "crumbs" }, stack.map(s => titleOf(s.name)).join(" › ")));
  const nav = el("div", { class: "nav" });
  if (screen.events.includes("back")) nav.append(button("‹ Back", "back", {}, "secondary"));
  nav.append(el("h1", {}, titleOf(screen.name)));
  if (screen.events.includes("dismiss")) nav.append(button("✕", "dismiss", {}, "secondary close", "Close"));
  card.append(nav);

  const props = screen.props || {};
  if (typeof props.error === "string" && props.error) card.append(el("div", { class: "error", role: "alert" }, props.error));
  // Events the screen's items open are offered on the items, not as buttons of their own.
  const bound = new Set(look.itemActions.map(action => action.event));
  // A scalar prop that prefills a form field of the top screen shows as that field's value.
  const prefilled = new Set(isTop
    ? screen.events.flatMap(event => (definition.events[event] || []).map(field => field.name)) : []);
  const order = definition.props.map(p => p.name).concat(Object.keys(props).filter(k => !definition.props.some(p => p.name === k)));
  for (const name of order) {
    if (name === "error" || !(name in props) || displayOf(look, name) === "hidden") continue;
    if (prefilled.has(name) && (props[name] === null || typeof props[name] !== "object")) continue;
    card.append(renderProp(name, props[name], look, isTop));
  }

  const actions = el("div", { class: "actions" });
  const forms = [];
  for (const event of screen.events) {
    if (SYSTEM_EVENTS.has(event) || bound.has(event)) continue;
    const fields = definition.events[event] || [];
    if (fields.length === 0) actions.append(eventButton(look, event, {}));
    else forms.push(renderForm(event, fields, props, look));
  }
  for (const form of forms) card.append(form);
  if (actions.children.length) card.append(actions);
  return card;
}

function displayOf(look, name) { return (look.fields[name] || {}).display || "text"; }

function labelOf(look, name) {
  const label = (look.fields[name] || {}).label;
  return label === undefined ? humanize(name) : label;
}

// A list prop as items, an object prop as its members, a scalar as label and value; shown as
// the screen's presentation says, and with the events its item actions declare.
function renderProp(name, value, look, isTop) {
  const wrapper = el("div", { class: "prop", "data-prop": name });
  const label = labelOf(look, name);
  if (Array.isArray(value)) {
    if (label) wrapper.append(el("div", { class: "label" }, label));
    const list = el("ul", { class: "items" });
    for (const item of value) list.append(el("li", {}, renderItem(item, name, look, isTop)));
    if (!value.length) list.append(el("li", { class: "meta" }, "Nothing yet."));
    wrapper.append(list);
  } else if (value && typeof value === "object") {
    if (label) wrapper.append(el("div", { class: "label" }, label));
    wrapper.append(renderMembers(value, name, look, isTop));
  } else {
    wrapper.append(renderScalar(name, value, look, label));
  }
  return wrapper;
}

function renderItem(item, path, look, isTop) {
  if (!item || typeof item !== "object") return el("span", {}, format(path, item, look));
  const action = look.itemActions.find(a => a.path === path);
  const box = el("div", { class: "item" });
  if (action && action.title) box.append(el("div", { class: "item-text" }, format(action.title, item[action.title], look)));
  if (action && action.subtitle) box.append(el("div", { class: "meta" }, format(action.subtitle, item[action.subtitle], look)));
  const shown = new Set(action ? [action.title, action.subtitle, action.key] : []);
  box.append(renderMembers(item, path, look, isTop, shown));
  if (action && isTop && item[action.key] !== undefined) {
    box.append(eventButton(look, action.event, { [action.field]: item[action.key] }, "secondary"));
  }
  return box;
}

// The members of an object: nested objects with an action become links (an author opens their
// page), ids and hidden members are left out, the rest is label and value.
function renderMembers(value, path, look, isTop, skip) {
  const box = el("div", { class: "members" });
  // Headings first: an object's subject before its details.
  const entries = Object.entries(value).sort(([a], [b]) =>
    (displayOf(look, b) === "heading") - (displayOf(look, a) === "heading"));
  for (const [key, member] of entries) {
    if (key === "id" || (skip && skip.has(key)) || displayOf(look, key) === "hidden") continue;
    if (member && typeof member === "object" && !Array.isArray(member)) {
      const action = look.itemActions.find(a => a.path === path + "." + key);
      const title = action && action.title ? member[action.title] : (member.displayName || member.name || "");
      if (action && isTop && member[action.key] !== undefined) {
        const link = eventButton(look, action.event, { [action.field]: member[action.key] }, "link");
        link.textContent = String(title);
        box.append(el("div", { class: "meta" }, labelOf(look, key) ? labelOf(look, key) + ": " : "", link));
      } else {
        box.append(el("div", { class: "meta" }, (labelOf(look, key) ? labelOf(look, key) + ": " : "") + String(title)));
      }
    } else if (Array.isArray(member)) {
      box.append(el("div", { class: "meta" }, labelOf(look, key) + ": " + member.length));
    } else {
      box.append(renderScalar(key, member, look, labelOf(look, key)));
    }
  }
  return box;
}

function renderScalar(name, value, look, label) {
  const display = displayOf(look, name);
  if (display === "heading") return el("div", { class: "heading", "data-field": name }, format(name, value, look));
  const row = el("div", { class: "field", "data-field": name });
  if (label) row.append(el("span", { class: "label" }, label));
  row.append(el("span", { class: "value" }, format(name, value, look)));
  return row;
}

// A value as a reader wants it: instants in their local date and time, nothing as a dash.
function format(name, value, look) {
  if (value === null || value === undefined) return "—";
  if (displayOf(look, name) === "timestamp") {
    const date = new Date(value);
    if (!isNaN(date)) return date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
  }
  return String(value);
}

function renderForm(event, fields, props, look) {
  // The server validates (its answer shows as the screen's error); the browser only offers the input kind.
  const form = el("form", { class: "event", "data-event": event, novalidate: "" });
  for (const field of fields) {
    const kind = (look.fields[field.name] || {}).input || defaultInput(field);
    const input = kind === "multiline"
      ? el("textarea", { name: field.name, rows: "3" })
      : el("input", {
          name: field.name,
          type: { password: "password", email: "email", number: "number", "date-time": "datetime-local" }[kind] ||
            inputType(field.type),
          autocomplete: kind === "password" ? "current-password" : (kind === "email" ? "email" : "on"),
        });
    if (field.type === "number") input.step = "any";
    const prefill = props[field.name];
    if (field.type === "date-time" && typeof prefill === "string") input.value = localDateTime(prefill);
    else if (kind !== "password" && typeof prefill === "string") input.value = prefill;
    if (!field.optional && field.type !== "boolean") input.required = true;
    form.append(el("label", {}, labelOf(look, field.name), input));
  }
  const presentation = look.events[event] || {};
  form.append(el("button", { type: "submit", class: presentation.role || "primary" }, presentation.label || humanize(event)));
  form.addEventListener("submit", (submitted) => {
    submitted.preventDefault();
    const payload = {};
    for (const field of fields) {
      const input = form.elements[field.name];
      if (field.type === "integer") payload[field.name] = parseInt(input.value, 10);
      else if (field.type === "number") payload[field.name] = input.value === "" ? null : Number(input.value);
      else if (field.type === "date-time") payload[field.name] = input.value === "" ? null : instant(input.value);
      else if (field.type === "boolean") payload[field.name] = input.checked;
      else payload[field.name] = input.value;
    }
    send(event, payload);
  });
  return form;
}

function defaultInput(field) {
  return { password: "password", integer: "number", number: "number", "date-time": "date-time" }[field.type] || "text";
}

// Dates travel as RFC 3339 instants in UTC ("2026-11-23T13:46:40Z"); a date-time input shows and
// takes the reader's local time.
function instant(local) {
  const date = new Date(local);
  return isNaN(date) ? local : date.toISOString().replace(".000Z", "Z");
}

function localDateTime(text) {
  const date = new Date(text);
  if (isNaN(date)) return "";
  const pad = n => String(n).padStart(2, "0");
  return date.getFullYear() + "-" + pad(date.getMonth() + 1) + "-" + pad(date.getDate()) + "T" +
    pad(date.getHours()) + ":" + pad(date.getMinutes()) + ":" + pad(date.getSeconds());
}

// An event's button, labelled and styled by its declared role (primary, secondary, cancel, destructive).
function eventButton(look, event, payload, kind) {
  const presentation = look.events[event] || {};
  return button(presentation.label || humanize(event), event, payload, kind || presentation.role || "secondary");
}

function inputType(type) {
  return { password: "password", integer: "number", number: "number", "date-time": "datetime-local", boolean: "checkbox" }[type] ||
    "text";
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


start().catch(error => showMessage("Could not start: " + error.message));
