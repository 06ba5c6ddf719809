// stellwerk game page: clicks on the map open the legal tile lays of a hex or the station
// choices of a city (the server rendered them as hidden panels); the live feed (server-sent
// events) fetches the page again when another player moved and swaps its parts in.
"use strict";
(function () {
  function panels(root) { return root.querySelectorAll("#hex-panels .panel"); }

  function show(root, found) {
    if (!found.length) { return false; }
    panels(root).forEach(function (p) { p.hidden = true; });
    found.forEach(function (p) { p.hidden = false; });
    found[0].scrollIntoView({ block: "nearest" });
    return true;
  }

  function mark(root) {
    var lays = JSON.parse(root.dataset.lays || "[]");
    var cities = JSON.parse(root.dataset.cities || "[]");
    lays.forEach(function (hex) {
      var g = root.querySelector('#map g.hex[data-hex="' + hex + '"]');
      if (g) { g.classList.add("can-lay"); }
    });
    cities.forEach(function (key) {
      var g = root.querySelector('#map g.city[data-city="' + key + '"]');
      if (g) { g.classList.add("can-token"); }
    });
  }

  function onMapClick(root, event) {
    var city = event.target.closest("[data-city]");
    if (city) {
      var key = city.getAttribute("data-city");
      if (show(root, root.querySelectorAll('.panel[data-tokens-for="' + key + '"]'))) { return; }
    }
    var hexEl = event.target.closest("[data-hex]");
    if (!hexEl) { return; }
    var hex = hexEl.getAttribute("data-hex");
    if (show(root, root.querySelectorAll('.panel[data-lays-for="' + hex + '"]'))) { return; }
    show(root, root.querySelectorAll('.panel.tokens[data-hex="' + hex + '"]'));
  }

  function init(root) {
    mark(root);
    var map = root.querySelector("#map");
    if (map) { map.addEventListener("click", function (e) { onMapClick(root, e); }); }
    root.querySelectorAll(".panel .close").forEach(function (b) {
      b.addEventListener("click", function () { b.closest(".panel").hidden = true; });
    });
    root.querySelectorAll("form.move").forEach(function (f) {
      f.addEventListener("submit", function () { busy = true; });
    });
  }

  var busy = false;      // a move of ours is on its way: the page after it comes anyway
  var fetching = false;  // one fetch at a time; a count that arrives meanwhile is looked at after
  var latest = null;     // the newest action count the feed announced

  function refresh() {
    var root = document.getElementById("game");
    if (!root || busy || fetching) { return; }
    fetching = true;
    fetch(root.dataset.page, { credentials: "same-origin", cache: "no-store" })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (text) {
        if (!text || busy) { return; }
        var doc = new DOMParser().parseFromString(text, "text/html");
        var fresh = doc.getElementById("game");
        var old = document.getElementById("game");
        if (!fresh || !old) { return; }
        // a section the player opened (the charters, the game's course) stays open
        old.querySelectorAll("details[id]").forEach(function (d) {
          var kept = fresh.querySelector("details#" + d.id);
          if (kept) { kept.open = d.open; }
        });
        old.replaceWith(fresh);
        init(fresh);
        document.getElementById("live").hidden = false;
      })
      .finally(function () {
        fetching = false;
        var now = document.getElementById("game");
        if (now && latest !== null && String(latest) !== now.dataset.count) { refresh(); }
      });
  }

  function listen(root) {
    if (!window.EventSource || !root.dataset.events) { return; }
    var source = new EventSource(root.dataset.events + "&after=" + root.dataset.count);
    source.addEventListener("open", function () {
      var live = document.getElementById("live");
      if (live) { live.hidden = false; }
    });
    source.addEventListener("count", function (event) {
      var now = document.getElementById("game");
      latest = JSON.parse(event.data).action_count;
      if (now && String(latest) !== now.dataset.count) { refresh(); }
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    var root = document.getElementById("game");
    if (!root) { return; }
    init(root);
    listen(root);
  });
})();
