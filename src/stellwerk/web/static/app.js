// stellwerk game page: clicks on the map open the legal tile lays of a hex or the station
// choices of a city (the server rendered them as hidden panels); a move is posted by the
// script and the next position swapped in; the live feed (server-sent events) fetches the
// page again when another player moved and swaps its parts in.
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
    root.querySelectorAll("form[method=post]").forEach(function (f) {
      f.addEventListener("submit", function (event) { send(f, event); });
    });
  }

  // A move is posted by the script and the page it leads to swapped in (no reload of the
  // document, its styles and script): the same forms work without JavaScript.
  var sending = false;  // a move of ours is on its way: a second click waits for its answer

  function send(form, event) {
    if (sending) { event.preventDefault(); return; }
    busy = true;
    if (!window.fetch || !window.URLSearchParams) { return; }  // the browser posts the form
    event.preventDefault();
    sending = true;
    var body = new URLSearchParams(new FormData(form));
    var by = event.submitter;
    if (by && by.name) { body.append(by.name, by.value); }
    // getAttribute: a move form has an input named "action", which hides form.action
    fetch(form.getAttribute("action"), { method: "POST", body: body, credentials: "same-origin" })
      .then(function (r) { return r.text().then(function (text) { return { r: r, text: text }; }); })
      .then(function (got) {
        if (!swap(got.text)) { window.location.reload(); return; }
        if (got.r.redirected && got.r.url) {
          window.history.replaceState(null, "", got.r.url.split("#")[0]);
        }
      })
      .catch(function () { window.location.reload(); })
      .finally(function () { busy = false; sending = false; });
  }

  // Put the #game of a page's HTML in place of the shown one; false when it has none.
  function swap(text) {
    var doc = new DOMParser().parseFromString(text, "text/html");
    var fresh = doc.getElementById("game");
    var old = document.getElementById("game");
    if (!fresh || !old) { return false; }
    // a section the player opened (the charters, the game's course) stays open
    old.querySelectorAll("details[id]").forEach(function (d) {
      var kept = fresh.querySelector("details#" + d.id);
      if (kept) { kept.open = d.open; }
    });
    old.replaceWith(fresh);
    init(fresh);
    var live = document.getElementById("live");
    if (live) { live.hidden = false; }
    return true;
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
        swap(text);
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

// Following the game: the page title says "your turn" (the server writes it); a player may opt
// in to a sound and a browser notification when a move of his becomes due while the page is
// open; every game page opened on this device is remembered, so the list of games links it.
(function () {
  var SEATS = "stellwerk.seats";
  var NOTIFY = "stellwerk.notify";

  function stored(name, fallback) {
    try { return JSON.parse(window.localStorage.getItem(name)) || fallback; } catch (e) { return fallback; }
  }
  function store(name, value) {
    try { window.localStorage.setItem(name, JSON.stringify(value)); } catch (e) { /* private mode */ }
  }

  function remember(root) {
    var seats = stored(SEATS, {});
    var seat = root.dataset.seat;
    var old = seats[root.dataset.key];
    if (old && old.seat && !seat) { return; }  // a player's own link beats the spectators'
    seats[root.dataset.key] = { url: window.location.pathname, seat: seat, title: root.dataset.titleName };
    store(SEATS, seats);
  }

  function linkGames(list) {
    var seats = stored(SEATS, {});
    list.querySelectorAll("li[data-game]").forEach(function (li) {
      var seat = seats[li.dataset.game];
      if (!seat || li.querySelector("a.game-link")) { return; }
      var a = document.createElement("a");
      a.className = "game-link button";
      a.href = seat.url;
      a.textContent = "\u25B6 " + (seat.seat || "\uD83D\uDC41");
      li.appendChild(a);
    });
  }

  function beep() {
    var Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) { return; }
    var ctx = new Context();
    var osc = ctx.createOscillator();
    var gain = ctx.createGain();
    osc.frequency.value = 660;
    gain.gain.setValueAtTime(0.15, ctx.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, ctx.currentTime + 0.4);
    osc.connect(gain); gain.connect(ctx.destination);
    osc.start(); osc.stop(ctx.currentTime + 0.4);
  }

  function announce(root) {
    if (!stored(NOTIFY, false)) { return; }
    beep();
    if (window.Notification && Notification.permission === "granted") {
      new Notification(document.title, { body: root.dataset.titleName, tag: "stellwerk-" + root.dataset.key });
    }
  }

  function offerNotify(root) {
    var row = root.querySelector("#notify-row");
    var box = root.querySelector("#notify");
    if (!row || !box) { return; }
    row.hidden = false;
    box.checked = !!stored(NOTIFY, false);
    box.addEventListener("change", function () {
      store(NOTIFY, box.checked);
      if (box.checked && window.Notification && Notification.permission === "default") {
        Notification.requestPermission();
      }
    });
  }

  var yours = null;  // whether the page shown last asked the player to move

  function follow() {
    var root = document.getElementById("game");
    if (!root) { return; }
    var now = root.dataset.yours === "1";
    document.title = (now ? "\u25B6 " + root.dataset.turnText + " \u00B7 " : "") +
      root.dataset.titleName + " - stellwerk";
    if (yours === false && now) { announce(root); }
    if (yours === null || root.dataset.marked !== "1") { offerNotify(root); root.dataset.marked = "1"; }
    yours = now;
  }

  document.addEventListener("DOMContentLoaded", function () {
    var list = document.getElementById("games");
    if (list) { linkGames(list); }
    var root = document.getElementById("game");
    if (!root) { return; }
    remember(root);
    follow();
    // the live feed swaps #game for the new page's: look again after each swap
    new MutationObserver(follow).observe(root.parentNode, { childList: true });
  });
})();
