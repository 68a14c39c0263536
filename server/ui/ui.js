// The skillc web view: keeps #view up to date from the server's event
// stream. The server renders every view (escaped by html/template); this
// file only swaps it in, so the page works, unchanging, without it.
"use strict";

(function () {
  const view = document.getElementById("view");
  const live = document.getElementById("live");
  if (!view || !view.dataset.events || !window.EventSource) {
    return;
  }
  const setLive = (state) => {
    if (live) {
      live.dataset.state = state;
      live.title = {on: "live: updates as the plan changes", off: "not live: reload to update", retry: "reconnecting…"}[state];
    }
  };
  const events = new EventSource(view.dataset.events);
  events.addEventListener("open", () => setLive("on"));
  events.addEventListener("error", () => setLive(events.readyState === EventSource.CLOSED ? "off" : "retry"));
  // "view": the new HTML of #view, rendered by the server.
  events.addEventListener("view", (e) => {
    const doc = new DOMParser().parseFromString(e.data, "text/html");
    view.replaceChildren(...doc.body.childNodes);
    view.dataset.updated = String(Date.now());
  });
  // "signin": the session ended (signed out elsewhere, token revoked).
  events.addEventListener("signin", () => {
    events.close();
    setLive("off");
    window.location.assign("/ui/login");
  });
})();
