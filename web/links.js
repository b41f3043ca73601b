// Deep links in the web client. The address bar shows the top screen's canonical link (the
// State's `link`, or "/" when it has none); a page opened at a link opens that screen (a new
// session is created with it, a resumed one is sent `open`), through sign-in when the app needs
// it; and a shared link's page gets one history entry per screen of its stack, so that the
// browser's back button walks down through it (app.js sends `back` on each).
"use strict";

const Links = {
  // The link this page was opened at, or null at the app's start ("/").
  requested() {
    const path = location.pathname;
    return path && path !== "/" ? path : null;
  },

  // Where the address bar points while `state` is shown.
  address(state) { return state.link || "/"; },

  // The body of POST /v1/sessions: with the page's link when it has one.
  creation() {
    const link = Links.requested();
    return link ? { platform: "web", link } : { platform: "web" };
  },

  // A resumed session shows another screen than the page's link names (a link pasted into a
  // tab that has a session): the link to open, else null.
  toOpen(state) {
    const link = Links.requested();
    return link && link !== state.link ? link : null;
  },

  // The first State this page shows. A page the browser just opened (no entry of ours yet)
  // gets an entry per screen of the stack, the top one last, so that back walks down the stack;
  // a reloaded page keeps the entries it had.
  seed(state, depth) {
    if (history.state !== null) {
      history.replaceState(history.state, "", Links.address(state));
      return;
    }
    history.replaceState({ top: null }, "", depth > 1 ? "/" : Links.address(state));
    for (let index = 1; index < depth; index++) {
      history.pushState({ top: index === depth - 1 ? state.top : null }, "", index === depth - 1 ? Links.address(state) : "/");
    }
  },
};
