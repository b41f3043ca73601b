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
const brand = document.getElementById("brand");

let catalog = {};          // screen name → {props, events: {name → fields}, presentation (with labels and types by field)}
let session = null;        // {id, token}
let state = null;          // the last State
let busy = false;          // a request is in flight: buttons are disabled
let lastTop = null;

// ---- HTTP ----

async function call(method, path, body) {
  const headers = { "Accept": "application/json" };
  // The user's languages, most preferred first: the catalog's labels and what flows write come
  // back in the first the app has (browsers send this too; said here so every request has it).
  if (navigator.languages && navigator.languages.length) {
    headers["Accept-Language"] = navigator.languages.map((tag, index) => index === 0 ? tag : tag + ";q=" + Math.max(0.1, 1 - index / 10).toFixed(1)).join(", ");
  }
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
  // The app's own name, not the server's, in the title bar and the browser tab.
  const name = answer.json.app && answer.json.app.name;
  if (name) { brand.textContent = name; document.title = name; }
  for (const screen of answer.json.screens) {
    const presentation = Object.assign({ fields: {}, events: {}, itemActions: [] }, screen.presentation || {});
    // A date-time prop shows in the reader's local time unless the app says how to show it.
    for (const prop of screen.props) {
      if (prop.type === "date-time") presentation.fields[prop.name] = Object.assign({ display: "timestamp" }, presentation.fields[prop.name]);
    }
    // What a screen reader says for each field and event, resolved by the server (never empty).
    const labels = {}, types = {};
    const collect = field => {
      if (field.name && field.accessibilityLabel) labels[field.name] = field.accessibilityLabel;
      if (field.name) types[field.name] = field.type;
      (field.fields || []).forEach(collect);
      if (field.items) collect(field.items);
    };
    screen.props.forEach(collect);
    screen.events.forEach(event => { labels["event:" + event.name] = event.accessibilityLabel; event.fields.forEach(collect); });
    presentation.labels = labels;
    presentation.types = types;
    catalog[screen.name] = {
      props: screen.props, events: Object.fromEntries(screen.events.map(e => [e.name, e.fields])), presentation,
    };
  }
  const stored = sessionStorage.getItem(STORE_KEY);
  if (stored) {
    session = JSON.parse(stored);
    const resumed = await call("GET", "/v1/sessions/" + encodeURIComponent(session.id));
    if (resumed.status === 200) {
      // The page's link, read before showing the State moves the address bar to its link.
      const link = Links.toOpen(resumed.json);
      show(resumed.json);
      followLive();
      if (link) await send("open", { link });
      return;
    }
  }
  await createSession();
}

async function createSession() {
  session = null;
  let created = await call("POST", "/v1/sessions", Links.creation());
  let refused = null;
  if (created.status !== 201 && created.status !== 429 && Links.requested()) {
    // A link that names nothing here (or no longer exists): start at the start, and say why.
    refused = created;
    history.replaceState(null, "", "/");
    created = await call("POST", "/v1/sessions", { platform: "web" });
  }
  if (created.status !== 201) { problem(created); return; }
  session = { id: created.json.session.id, token: created.json.token };
  save();
  show(created.json.session);
  if (refused) problem(refused);
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
  app.setAttribute("aria-busy", String(value));
  for (const control of document.querySelectorAll("button, input, textarea")) control.disabled = value;
}

// ---- Browser history: the back button sends `back` (or `dismiss`) ----

window.addEventListener("popstate", () => {
  const events = topScreen() ? topScreen().events : [];
  if (events.includes("back")) send("back");
  else if (events.includes("dismiss")) send("dismiss");
  else history.pushState({ top: state && state.top }, "");
});

// Each entry's address is its screen's link (links.js).
function syncHistory(previousDepth) {
  const depth = stackDepth();
  if (lastTop === null) Links.seed(state, depth);
  else if (state.top !== lastTop && depth > previousDepth) history.pushState({ top: state.top }, "", Links.address(state));
  else history.replaceState(history.state, "", Links.address(state));
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
  app.setAttribute("aria-busy", String(busy));
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
  // The tab bar comes first: at the top on a desktop, fixed to the bottom on a phone (style.css).
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
  if (screen) container.append(renderScreen(screen, screens, layer));
  return container;
}

