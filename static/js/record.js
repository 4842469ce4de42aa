// The record editor (/record/{id}/). The draft lives on the server (/api/v1/drafts/{id}/),
// whose engine judges every change: this script draws the state it answers (the table as the
// replay does, static/js/table.js; the legal next events as buttons) and sends the taps.
// The deal is picked locally and sent a seat at a time; an event is one request, its answer
// the new state with the next legal events. Everything from a record is written as text.
(function () {
  "use strict";

  var root = document.getElementById("recorder");
  var dataNode = document.getElementById("draft-data");
  var labelsNode = document.getElementById("record-labels");
  if (!root || !dataNode || !labelsNode || !window.FourcolorTable) return;

  var st = JSON.parse(dataNode.textContent);
  var L = JSON.parse(labelsNode.textContent);
  var R = L.record;
  var api = root.getAttribute("data-api");
  var names = {};
  st.seats.forEach(function (name, i) { names[i + 1] = name; });
  var T = window.FourcolorTable(root, L, names);
  var el = T.el;
  var fmt = T.fmt;
  var busy = false;
  var dealSeat = 1;
  var deal = {};
  var commentPly = null;

  function field(name) { return root.querySelector('[data-field="' + name + '"]'); }
  function panel(name) { return root.querySelector('[data-panel="' + name + '"]'); }

  function csrf() {
    var match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    return match ? decodeURIComponent(match[1]) : "";
  }

  function say(text, isError) {
    var node = field("message");
    node.textContent = text || "";
    node.hidden = !text;
    node.classList.toggle("notice--error", !!isError);
  }

  // One change: the answer is the new state (or the saved game); a refusal keeps the state
  // and shows the engine's message.
  function send(method, path, body, queued) {
    if (busy && !queued) return Promise.resolve(null);
    busy = true;
    root.setAttribute("aria-busy", "true");
    var options = { method: method, credentials: "same-origin",
                    headers: { Accept: "application/json", "X-CSRFToken": csrf() } };
    if (body !== undefined) {
      options.headers["Content-Type"] = "application/json";
      options.body = JSON.stringify(body);
    }
    return fetch(api + path, options).then(function (response) {
      return response.json().then(function (answer) {
        if (!response.ok) {
          var error = answer.error || {};
          say(error.message || String(response.status), true);
          return null;
        }
        say("");
        return answer;
      });
    }).catch(function () {
      say(R.offline, true);
      return null;
    }).then(function (answer) {
      busy = false;
      root.removeAttribute("aria-busy");
      return answer;
    });
  }

  function update(answer) {
    if (!answer) return;
    st = answer;
    draw();
  }

  // ---------------------------------------------------------------- the deal

  function size(seat) { return seat === st.dealer ? 21 : 20; }

  function free(token) {
    var used = 0;
    Object.keys(deal).forEach(function (seat) {
      deal[seat].forEach(function (t) { if (t === token) used += 1; });
    });
    return 4 - used;
  }

  function sortCards(tokens) {
    var order = Object.keys(L.cards);
    return tokens.slice().sort(function (a, b) { return order.indexOf(a) - order.indexOf(b); });
  }

  function cardFace(token) {
    var info = L.cards[token] || ["?", token];
    return el("span", { className: "card card--" + token.charAt(0) + " card--sm", title: info[1] }, [
      el("span", { className: "sr-only", text: info[1] }),
      el("span", { "aria-hidden": "true", text: info[0] }),
    ]);
  }

  function drawDeal() {
    root.querySelectorAll("[data-deal-seat]").forEach(function (button) {
      var seat = parseInt(button.getAttribute("data-deal-seat"), 10);
      button.setAttribute("aria-pressed", String(seat === dealSeat));
      button.querySelector('[data-field="deal-count"]').textContent =
        "(" + fmt(R.dealt, { count: (deal[seat] || []).length, size: size(seat) }) + ")";
    });
    var hand = field("deal-hand");
    hand.textContent = "";
    (deal[dealSeat] || []).forEach(function (token, index) {
      var button = el("button", { type: "button", className: "palette__card", "data-dealt": token }, [cardFace(token)]);
      button.addEventListener("click", function () {
        deal[dealSeat].splice(index, 1);
        drawDeal();
      });
      hand.appendChild(button);
    });
    var palette = field("palette");
    palette.textContent = "";
    var full = (deal[dealSeat] || []).length >= size(dealSeat);
    Object.keys(L.cards).forEach(function (token) {
      var left = free(token);
      var button = el("button", { type: "button", className: "palette__card", "data-card": token }, [
        cardFace(token), el("span", { className: "palette__free", text: fmt(R.free, { count: left }) }),
      ]);
      button.disabled = left <= 0 || full;
      button.addEventListener("click", function () { pick(token); });
      palette.appendChild(button);
    });
  }

  function pick(token) {
    var cards = deal[dealSeat] || (deal[dealSeat] = []);
    if (cards.length >= size(dealSeat) || free(token) <= 0) return;
    cards.push(token);
    deal[dealSeat] = sortCards(cards);
    if (cards.length === size(dealSeat)) {
      // A seat complete: kept on the server, and on to the next seat still short.
      saveDeal().then(function () {
        for (var seat = 1; seat <= st.seats.length; seat += 1) {
          if ((deal[seat] || []).length < size(seat)) { dealSeat = seat; break; }
        }
        drawDeal();
      });
    }
    drawDeal();
  }

  // Deal saves go one after the other (a seat may be complete while the last is on its way).
  var dealQueue = Promise.resolve();

  function saveDeal() {
    dealQueue = dealQueue.then(function () {
      var body = {};
      Object.keys(deal).forEach(function (seat) { body[seat] = deal[seat].slice(); });
      return send("PATCH", "", { deal: body }, true).then(update);
    });
    return dealQueue;
  }

  // ---------------------------------------------------------------- events

  var KIND_ORDER = ["draw", "discard", "claim", "win", "redeal", "call"];

  function drawLegal() {
    var box = field("legal");
    box.textContent = "";
    var bySeat = {};
    st.legal.forEach(function (e) { (bySeat[e.seat] = bySeat[e.seat] || []).push(e); });
    Object.keys(bySeat).forEach(function (seat) {
      var group = el("fieldset", { className: "legal__seat", "data-seat": seat }, [
        el("legend", { text: seat + ". " + (names[seat] || "") }),
      ]);
      KIND_ORDER.forEach(function (kind) {
        var events = bySeat[seat].filter(function (e) { return e.kind === kind; });
        if (!events.length) return;
        var row = el("div", { className: "legal__kind", "data-kind": kind }, [
          el("span", { className: "legal__label", text: R.kinds[kind] || kind }),
        ]);
        events.forEach(function (e) {
          var parts = e.cards.map(cardFace);
          if (e.kind === "claim" && e.right) parts.push(el("span", { className: "legal__right", text: R.rights[e.right] || e.right }));
          e.split.forEach(function (g) { parts.push(el("span", { className: "legal__group", text: "(" + g.join(" ") + ")" })); });
          if (!parts.length) parts.push(el("span", { text: e.event }));
          var button = el("button", { type: "button", className: "event-button", "data-event": e.event, "aria-label": e.event }, parts);
          button.addEventListener("click", function () { enter(e.event); });
          row.appendChild(button);
        });
        group.appendChild(row);
      });
      box.appendChild(group);
    });
    if (!st.legal.length) box.appendChild(el("p", { className: "muted", text: R.noLegal }));
    else if (st.stage === "ended") box.insertBefore(el("p", { className: "notice", text: R.exhausted }), box.firstChild);
  }

  function enter(text) {
    var comment = document.getElementById("next-comment");
    var body = { event: text, ply: st.position + 1 };
    if (comment.value.trim()) body.comment = comment.value;
    return send("POST", "events/", body).then(function (answer) {
      if (answer) comment.value = "";
      update(answer);
      return answer;
    });
  }

  function drawMoves() {
    var list = field("moves");
    list.textContent = "";
    if (!st.events.length) list.appendChild(el("li", { className: "muted", text: R.noEvents }));
    st.events.forEach(function (e) {
      var edit = el("button", { type: "button", className: "button button--small", "data-comment-ply": String(e.ply) }, [R.comment]);
      edit.addEventListener("click", function () { openComment(e.ply); });
      var item = el("li", { className: e.played ? "move" : "move is-undone", "data-ply": String(e.ply) }, [
        el("span", { className: "move__ply", text: e.ply + "." }), " ",
        el("span", { className: "move__event", text: e.event }),
        e.played ? null : el("span", { className: "muted", text: " (" + R.undone + ")" }),
        " ", edit,
      ]);
      e.comments.forEach(function (c) { item.appendChild(el("blockquote", { className: "comment", text: c })); });
      list.appendChild(item);
    });
  }

  function openComment(ply) {
    commentPly = ply;
    var form = root.querySelector('[data-form="comment"]');
    form.hidden = false;
    field("comment-label").textContent = fmt(R.event, { ply: ply });
    var input = document.getElementById("event-comment");
    input.value = (st.events[ply - 1].comments || []).join(" ");
    input.focus();
  }

  // ---------------------------------------------------------------- the table and the end

  // The API's table (a replay ply, fourcolor.replay.Replay.state) as table.js draws it.
  function plyOf(table) {
    if (!table) {
      return {
        live: null, turn: null, discards: [],
        pile: 112 - Object.keys(st.deal).reduce(function (n, s) { return n + st.deal[s].length; }, 0),
        seats: st.seats.map(function (_name, i) {
          var hand = st.deal[String(i + 1)] || [];
          return { seat: i + 1, hand: hand, count: hand.length, display: [], exposed: 0, claims: [] };
        }),
      };
    }
    return {
      live: table.live, turn: table.turn, pile: table.pile_left,
      discards: table.discards.map(function (d) { return d.card; }),
      seats: table.seats.map(function (s) {
        return {
          seat: s.seat, hand: s.hand, count: s.hand_count, exposed: s.exposed_points, claims: s.can_claim,
          display: s.display.map(function (m) { return [m.kind, m.cards, m.points]; }),
        };
      }),
    };
  }

  function drawEnd() {
    var finish = st.finish;
    var end = panel("end");
    end.hidden = !finish;
    if (!finish) return;
    var outcome = finish.outcome === "win" || finish.outcome === "forced"
      ? (names[finish.seat] || "") + " · " + finish.result + " · " + fmt(L.pointsShort, { points: finish.points })
      : finish.result;
    field("outcome").textContent = outcome;
    var rows = field("settlement");
    rows.textContent = "";
    st.seats.forEach(function (name, i) {
      var delta = (finish.settlement || {})[String(i + 1)] || 0;
      rows.appendChild(el("tr", { "data-seat": String(i + 1) }, [
        el("th", { scope: "row", text: name }),
        el("td", { className: "num", text: (delta > 0 ? "+" : "") + delta }),
      ]));
    });
    var lucky = field("lucky");
    lucky.hidden = st.stage !== "lucky";
    var palette = field("lucky-palette");
    palette.textContent = "";
    if (st.stage === "lucky") {
      Object.keys(L.cards).forEach(function (token) {
        var button = el("button", { type: "button", className: "palette__card", "data-lucky": token }, [cardFace(token)]);
        button.addEventListener("click", function () {
          send("PATCH", "", { tags: { Lucky: token } }).then(update);
        });
        palette.appendChild(button);
      });
    }
    root.querySelector('[data-action="save"]').hidden = st.stage !== "ended";
  }

  function draw() {
    root.setAttribute("data-stage", st.stage);
    root.setAttribute("data-position", String(st.position));
    field("stage").textContent = R.stages[st.stage] || st.stage;
    panel("deal").hidden = st.stage !== "deal";
    panel("play").hidden = st.stage === "deal" || st.stage === "saved";
    if (st.stage === "deal") {
      if (!Object.keys(deal).length) {
        Object.keys(st.deal).forEach(function (seat) { deal[seat] = st.deal[seat].slice(); });
      }
      drawDeal();
    }
    field("expected").textContent = st.expected || "";
    drawLegal();
    root.querySelector('[data-action="undo"]').disabled = st.position === 0;
    root.querySelector('[data-action="redo"]').disabled = st.position >= st.events_total;
    var ply = plyOf(st.table);
    T.drawCentre(ply);
    T.drawSeats(ply);
    drawMoves();
    drawEnd();
  }

  // ---------------------------------------------------------------- controls

  root.querySelectorAll("[data-deal-seat]").forEach(function (button) {
    button.addEventListener("click", function () {
      dealSeat = parseInt(button.getAttribute("data-deal-seat"), 10);
      drawDeal();
    });
  });
  root.querySelector('[data-action="deal"]').addEventListener("click", saveDeal);
  root.querySelector('[data-action="undo"]').addEventListener("click", function () {
    send("POST", "undo/").then(update);
  });
  root.querySelector('[data-action="redo"]').addEventListener("click", function () {
    send("POST", "redo/").then(update);
  });
  root.querySelector('[data-action="save"]').addEventListener("click", function () {
    say(R.saving);
    send("POST", "save/").then(function (answer) {
      if (!answer) return;
      if (answer.status === "duplicate") say(R.duplicate);
      if (answer.game_page) window.location.assign(answer.game_page);
      else update(answer.draft);
    });
  });
  root.querySelector('[data-form="typed"]').addEventListener("submit", function (event) {
    event.preventDefault();
    var input = document.getElementById("typed-event");
    // FCN as the schema takes it: one space between words.
    var text = input.value.trim().split(/\s+/).join(" ");
    if (!text) return;
    enter(text).then(function (answer) { if (answer) input.value = ""; });
  });
  root.querySelector('[data-form="comment"]').addEventListener("submit", function (event) {
    event.preventDefault();
    if (commentPly === null) return;
    var input = document.getElementById("event-comment");
    send("PUT", "events/" + commentPly + "/", { comment: input.value }).then(function (answer) {
      if (answer) event.target.hidden = true;
      update(answer);
    });
  });

  draw();
  root.setAttribute("data-script", "ready");
})();
