// Instant stepping through a replay. The server draws any ply on its own (?ply=N&seat=S), so
// every control here is a link or a form that works without this script; with it, the page
// redraws the table from the embedded data (json_script "replay-data", built from the engine's
// Replay.state for every ply of the chosen view) and keeps the address in step.
//
// Everything from a record (names, comments) is written with textContent, never as HTML.
(function () {
  "use strict";

  var root = document.getElementById("replay");
  var dataNode = document.getElementById("replay-data");
  var labelsNode = document.getElementById("replay-labels");
  if (!root || !dataNode || !labelsNode) return;

  var data = JSON.parse(dataNode.textContent);
  var L = JSON.parse(labelsNode.textContent);
  var plies = data.plies;
  var current = parseInt(root.getAttribute("data-ply"), 10) || 0;
  var names = {};
  data.seats.forEach(function (s) { names[s.seat] = s.name; });

  // ---------------------------------------------------------------- building blocks

  var T = window.FourcolorTable(root, L, names);
  var fmt = T.fmt, el = T.el, fill = T.fill, split = T.split, empty = T.empty;
  var cardItem = T.cardItem, cardList = T.cardList, drawCentre = T.drawCentre;
  var drawSeats = T.drawSeats;

  // A translated template ("%(name)s pongs %(owner)s’s discard") as nodes: each slot a
  // span holding the name as text, never as markup.
  function sentence(template, slots) {
    return template.split(/(%\(\w+\)s)/).map(function (part) {
      var slot = /^%\((\w+)\)s$/.exec(part);
      if (!slot) return part;
      return slots[slot[1]] || "";
    });
  }

  // The same words as the server's event_line (records.wording): claims say pong, gan, chi
  // or win, whose card and which seats they skipped.
  function eventLine(event, small) {
    if (!event) return el("div", { className: "event", text: L.deal });
    var W = L.words;
    var claim = event.claim;
    var template = (claim && W.claims[claim.kind + ":" + claim.taken]) || W.verbs[event.verb] || "%(name)s";
    var says = el("span", { className: "event__says" }, sentence(template, {
      name: el("span", { className: "event__who", text: names[event.seat] || "" }),
      owner: el("span", { className: "event__owner", text: claim ? names[claim.owner] || "" : "" }),
    }));
    var parts = [says, " "];
    if (event.cards.length) parts.push(cardList(event.cards, small));
    event.groups.forEach(function (group) { parts.push(cardList(group, small)); });
    if (claim && claim.skipped.length) {
      var who = claim.skipped.map(function (s) { return names[s] || ""; }).join(W.separator);
      parts.push(" ");
      parts.push(el("span", { className: "event__skipped", text: "(" + fmt(W.skipped, { names: who }) + ")" }));
    }
    var attrs = { className: "event", "data-event": event.text };
    if (claim) attrs["data-claim"] = claim.kind;
    return el("div", attrs, parts);
  }

  // ---------------------------------------------------------------- drawing one ply

  function drawInfo(st) {
    fill("ply-of", null, [fmt(L.plyOf, { ply: st.ply, plies: plies })]);
    fill("event", null, [eventLine(st.event, false)]);
    var turn = st.turn ? fmt(L.turnOf, { name: names[st.turn] }) + " · " : null;
    fill("turn", null, [turn, el("span", { className: "muted", text: L.phases[st.phase] || st.phase })]);
  }

  function drawReview(st) {
    fill("comments", null, st.comments.length
      ? st.comments.map(function (c) { return el("blockquote", { className: "comment", text: c }); })
      : [el("p", { className: "muted", text: L.noComment })]);
    fill("missed", null, st.missed.map(function (m) {
      var text = fmt(L.missedWin, { name: names[m.seat], card: (L.cards[m.card] || ["", m.card])[1], points: m.points });
      return el("p", { className: "warning", role: "note", text: text });
    }));
    var rows = [];
    data.seats.forEach(function (s) {
      if (data.view !== null && data.view !== s.seat) return;
      var waits = st.waits[String(s.seat)] || [];
      rows.push(el("dt", { text: s.name }));
      rows.push(el("dd", {}, [waits.length
        ? el("ul", { className: "wait-list" }, waits.map(function (w) {
          return el("li", {}, [
            el("ul", { className: "cards cards--inline" }, [cardItem(w.card, true, false)]),
            " ",
            el("span", { text: fmt(L.pointsShort, { points: w.points }) }),
            " ",
            el("span", { className: "muted", text: fmt(L.unseen, { count: w.unseen }) }),
          ]);
        }))
        : el("span", { className: "muted", text: L.noWaits })]));
    });
    fill("waits", null, rows);
  }

  function address(ply) {
    var url = new URL(window.location.href);
    url.searchParams.set("ply", String(ply));
    return url.pathname + url.search + url.hash;
  }

  function drawControls(ply) {
    var slider = document.getElementById("ply-slider");
    if (slider && String(slider.value) !== String(ply)) slider.value = String(ply);
    root.querySelectorAll("[data-ply-input]").forEach(function (input) { input.value = String(ply); });
    var targets = { first: 0, prev: Math.max(ply - 1, 0), next: Math.min(ply + 1, plies), last: plies };
    root.querySelectorAll("[data-step]").forEach(function (link) {
      var target = targets[link.getAttribute("data-step")];
      link.setAttribute("href", address(target));
      link.setAttribute("aria-disabled", String(target === ply));
    });
    var list = root.querySelector(".move-list");
    if (!list) return;
    list.querySelectorAll('a[aria-current="step"]').forEach(function (a) { a.removeAttribute("aria-current"); });
    var active = list.querySelector('a[data-ply="' + ply + '"]');
    if (!active) return;
    active.setAttribute("aria-current", "step");
    // One Tab stop for the whole list (the current move); the arrow keys move inside it.
    var focusInside = list.contains(document.activeElement);
    list.querySelectorAll("a[data-ply]").forEach(function (a) { a.tabIndex = a === active ? 0 : -1; });
    if (focusInside) active.focus({ preventScroll: true });
    // Scroll the move list only (not the page) so the current move is in view.
    var top = active.offsetTop;
    var bottom = top + active.offsetHeight;
    if (top < list.scrollTop) list.scrollTop = top;
    else if (bottom > list.scrollTop + list.clientHeight) list.scrollTop = bottom - list.clientHeight;
  }

  function draw(ply) {
    var st = data.states[ply];
    drawInfo(st);
    drawCentre(st);
    drawSeats(st);
    drawReview(st);
    var end = document.getElementById("end");
    if (end) end.hidden = ply !== plies;
    var outcome = root.querySelector('[data-field="outcome"]');
    if (outcome) outcome.hidden = ply !== plies;
    drawControls(ply);
    root.setAttribute("data-ply", String(ply));
    // Other parts of the page (the analysis, static/js/analysis.js) follow the ply too.
    root.dispatchEvent(new CustomEvent("replay:ply", { detail: { ply: ply } }));
  }

  function go(ply) {
    ply = Math.max(0, Math.min(plies, ply));
    if (ply === current) return;
    current = ply;
    draw(ply);
    if (window.history && window.history.replaceState) {
      window.history.replaceState({ ply: ply }, "", address(ply));
    }
  }

  // ---------------------------------------------------------------- controls

  root.addEventListener("click", function (event) {
    if (event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return;
    var link = event.target.closest("a[data-ply], a[data-step]");
    if (!link || !root.contains(link)) return;
    event.preventDefault();
    var step = link.getAttribute("data-step");
    if (step === "first") go(0);
    else if (step === "prev") go(current - 1);
    else if (step === "next") go(current + 1);
    else if (step === "last") go(plies);
    else go(parseInt(link.getAttribute("data-ply"), 10));
  });

  var slider = document.getElementById("ply-slider");
  if (slider) {
    slider.addEventListener("input", function () { go(parseInt(slider.value, 10)); });
    if (slider.form) {
      slider.form.addEventListener("submit", function (event) {
        event.preventDefault();
        go(parseInt(slider.value, 10));
      });
    }
  }

  var seatSelect = document.getElementById("seat-select");
  // The View menu applies with its Show button only: choosing with the arrow keys must not
  // leave the page at each step. The view opens at the ply shown now.
  if (seatSelect && seatSelect.form) {
    seatSelect.form.addEventListener("submit", function () {
      root.querySelectorAll("[data-ply-input]").forEach(function (input) { input.value = String(current); });
    });
  }

  var KEYS = { ArrowLeft: -1, k: -1, ArrowRight: 1, j: 1 };
  var moveList = root.querySelector(".move-list");
  if (moveList) {
    moveList.addEventListener("keydown", function (event) {
      var step = { ArrowUp: -1, ArrowDown: 1 }[event.key];
      if (!step || event.altKey || event.ctrlKey || event.metaKey) return;
      go(current + step);
      event.preventDefault();
    });
  }
  document.addEventListener("keydown", function (event) {
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
    var target = event.target;
    if (target && (target.isContentEditable || /^(INPUT|SELECT|TEXTAREA)$/.test(target.tagName))) return;
    if (event.key in KEYS) go(current + KEYS[event.key]);
    else if (event.key === "Home") go(0);
    else if (event.key === "End") go(plies);
    else return;
    event.preventDefault();
  });

  drawControls(current);
  // Stepping works from here on: tests (and anyone scripting the page) wait for this mark
  // rather than for the load event alone.
  root.setAttribute("data-script", "ready");
})();