function definitionOf(name) {
  return catalog[name] || { props: [], events: {}, presentation: { fields: {}, events: {}, itemActions: [], labels: {}, types: {} } };
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
  // An alert without a title shows its message and choices only: its screen's name means
  // nothing to a user (a stack's screen falls back to it, as the crumbs do).
  const heading = layer.presentation === "alert" ? look.title : titleOf(screen.name);
  if (heading) nav.append(el("h1", {}, heading));
  // A sheet closes with its cross; an alert only through its own choices.
  if (screen.events.includes("dismiss") && layer.presentation !== "alert") {
    nav.append(button("✕", "dismiss", {}, "secondary close", "Close"));
  }
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
    // An optional prop that is null is left out, not shown as an empty value.
    if (name === "error" || props[name] === null || props[name] === undefined || displayOf(look, name) === "hidden") continue;
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
  // One form: the screen's other choices (cancel, …) sit beside its submit button.
  if (forms.length === 1 && actions.children.length) forms[0].querySelector(".form-actions").append(...actions.children);
  else if (actions.children.length) card.append(actions);
  return card;
}

function displayOf(look, name) { return (look.fields[name] || {}).display || "text"; }

function labelOf(look, name) {
  const label = (look.fields[name] || {}).label;
  return label === undefined ? humanize(name) : label;
}

// What a screen reader says for a field: never empty, even where no label is shown.
function spokenLabelOf(look, name) {
  const field = look.fields[name] || {};
  return field.accessibilityLabel || labelOf(look, name) || (look.labels || {})[name] || humanize(name);
}

// A list prop as items, an object prop as its members, a scalar as label and value; shown as
// the screen's presentation says, and with the events its item actions declare.
function renderProp(name, value, look, isTop) {
  const wrapper = el("div", { class: "prop", "data-prop": name });
  const label = labelOf(look, name);
  if (Array.isArray(value)) {
    if (label) wrapper.append(el("div", { class: "label" }, label));
    const list = el("ul", { class: "items", "aria-label": spokenLabelOf(look, name) });
    for (const item of value) list.append(renderItem(item, name, look, isTop));
    if (!value.length) list.append(el("li", { class: "row empty" }, "Nothing yet."));
    wrapper.append(list);
  } else if (value && typeof value === "object") {
    if (label) wrapper.append(el("div", { class: "label" }, label));
    else wrapper.setAttribute("aria-label", spokenLabelOf(look, name));
    wrapper.append(renderMembers(value, name, look, isTop));
  } else {
    wrapper.append(renderScalar(name, value, look, label));
  }
  return wrapper;
}

