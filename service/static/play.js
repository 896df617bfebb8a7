/* The player's page, enhanced (contracts/play.md): the deadline in the reader's time zone with
   the time left, a confirmation before "Ready" with no orders stored, and live updates from the
   game's event stream. Everything works without this file. Written for this project and
   licensed with it; no third-party library is used, and nothing is fetched from elsewhere. */
(function () {
  "use strict";

  function left(seconds) {
    if (seconds <= 0) { return "the deadline has passed"; }
    var d = Math.floor(seconds / 86400), h = Math.floor(seconds % 86400 / 3600), m = Math.floor(seconds % 3600 / 60);
    return (d ? d + " d " : "") + (d || h ? h + " h " : "") + m + " min left";
  }

  function deadline() {
    var time = document.querySelector("#deadline time"), span = document.querySelector("#deadline .local");
    if (!time || !span) { return; }
    var when = new Date(time.getAttribute("datetime"));
    var local = when.toLocaleString(undefined, {dateStyle: "medium", timeStyle: "short"});
    var remaining = parseInt(span.getAttribute("data-remaining"), 10);
    var start = Date.now();
    function show() {
      var text = "; your time: " + local;
      if (!isNaN(remaining)) { text += " (" + left(remaining - (Date.now() - start) / 1000) + ")"; }
      span.textContent = text + ".";
    }
    show();
    setInterval(show, 30000);
  }

  function confirmReady() {
    var form = document.querySelector("form[data-confirm-ready]");
    if (!form || !form.getAttribute("data-confirm-ready")) { return; }
    form.addEventListener("submit", function (event) {
      var missing = form.getAttribute("data-confirm-ready");
      if (window.confirm("No orders are stored for " + missing + ". Mark ready anyway?")) {
        form.querySelector("input[name=confirmed]").value = "yes";
      } else {
        event.preventDefault();
      }
    });
  }

  function live() {
    var header = document.querySelector("header[data-events]");
    if (!header || !window.EventSource) { return; }
    var typing = false;
    document.addEventListener("input", function () { typing = true; });
    var source = new EventSource(header.getAttribute("data-events"));

    function reload() {  // a GET of the page: never the form a page may be the answer to
      if (!typing) { window.location.assign(header.getAttribute("data-page")); return; }
      if (document.getElementById("live-note")) { return; }
      var note = document.createElement("p");
      note.id = "live-note";
      note.className = "notice";
      note.setAttribute("role", "status");
      note.textContent = "The game moved on. Reload the page to see it (what you typed is not sent yet).";
      document.querySelector("main").prepend(note);
    }

    function readiness(event) {  // who submitted or is ready, in place
      var data = JSON.parse(event.data);
      (data.power ? [data.power] : data.powers || []).forEach(function (power) {
        var row = document.querySelector('#readiness tr[data-power="' + power + '"]');
        if (!row) { return; }
        if (data.submitted !== undefined) { row.querySelector(".submitted").textContent = data.submitted ? "submitted" : "not yet"; }
        if (data.ready !== undefined) { row.querySelector(".ready").textContent = data.ready ? "ready" : ""; }
      });
    }

    function title(word) { return word ? word.charAt(0) + word.slice(1).toLowerCase() : word; }

    function message(event) {  // a new message, newest first
      var m = JSON.parse(event.data), list = document.getElementById("messages");
      if (!list) { return; }
      var article = document.createElement("article"), meta = document.createElement("p"), body = document.createElement("p");
      var sender = m.from ? title(m.from) : "unknown (grey)";
      article.className = "message";
      article.setAttribute("aria-label", "Message from " + (m.from ? title(m.from) : "an unknown power"));
      meta.className = "meta";
      meta.textContent = "From " + sender + " to " + (m.to === "all" ? "all" : (m.to || ["you"]).map(title).join(", ")) + ", " + m.phase;
      body.textContent = m.body;
      article.append(meta, body);
      list.prepend(article);
    }

    source.addEventListener("orders", readiness);
    source.addEventListener("press", message);
    ["phase", "vote", "seat", "end", "game", "deadline"].forEach(function (type) { source.addEventListener(type, reload); });
  }

  document.addEventListener("DOMContentLoaded", function () { deadline(); confirmReady(); live(); });
}());
