// Live pages: /events says an event was appended; the page fetches its own <main> again (?fragment=1)
// and swaps it in. A page shown as of an earlier event (data-live="off") stays as it is.
(function () {
  "use strict";
  if (!window.EventSource || document.body.dataset.live !== "on") return;
  var badge = document.getElementById("liveness");
  var timer = null;
  var opened = false;

  function say(text) { if (badge) badge.textContent = text; }

  function concerns(event) {
    var article = document.querySelector("[data-character]");
    return !article || event.character_id === article.dataset.character;
  }

  function refresh() {
    timer = null;
    var url = new URL(window.location.href);
    url.searchParams.set("fragment", "1");
    fetch(url.toString(), { headers: { Accept: "text/html" } })
      .then(function (response) { return response.text(); })
      .then(function (html) {
        var holder = document.createElement("template");
        holder.innerHTML = html;
        var fresh = holder.content.getElementById("live");
        var main = document.getElementById("live");
        if (fresh && main) main.replaceWith(fresh);
        document.body.dataset.refreshed = String(Date.now());
      })
      .catch(function () { say("cannot reach the server"); });
  }

  function soon() { if (timer === null) timer = window.setTimeout(refresh, 150); }

  function follow() {
    var source = new EventSource("/events");
    source.onopen = function () {
      say("live");
      if (opened) soon();  // back after a drop: whatever happened meanwhile
      opened = true;
    };
    source.onerror = function () {
      if (source.readyState !== EventSource.CLOSED) { say("reconnecting…"); return; }
      // turned away (the server follows as many pages as it can): the browser gives up, this page does not
      say("not live: the server is busy; trying again in a minute");
      window.setTimeout(follow, 60000);
    };
    source.onmessage = function (message) {
      var event = JSON.parse(message.data);
      document.body.dataset.lastEvent = String(event.position);
      if (concerns(event)) soon();
    };
  }

  follow();
})();
