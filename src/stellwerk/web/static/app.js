// stellwerk game page: the map to play on -- a click on a marked hex draws its first legal
// tile in place (the hex's lay page, fetched: the same pictures and forms that work without
// this script), clicks or the keys r / R (arrows) turn it through the legal rotations only, a
// small bar beside the hex confirms (Enter) or cancels (Esc); a click on a marked city offers
// its station in the same bar.  A move is posted by the script and the next position
// swapped in.  The live feed (server-sent events) fetches the page again
// when another player moved, or a trade offer was made or answered, and swaps its parts in.
"use strict";
(function () {
  // -- the map to play on: a tile previewed in place, turned, confirmed; a station confirmed
  var play = null;  // the open choice: {kind: "lay"|"token", key, options, index, bar}

  function words(root) { return JSON.parse(root.dataset.words || "{}"); }

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

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text) { e.textContent = text; }
    return e;
  }

  function button(label, cls, onClick) {
    var b = el("button", cls, label);
    b.type = "button";
    b.addEventListener("click", function (event) { event.stopPropagation(); onClick(); });
    return b;
  }

  function cancel() {
    if (!play) { return; }
    play.bar.remove();
    if (play.target) { play.target.classList.remove("picked"); }
    if (play.preview) { play.preview.remove(); }
    play = null;
  }

  // the floating bar beside what was clicked, inside the map's scrolling box
  function openBar(root, target) {
    var box = root.querySelector("#map .scroll");
    var bar = el("div", "map-bar");
    bar.setAttribute("role", "dialog");
    box.appendChild(bar);
    var r = target.getBoundingClientRect();
    var b = box.getBoundingClientRect();
    // beside the hex, past its neighbours (they show where the new track leads)
    var gap = target.classList.contains("city") ? 8 : r.width * 0.8;
    var width = bar.offsetWidth;
    var left = r.right - b.left + box.scrollLeft + gap;
    if (left + width > box.scrollLeft + box.clientWidth) { left = r.left - b.left + box.scrollLeft - gap - width; }
    bar.style.left = Math.max(box.scrollLeft, left) + "px";
    bar.style.top = Math.max(0, r.top - b.top + box.scrollTop) + "px";
    target.classList.add("picked");
    return bar;
  }

  function send(form) {  // a lay or station form of the bar: posted as every move is
    if (busy || sending) { return; }  // one move at a time
    var holder = document.getElementById("map-forms");
    holder.appendChild(document.importNode(form, true));
    if (!window.fetch || !window.URLSearchParams) { busy = true; holder.lastChild.submit(); return; }
    post(holder.lastChild, null);
  }

  function drawLay(root) {
    var option = play.options[play.index];
    var w = words(root);
    if (play.preview) { play.preview.remove(); }
    var g = document.createElementNS("http://www.w3.org/2000/svg", "g");
    g.setAttribute("class", "lay-preview");
    g.setAttribute("data-tile", option.tile);
    g.setAttribute("data-rotation", option.rotation);
    Array.prototype.forEach.call(option.g.childNodes, function (child) {
      var copy = document.importNode(child, true);
      if (!(copy.classList && copy.classList.contains("location-label"))) { g.appendChild(copy); }
    });
    play.target.appendChild(g);
    play.preview = g;
    var bar = play.bar;
    bar.textContent = "";
    bar.appendChild(el("strong", "bar-what", option.label));
    if (option.cost) { bar.appendChild(el("span", "bar-cost", option.cost)); }
    bar.appendChild(el("span", "bar-terrain muted", play.terrain));
    var rotations = play.options.filter(function (o) { return o.tile === option.tile; });
    var row = el("div", "bar-buttons");
    if (rotations.length > 1) {
      row.appendChild(button("\u21bb " + w.turn, "bar-turn", function () { turn(root, 1); }));
    }
    var tiles = [];
    play.options.forEach(function (o) { if (tiles.indexOf(o.tile) < 0) { tiles.push(o.tile); } });
    if (tiles.length > 1) {
      tiles.forEach(function (t) {
        var pick = button(t, "bar-tile" + (t === option.tile ? " on" : ""), function () { toTile(root, t); });
        pick.setAttribute("data-tile", t);
        row.appendChild(pick);
      });
    }
    var ok = button("\u2713 " + w.confirm, "bar-confirm", function () { send(option.form); });
    row.appendChild(ok);
    row.appendChild(button("\u2715 " + w.cancel, "bar-cancel close", cancel));
    bar.appendChild(row);
    ok.focus({ preventScroll: true });
  }

  // the next (step 1) or previous (-1) legal rotation of the tile shown
  function turn(root, step) {
    var tile = play.options[play.index].tile;
    var n = play.options.length;
    var i = play.index;
    do { i = (i + step + n) % n; } while (play.options[i].tile !== tile);
    play.index = i;
    drawLay(root);
  }

  function toTile(root, tile) {
    for (var i = 0; i < play.options.length; i++) {
      if (play.options[i].tile === tile) { play.index = i; drawLay(root); return; }
    }
  }

  function nextTile(root, step) {
    var tiles = [];
    play.options.forEach(function (o) { if (tiles.indexOf(o.tile) < 0) { tiles.push(o.tile); } });
    var at = tiles.indexOf(play.options[play.index].tile);
    toTile(root, tiles[(at + step + tiles.length) % tiles.length]);
  }

  function startLay(root, hex) {
    var link = root.querySelector('a[data-lay-hex="' + hex + '"]');
    var target = root.querySelector('#map g.hex[data-hex="' + hex + '"]');
    if (!link || !target) { return; }
    cancel();
    fetch(link.href, { credentials: "same-origin", cache: "no-store" })
      .then(function (r) { return r.text(); })
      .then(function (text) {
        var doc = new DOMParser().parseFromString(text, "text/html");
        var options = Array.prototype.map.call(doc.querySelectorAll("form.lay-option"), function (f) {
          return {
            tile: f.dataset.tile, rotation: f.dataset.rotation, form: f,
            label: f.querySelector(".lay-label").textContent, cost: f.dataset.cost,
            g: f.querySelector("g.hex.preview")
          };
        });
        if (!options.length) { window.location.href = link.href; return; }
        cancel();
        var terrain = doc.getElementById("terrain");
        play = { kind: "lay", key: hex, options: options, index: 0, target: target,
                 terrain: terrain ? terrain.textContent : "" };
        play.bar = openBar(root, target);
        drawLay(root);
      })
      .catch(function () { window.location.href = link.href; });
  }

  function startToken(root, key) {
    var target = root.querySelector('#map g.city[data-city="' + key + '"]');
    var forms = root.querySelectorAll('.city-tokens[data-tokens-for="' + key + '"] form.move');
    if (!target || !forms.length) { return; }
    cancel();
    var w = words(root);
    play = { kind: "token", key: key, options: forms, index: 0, target: target };
    var bar = play.bar = openBar(root, target);
    var row = el("div", "bar-buttons");
    Array.prototype.forEach.call(forms, function (form, i) {
      var label = form.querySelector("button").textContent;
      var ok = button("\u2713 " + label, "bar-confirm", function () { send(form); });
      row.appendChild(ok);
      if (i === 0) { setTimeout(function () { ok.focus({ preventScroll: true }); }, 0); }
    });
    row.appendChild(button("\u2715 " + w.cancel, "bar-cancel close", cancel));
    bar.appendChild(el("strong", "bar-what", w.station));
    bar.appendChild(row);
  }

  // -- routes edited on the map (web/runs.py): a train picked, stops clicked on and off, the
  // run priced by the server (debounced), drawn as the map draws routes, sent as a move.  A
  // stop taken off goes here; a stop added is sent as "add" and the server places it where
  // the route stays legal (its answer's "stops"); clicks meanwhile wait their turn (queue)
  var edit = null;  // {box, best, stops: {train: [stop]}, train, seq, timer, bestAction, queue, busy}

  function startEditor(root) {
    edit = null;
    var box = root.querySelector("#route-edit .route-editor");
    var bestForm = root.querySelector('#routes form.move input[name="action"]');
    if (!box || !bestForm || !window.fetch) { return; }
    box.hidden = false;
    var layer = root.querySelector("#map-routes");
    edit = { box: box, best: JSON.parse(box.dataset.best || "{}"), stops: {}, seq: 0, timer: null,
             bestAction: JSON.parse(bestForm.value), bestLayer: layer ? layer.cloneNode(true) : null,
             train: null, queue: [], busy: false };
    var first = box.querySelector("button.route-train");
    edit.train = first ? first.dataset.train : null;
    box.querySelectorAll("button.route-train").forEach(function (b) {
      b.addEventListener("click", function () { pickTrain(b.dataset.train); });
    });
    box.querySelector("button.route-best").addEventListener("click", function () { resetRoutes(root); });
    resetRoutes(root);
  }

  function pickTrain(train) {
    edit.train = train;
    edit.box.querySelectorAll("button.route-train").forEach(function (b) {
      var on = b.dataset.train === train;
      b.classList.toggle("on", on);
      b.setAttribute("aria-pressed", on ? "true" : "false");
    });
  }

  function trainIds() {
    return Array.prototype.map.call(edit.box.querySelectorAll("button.route-train"), function (b) {
      return b.dataset.train;
    });
  }

  function showRun(routes, action, total) {
    var box = edit.box;
    var by = {};
    routes.forEach(function (r) { by[r.train] = r; });
    trainIds().forEach(function (t) {
      var stops = edit.stops[t] || [];
      var r = by[t];
      box.querySelector('.route-revenue-of[data-train="' + t + '"]').textContent = r ? String(r.revenue) : "";
      box.querySelector('.route-stops[data-train="' + t + '"]').textContent =
        r ? r.revenue_str : (stops.length ? stops.join("-") : box.dataset.noStops);
    });
    box.querySelector(".route-total").textContent = total === null ? "?" : String(total);
    var form = box.querySelector("form.route-run");
    form.querySelector('input[name="action"]').value = action ? JSON.stringify(action) : "";
    form.querySelector("button").disabled = !action;
  }

  function resetRoutes(root) {
    edit.seq++;
    clearTimeout(edit.timer);
    edit.queue = [];
    edit.busy = false;
    edit.stops = {};
    Object.keys(edit.best).forEach(function (t) { edit.stops[t] = edit.best[t].slice(); });
    var layer = root.querySelector("#map-routes");
    if (edit.bestLayer) {
      var copy = edit.bestLayer.cloneNode(true);
      if (layer) { layer.replaceWith(copy); } else { root.querySelector("#map svg").appendChild(copy); }
    } else if (layer) { layer.remove(); }
    var routes = edit.bestAction.routes || [];
    var total = routes.reduce(function (sum, r) { return sum + (r.revenue || 0); }, 0);
    edit.box.querySelector(".route-error").textContent = "";
    showRun(routes, edit.bestAction, total);
  }

  function toggleStop(root, stop) {
    if (!edit.train) { return; }
    edit.queue.push({ train: edit.train, stop: stop });
    if (!edit.busy) { nextChange(root); }
  }

  function nextChange(root) {  // the oldest click waiting: a stop off here, a stop on by the server
    var change = edit.queue.shift();
    if (!change) { return; }
    var list = edit.stops[change.train] = edit.stops[change.train] || [];
    var at = list.indexOf(change.stop);
    edit.box.querySelector(".route-error").textContent = "";
    showRun([], null, null);
    clearTimeout(edit.timer);
    if (at < 0) { priceRun(root, change); return; }
    list.splice(at, 1);
    if (edit.queue.length) { nextChange(root); return; }
    edit.timer = setTimeout(function () { priceRun(root, null); }, 250);
  }

  function priceRun(root, add) {
    var seq = ++edit.seq;
    var box = edit.box;
    var body = {
      base: Number(box.dataset.base), corporation: box.dataset.corporation,
      routes: trainIds().map(function (t) { return { train: t, stops: edit.stops[t] || [] }; })
    };
    if (add) { body.add = add; edit.busy = true; }
    fetch(box.dataset.url, {
      method: "POST", credentials: "same-origin", cache: "no-store",
      headers: { "Content-Type": "application/json" }, body: JSON.stringify(body)
    })
      .then(function (r) { return r.json().then(function (data) { return { ok: r.ok, data: data }; }); })
      .then(function (got) {
        if (!edit || seq !== edit.seq) { return; }  // a newer change is on its way
        if (got.data.stops) { edit.stops = got.data.stops; }  // the added stop placed
        edit.busy = false;
        if (edit.queue.length) { nextChange(root); return; }  // more clicks waited
        if (!got.ok) {
          box.querySelector(".route-error").textContent =
            got.data.error + (got.data.rule ? " (" + got.data.rule + ")" : "");
          showRun([], null, null);
          return;
        }
        var doc = new DOMParser().parseFromString(got.data.svg, "image/svg+xml");
        var fresh = doc.getElementById("map-routes");
        var layer = root.querySelector("#map-routes");
        if (fresh) {
          fresh = document.importNode(fresh, true);
          if (layer) { layer.replaceWith(fresh); } else { root.querySelector("#map svg").appendChild(fresh); }
        }
        showRun(got.data.routes, got.data.action, got.data.revenue);
      })
      .catch(function () {
        if (edit && seq === edit.seq) {
          edit.busy = false;
          edit.queue = [];
          box.querySelector(".route-error").textContent = "?";
        }
      });
  }

  function stopAt(target) {  // the stop clicked: a city or town, else a hex's only stop
    var node = target.closest("[data-node]");
    if (node) { return node.getAttribute("data-node"); }
    var hexEl = target.closest("g.hex[data-stops]");
    var stops = hexEl ? hexEl.getAttribute("data-stops").split(" ") : [];
    return stops.length === 1 ? stops[0] : null;
  }

  function onMapClick(root, event) {
    if (event.target.closest(".map-bar")) { return; }
    if (edit && !event.target.closest(".can-lay, .can-token")) {
      var stop = stopAt(event.target);
      if (stop) { toggleStop(root, stop); return; }
    }
    var hexEl = event.target.closest("g.hex[data-hex]");
    if (play && play.kind === "lay" && hexEl && hexEl.getAttribute("data-hex") === play.key) {
      turn(root, event.shiftKey ? -1 : 1);
      return;
    }
    var city = event.target.closest("g.city.can-token");
    if (city) { startToken(root, city.getAttribute("data-city")); return; }
    if (hexEl && hexEl.classList.contains("can-lay")) { startLay(root, hexEl.getAttribute("data-hex")); return; }
    cancel();
  }

  function onKey(event) {
    if (!play || /^(INPUT|TEXTAREA|SELECT)$/.test(event.target.tagName)) { return; }
    var root = document.getElementById("game");
    var key = event.key;
    if (key === "Enter" && event.target.closest && event.target.closest(".map-bar")) {
      return;  // a focused button of the bar: the browser presses it
    }
    if (key === "Escape") { cancel(); } else if (key === "Enter") {
      send(play.kind === "lay" ? play.options[play.index].form : play.options[0]);
    } else if (play.kind !== "lay") { return; } else if (key === "r" || key === "ArrowRight") {
      turn(root, 1);
    } else if (key === "R" || key === "ArrowLeft") { turn(root, -1); } else if (key === "t" || key === "ArrowDown") {
      nextTile(root, 1);
    } else if (key === "T" || key === "ArrowUp") { nextTile(root, -1); } else { return; }
    event.preventDefault();
  }

  // The map zoomed (the buttons above it, + / - / 0, Ctrl and the wheel; a pinch zooms the
  // page on a phone as it always does) and, zoomed in, panned by dragging it with the mouse
  // (a finger scrolls its box natively).  The zoom stays through the swaps of later moves.
  var zoom = 1;
  var ZOOM_MAX = 4;

  function mapBox(root) { return root.querySelector("#map .map-box"); }

  function setZoom(root, next, px, py) {
    var box = mapBox(root);
    var svg = box && box.querySelector("svg");
    if (!svg) { return; }
    next = Math.max(1, Math.min(ZOOM_MAX, next));
    var before = svg.getBoundingClientRect();
    // the point under (px, py) of the box (default: its centre) stays where it is
    px = px === undefined ? box.clientWidth / 2 : px;
    py = py === undefined ? box.clientHeight / 2 : py;
    var fx = (box.scrollLeft + px) / (before.width || 1);
    var fy = (box.scrollTop + py) / (before.height || 1);
    zoom = next;
    box.classList.toggle("zoomed", zoom > 1);
    svg.style.maxWidth = zoom > 1 ? "none" : "";
    svg.style.width = zoom > 1 ? Math.round(zoom * Math.max(box.clientWidth, 600)) + "px" : "";
    var after = svg.getBoundingClientRect();
    box.scrollLeft = fx * after.width - px;
    box.scrollTop = fy * after.height - py;
    var out = root.querySelector("#map .map-zoom .zoom-out");
    if (out) { out.disabled = zoom <= 1; }
    var more = root.querySelector("#map .map-zoom .zoom-in");
    if (more) { more.disabled = zoom >= ZOOM_MAX; }
  }

  function startZoom(root) {
    var box = mapBox(root);
    if (!box || !box.querySelector("svg")) { return; }
    var w = words(root);
    var row = el("div", "map-zoom");
    row.appendChild(button("+", "zoom-in", function () { setZoom(root, zoom * 1.5); }));
    row.appendChild(button("\u2212", "zoom-out", function () { setZoom(root, zoom / 1.5); }));
    row.appendChild(button("\u2922", "zoom-fit", function () { setZoom(root, 1); }));
    row.querySelector(".zoom-in").title = w.zoom_in || "";
    row.querySelector(".zoom-out").title = w.zoom_out || "";
    row.querySelector(".zoom-fit").title = w.zoom_fit || "";
    row.querySelectorAll("button").forEach(function (b) { b.setAttribute("aria-label", b.title); });
    box.parentNode.insertBefore(row, box);
    box.addEventListener("wheel", function (event) {
      if (!event.ctrlKey) { return; }
      event.preventDefault();
      var b = box.getBoundingClientRect();
      setZoom(root, zoom * (event.deltaY < 0 ? 1.25 : 0.8), event.clientX - b.left, event.clientY - b.top);
    }, { passive: false });
    var drag = null;
    var dragged = false;
    box.addEventListener("pointerdown", function (event) {
      if (event.pointerType !== "mouse" || event.button !== 0 || zoom <= 1) { return; }
      if (event.target.closest && event.target.closest(".map-bar")) { return; }
      drag = { x: event.clientX, y: event.clientY, left: box.scrollLeft, top: box.scrollTop };
      dragged = false;
    });
    box.addEventListener("pointermove", function (event) {
      if (!drag) { return; }
      var dx = event.clientX - drag.x;
      var dy = event.clientY - drag.y;
      if (!dragged && Math.abs(dx) + Math.abs(dy) < 6) { return; }
      dragged = true;
      box.classList.add("panning");
      box.scrollLeft = drag.left - dx;
      box.scrollTop = drag.top - dy;
    });
    var end = function () { drag = null; box.classList.remove("panning"); };
    box.addEventListener("pointerup", end);
    box.addEventListener("pointerleave", end);
    // a drag is no click on a hex or city
    box.addEventListener("click", function (event) {
      if (dragged) { dragged = false; event.stopPropagation(); event.preventDefault(); }
    }, true);
    if (zoom > 1) { setZoom(root, zoom); }
  }

  function onZoomKey(event) {
    if (play || event.ctrlKey || event.metaKey || event.altKey) { return; }
    if (/^(INPUT|TEXTAREA|SELECT)$/.test(event.target.tagName)) { return; }
    var root = document.getElementById("game");
    if (!root || !mapBox(root)) { return; }
    if (event.key === "+" || event.key === "=") { setZoom(root, zoom * 1.5); } else if (event.key === "-") {
      setZoom(root, zoom / 1.5);
    } else if (event.key === "0") { setZoom(root, 1); } else { return; }
    event.preventDefault();
  }

  function init(root) {
    play = null;
    mark(root);
    var map = root.querySelector("#map");
    if (map) { map.addEventListener("click", function (e) { onMapClick(root, e); }); }
    root.querySelectorAll("a[data-lay-hex]").forEach(function (a) {
      a.addEventListener("click", function (event) {
        event.preventDefault();
        var hex = a.getAttribute("data-lay-hex");
        var g = root.querySelector('#map g.hex[data-hex="' + hex + '"]');
        if (g) { g.scrollIntoView({ block: "center", inline: "center" }); }
        startLay(root, hex);
      });
    });
    root.querySelectorAll("form[method=post]").forEach(function (f) {
      f.addEventListener("submit", function (event) { submitted(f, event); });
    });
    startEditor(root);
    startZoom(root);
    // a train of the offered run, pointed at in the list, stands out on the map
    root.querySelectorAll("#routes li[data-train-index]").forEach(function (li) {
      var on = function () { showTrain(root, li.getAttribute("data-train-index")); };
      var off = function () { showTrain(root, null); };
      li.addEventListener("mouseenter", on); li.addEventListener("focus", on);
      li.addEventListener("mouseleave", off); li.addEventListener("blur", off);
    });
  }

  function showTrain(root, index) {
    root.querySelectorAll("#map g.route").forEach(function (g) {
      g.classList.toggle("dim", index !== null && g.getAttribute("data-index") !== index);
    });
  }

  // A move is posted by the script and the page it leads to swapped in (no reload of the
  // document, its styles and script): the same forms work without JavaScript.
  var sending = false;  // a move of ours is on its way: a second click waits for its answer

  function submitted(form, event) {
    if (sending) { event.preventDefault(); return; }
    busy = true;
    if (!window.fetch || !window.URLSearchParams) { return; }  // the browser posts the form
    event.preventDefault();
    post(form, event.submitter);
  }

  function post(form, by) {
    if (sending) { return; }
    busy = true;
    sending = true;
    var body = new URLSearchParams(new FormData(form));
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
    play = null;  // a bar of the old position is gone with it
    old.replaceWith(fresh);
    init(fresh);
    var live = document.getElementById("live");
    if (live) { live.hidden = false; }
    return true;
  }

  var busy = false;      // a move of ours is on its way: the page after it comes anyway
  var fetching = false;  // one fetch at a time; a count that arrives meanwhile is looked at after
  var latest = null;     // the newest action count the feed announced
  var offers = null;     // the open offers (web.offers.stamp) it announced; null: the page's own

  // the page shown is behind what the feed announced
  function behind(root) {
    return (latest !== null && String(latest) !== root.dataset.count) ||
      (offers !== null && offers !== (root.dataset.offers || ""));
  }

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
        if (now && behind(now)) { refresh(); }
      });
  }

  // The feed tells of a new action count ("count") and, at the same count, of trade offers
  // made, declined or withdrawn ("offers").  It is opened with what the page shows; after a
  // lost connection it is opened again with what the page shows then (not the first page's).
  function listen() {
    var root = document.getElementById("game");
    if (!window.EventSource || !root || !root.dataset.events) { return; }
    var source = new EventSource(root.dataset.events + "&after=" + root.dataset.count +
      "&offers=" + encodeURIComponent(root.dataset.offers || ""));
    source.addEventListener("open", function () {
      var live = document.getElementById("live");
      if (live) { live.hidden = false; }
    });
    source.addEventListener("count", function (event) {
      var now = document.getElementById("game");
      latest = JSON.parse(event.data).action_count;
      offers = null;  // the page of the new count shows the offers open then
      if (now && behind(now)) { refresh(); }
    });
    source.addEventListener("offers", function (event) {
      var now = document.getElementById("game");
      var data = JSON.parse(event.data);
      latest = data.action_count;
      offers = data.offers;
      if (now && behind(now)) { refresh(); }
    });
    source.addEventListener("error", function () {
      if (source.readyState === EventSource.OPEN) { return; }
      source.close();
      setTimeout(listen, 3000);
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    var root = document.getElementById("game");
    if (!root) { return; }
    init(root);
    listen();
    document.addEventListener("keydown", onKey);
    document.addEventListener("keydown", onZoomKey);
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