// A list item. One whose action opens something is a row tapped as a whole (a button holding its
// title and subtitle, stretched over the row, so the keyboard reaches it too); an action that
// removes or destroys stays a button of its own, labelled, so that no tap on a row destroys anything.
function renderItem(item, path, look, isTop) {
  const row = el("li", { class: "row" });
  if (!item || typeof item !== "object") { row.append(el("span", {}, format(path, item, look))); return row; }
  const action = look.itemActions.find(a => a.path === path);
  const opens = action && isTop && item[action.key] !== undefined && item[action.key] !== null;
  const role = action ? (look.events[action.event] || {}).role : undefined;
  const heading = el("div", { class: "item" });
  if (action && action.title) heading.append(el("div", { class: "item-text" }, format(action.title, item[action.title], look)));
  if (action && action.subtitle && item[action.subtitle] != null) {
    heading.append(el("div", { class: "meta" }, format(action.subtitle, item[action.subtitle], look)));
  }
  if (opens && role !== "destructive" && heading.children.length) {
    const tap = button("", action.event, { [action.field]: item[action.key] }, "row-main");
    tap.replaceChildren(heading);
    row.classList.add("tappable");
    row.append(tap);
  } else if (heading.children.length) {
    row.append(heading);
  }
  const shown = new Set(action ? [action.title, action.subtitle, action.key] : []);
  row.append(renderMembers(item, path, look, isTop, shown));
  if (opens && (role === "destructive" || !heading.children.length)) {
    row.append(eventButton(look, action.event, { [action.field]: item[action.key] }, role === "destructive" ? "destructive small" : "secondary small"));
  }
  return row;
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
    if (member === null || member === undefined) continue;
    if (member && typeof member === "object" && !Array.isArray(member)) {
      const action = look.itemActions.find(a => a.path === path + "." + key);
      const title = action && action.title ? member[action.title] : (member.displayName || member.name || "");
      if (action && isTop && member[action.key] !== undefined) {
        const link = eventButton(look, action.event, { [action.field]: member[action.key] }, "link");
        link.textContent = String(title);
        box.append(el("div", { class: "meta" }, labelOf(look, key) ? labelOf(look, key) + ": " : "", link));
      } else if (labelOf(look, key)) {
        box.append(el("div", { class: "meta" }, labelOf(look, key) + ": " + String(title)));
      } else {
        // Unlabelled: the object is what the row is about (a cart line's product).
        box.append(el("div", { class: "item-text", "aria-label": spokenLabelOf(look, key) + ": " + String(title) }, String(title)));
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
  const url = webAddress(value);
  if (display === "image" && url) {
    row.classList.add("image");
    row.append(el("img", { src: url, alt: spokenLabelOf(look, name), loading: "lazy" }));
  } else if ((display === "link" || (look.types || {})[name] === "url") && url) {
    row.append(el("a", { href: url, rel: "noopener noreferrer", target: "_blank" }, url));
  } else {
    row.append(el("span", { class: "value" }, format(name, value, look)));
  }
  return row;
}

// An http or https address, or null: a prop never becomes a `javascript:` link.
function webAddress(value) {
  if (typeof value !== "string") return null;
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:" ? url.href : null;
  } catch (_) { return null; }
}

// A value as a reader wants it: instants in their local date and time.
function format(name, value, look) {
  if (value === null || value === undefined) return "";
  if (displayOf(look, name) === "timestamp") {
    const date = new Date(value);
    if (!isNaN(date)) return date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
  }
  return String(value);
}

// HTML input types and keyboards for the catalog's input kinds.
const INPUT_TYPES = { password: "password", email: "email", number: "number", url: "url", tel: "tel", "date-time": "datetime-local" };
const INPUT_MODES = { email: "email", number: "decimal", url: "url", tel: "tel" };

function renderForm(event, fields, props, look) {
  // The server validates (its answer shows as the screen's error); the browser offers the input
  // kind, what the platform may fill in (autofill), and the declared length as a hint.
  const form = el("form", { class: "event", "data-event": event, novalidate: "" });
  for (const field of fields) {
    const hints = look.fields[field.name] || {};
    const kind = hints.input || defaultInput(field);
    const input = kind === "multiline"
      ? el("textarea", { name: field.name, rows: "4" })
      : el("input", { name: field.name, type: INPUT_TYPES[kind] || inputType(field.type) });
    input.setAttribute("autocomplete", hints.autofill || defaultAutofill(kind));
    if (INPUT_MODES[kind]) input.setAttribute("inputmode", INPUT_MODES[kind]);
    if (["email", "url", "password"].includes(kind) || ["username", "email", "one-time-code"].includes(hints.autofill)) {
      input.setAttribute("autocapitalize", "off");
      input.setAttribute("spellcheck", "false");
    }
    if (hints.maxLength !== undefined) input.setAttribute("maxlength", String(hints.maxLength));
    if (hints.minLength !== undefined) input.setAttribute("minlength", String(hints.minLength));
    if (hints.pattern !== undefined) input.setAttribute("pattern", hints.pattern);
    if (field.type === "number") input.step = "any";
    const prefill = props[field.name];
    if (field.type === "date-time" && typeof prefill === "string") input.value = localDateTime(prefill);
    else if (kind !== "password" && typeof prefill === "string") input.value = prefill;
    if (!field.optional && field.type !== "boolean") input.required = true;
    const label = el("label", {}, el("span", { class: "label-text" }, labelOf(look, field.name) || spokenLabelOf(look, field.name)), input);
    const rule = lengthHint(hints);
    if (rule) {
      const id = "hint-" + event + "-" + field.name;
      label.append(el("span", { class: "hint", id }, rule));
      input.setAttribute("aria-describedby", id);
    }
    form.append(label);
  }
  const presentation = look.events[event] || {};
  const submit = el("button", { type: "submit", class: presentation.role || "primary" }, presentation.label || humanize(event));
  form.append(el("div", { class: "form-actions" }, submit));
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

// "15 to 128 characters", "Up to 500 characters", "At least 2 characters".
function lengthHint(hints) {
  const min = hints.minLength, max = hints.maxLength;
  if (min > 1 && max !== undefined) return min + " to " + max + " characters";
  if (max !== undefined) return "Up to " + max + " characters";
  if (min > 1) return "At least " + min + " characters";
  return "";
}

function defaultAutofill(kind) {
  return { password: "current-password", email: "email", url: "url", tel: "tel" }[kind] || "on";
}

function defaultInput(field) {
  return { password: "password", integer: "number", number: "number", "date-time": "date-time", url: "url" }[field.type] || "text";
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
  const label = presentation.label || humanize(event);
  const spoken = (look.labels || {})["event:" + event];
  return button(label, event, payload, kind || presentation.role || "secondary", spoken !== label ? spoken : undefined);
}

function inputType(type) {
  return { password: "password", integer: "number", number: "number", "date-time": "datetime-local", boolean: "checkbox", url: "url" }[type] ||
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
