// The record editor (/record/{id}/). The draft lives on the server (/api/v1/drafts/{id}/),
// whose engine judges every change: this script draws the state it answers (the table as the
// replay does, static/js/table.js; the legal next events as buttons) and sends the taps.
// The deal is picked locally and sent a seat at a time. A tapped event is applied at once:
// the server's state comes with `next`, what may follow each legal event, so the page offers
// the next events without waiting; the events go to the server one after the other (with
// their `ply`, so that a retry never enters one twice), are kept in localStorage until it
// answers (a reload sends them on), are retried while the connection is lost, and are taken
// back with the server's message when it refuses one. Everything from a record is written as
// text.
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

  // Every request waits for the one before (`run`): the events entered, then an undo, ...
  var chain = Promise.resolve();
  var tasks = 0;
  var blocking = false;  // an undo, redo, save or comment on its way: no event is offered

  function run(task) {
    tasks += 1;
    root.setAttribute("aria-busy", "true");
    var done = chain.then(task);
    chain = done.catch(function () { return null; }).then(function () {
      tasks -= 1;
      if (!tasks) root.removeAttribute("aria-busy");
    });
    return done;
  }

  // {ok, status, answer}; a rejection when the request did not reach the server.
  function request(method, path, body) {
    var options = { method: method, credentials: "same-origin",
                    headers: { Accept: "application/json", "X-CSRFToken": csrf() } };
    if (body !== undefined) {
      options.headers["Content-Type"] = "application/json";
      options.body = JSON.stringify(body);
    }
    return fetch(api + path, options).then(function (response) {
      return response.json().catch(function () { return {}; }).then(function (answer) {
        return { ok: response.ok, status: response.status, answer: answer };
      });
    });
  }

  // One change other than an event: the answer is the new state (or the saved game); a
  // refusal keeps the state and shows the engine's message.
  function send(method, path, body) {
    return run(function () {
      blocking = true;
      draw();
      return request(method, path, body).then(function (r) {
        if (!r.ok) {
          say((r.answer.error || {}).message || String(r.status), true);
          return null;
        }
        say("");
        return r.answer;
      }, function () {
        say(R.offline, true);
        return null;
      }).then(function (answer) {
        blocking = false;
        if (!answer) draw();
        return answer;
      });
    });
  }

  function update(answer) {
    if (!answer) return;
    st = answer;
    draw();
  }

  // ---------------------------------------------------------------- events on their way

  var storeKey = "fourcolor:draft:" + st.id + ":pending";
  var pending = loadPending();  // [{event, ply, comment}]: shown, not yet answered

  function loadPending() {
    try {
      var saved = JSON.parse(window.localStorage.getItem(storeKey) || "[]");
      // What continues the server's record only: the rest was entered, or overtaken.
      var kept = saved.filter(function (p) { return p.ply > st.position; });
      return kept.length && kept[0].ply === st.position + 1 ? kept : [];
    } catch (e) {
      return [];
    }
  }

  function keepPending() {
    try {
      if (pending.length) window.localStorage.setItem(storeKey, JSON.stringify(pending));
      else window.localStorage.removeItem(storeKey);
    } catch (e) { /* no storage (private mode): the events wait as long as the page */ }
  }

  function position() { return st.position + pending.length; }

  // What follows the events shown: known for the server's state and one event past it.
  function ahead() {
    if (blocking) return null;
    if (!pending.length) return { legal: st.legal, expected: st.expected };
    if (pending.length === 1) return (st.next || {})[pending[0].event] || null;
    return null;
  }

  function pause(tries) {
    return new Promise(function (resolve) {
      function go() {
        clearTimeout(timer);
        window.removeEventListener("online", go);
        resolve();
      }
      var timer = setTimeout(go, Math.min(500 * Math.pow(2, tries), 8000));
      window.addEventListener("online", go);
    });
  }

  // Send the first event waiting: until the server answers (retried while it cannot be
  // reached), then the new state, or a refusal that takes back it and every later one.
  var signedOut = false;  // the server asks for a sign-in: the events wait in localStorage

  function flushOne() {
    if (!pending.length || signedOut) return Promise.resolve(null);
    var entry = pending[0];
    var body = { event: entry.event, ply: entry.ply };
    if (entry.comment) body.comment = entry.comment;
    function attempt(tries) {
      return request("POST", "events/", body).then(function (r) {
        if (r.ok) {
          pending.shift();
          keepPending();
          say("");
          update(r.answer);
          return r.answer;
        }
        if (r.status >= 500 || r.status === 429) return retry(tries);
        if (r.status === 401 || r.status === 403) {
          // Not the rules' verdict: a session that ended. Nothing is taken back.
          signedOut = true;
          say(fmt(R.signedOut, { count: pending.length }), true);
          return null;
        }
        return refuse((r.answer.error || {}).message || String(r.status));
      }, function () { return retry(tries); });
    }
    function retry(tries) {
      say(fmt(R.waiting, { count: pending.length }), true);
      return pause(tries).then(function () { return attempt(tries + 1); });
    }
    return attempt(0);
  }

  function refuse(message) {
    var dropped = pending.splice(0);
    keepPending();
    var comment = document.getElementById("next-comment");
    if (dropped[0].comment && !comment.value) comment.value = dropped[0].comment;
    say(dropped.length > 1 ? message + " " + fmt(R.takenBack, { count: dropped.length }) : message, true);
    // The server's own state: another device may have moved the draft on.
    return request("GET", "").then(function (r) {
      if (r.ok) st = r.answer;
    }, function () { return null; }).then(function () {
      draw();
      return null;
    });
  }

  // ---------------------------------------------------------------- the deal

  function size(seat) { return seat === st.dealer ? 21 : 20; }

  function free(token) {
    var used = 0;
    Object.keys(deal).forEach(function (seat) {
      deal[seat].forEach(function (t) { if (t === token) used += 1; });
    });
    // Four copies of each kind, one more set per player over four (N copies for N seats).
    return Math.max(4, st.seats.length) - used;
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

  function saveDeal() {
    var body = {};
    Object.keys(deal).forEach(function (seat) { body[seat] = deal[seat].slice(); });
    return send("PATCH", "", { deal: body }).then(update);
  }

  // ---------------------------------------------------------------- events

  var KIND_ORDER = ["draw", "discard", "claim", "win", "redeal", "call"];

  // A legal event's name for screen readers, in the page's language: "Discard red chariot",
  // not its notation "2x rR".
  function eventName(e) {
    var cardWords = function (tokens) {
      return tokens.map(function (t) { return (L.cards[t] || [t, t])[1]; }).join(L.words.separator);
    };
    var words = [R.kinds[e.kind] || e.kind];
    if (e.kind === "claim" && e.right) words.push(R.rights[e.right] || e.right);
    if (e.cards.length) words.push(cardWords(e.cards));
    e.split.forEach(function (g) { words.push("(" + cardWords(g) + ")"); });
    return words.join(" ");
  }

  function drawLegal() {
    var box = field("legal");
    box.textContent = "";
    var next = ahead();
    if (!next) {
      box.appendChild(el("p", { className: "muted", "data-field": "waiting", text: R.waitingServer }));
      return;
    }
    var bySeat = {};
    next.legal.forEach(function (e) { (bySeat[e.seat] = bySeat[e.seat] || []).push(e); });
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
          var button = el("button", { type: "button", className: "event-button", "data-event": e.event, "aria-label": eventName(e) }, parts);
          button.addEventListener("click", function () { enter(e.event); });
          row.appendChild(button);
        });
        group.appendChild(row);
      });
      box.appendChild(group);
    });
    if (!next.legal.length) {
      // An ended round says so in the status line ("The pile ran out: nobody won").
      if (pending.length || st.stage !== "ended") {
        box.appendChild(el("p", { className: "muted", text: pending.length ? R.waitingServer : R.noLegal }));
      }
    } else if (st.stage === "ended" && !pending.length) {
      box.insertBefore(el("p", { className: "notice", text: R.exhausted }), box.firstChild);
    }
  }

  // An event is shown at once, and sent after those before it. The answer: the server's
  // state once it has the event, or null when it refused it.
  function enter(text) {
    var comment = document.getElementById("next-comment");
    var entry = { event: text, ply: position() + 1 };
    if (comment.value.trim()) entry.comment = comment.value;
    pending.push(entry);
    keepPending();
    comment.value = "";
    draw();
    return run(flushOne);
  }

  function drawMoves() {
    var list = field("moves");
    list.textContent = "";
    // A new event drops the undone ones: not shown once one is on its way.
    var events = pending.length ? st.events.slice(0, st.position) : st.events;
    if (!events.length && !pending.length) list.appendChild(el("li", { className: "muted", text: R.noEvents }));
    events.forEach(function (e) {
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
    pending.forEach(function (p) {
      var item = el("li", { className: "move is-pending", "data-ply": String(p.ply), "data-pending": "true" }, [
        el("span", { className: "move__ply", text: p.ply + "." }), " ",
        el("span", { className: "move__event", text: p.event }),
        el("span", { className: "muted", text: " (" + R.sending + ")" }),
      ]);
      if (p.comment) item.appendChild(el("blockquote", { className: "comment", text: p.comment }));
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
    if (table) {
      return Object.assign({}, table, {
        discards: table.discards.map(function (d) { return d.card; }),
        seats: table.seats.map(function (s) {
          return Object.assign({}, s, { display: s.display.map(function (m) { return [m.kind, m.cards, m.points]; }) });
        }),
      });
    }
    return {
      live: null, turn: null, discards: [],
      pile_left: 112 - Object.keys(st.deal).reduce(function (n, s) { return n + st.deal[s].length; }, 0),
      seats: st.seats.map(function (_name, i) {
        var hand = st.deal[String(i + 1)] || [];
        return { seat: i + 1, hand: hand, hand_count: hand.length, display: [], exposed_points: 0, can_claim: [] };
      }),
    };
  }

  function drawEnd() {
    var finish = st.finish;
    var end = panel("end");
    end.hidden = !finish || pending.length > 0;
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
    root.setAttribute("data-position", String(position()));
    root.setAttribute("data-confirmed", String(st.position));
    root.setAttribute("data-pending", String(pending.length));
    root.classList.toggle("recorder--pending", pending.length > 0);
    field("stage").textContent = R.stages[st.stage] || st.stage;
    panel("deal").hidden = st.stage !== "deal";
    panel("play").hidden = st.stage === "deal" || st.stage === "saved";
    if (st.stage === "deal") {
      if (!Object.keys(deal).length) {
        Object.keys(st.deal).forEach(function (seat) { deal[seat] = st.deal[seat].slice(); });
      }
      drawDeal();
    }
    var next = ahead();
    field("expected").textContent = next ? next.expected || "" : "";
    drawLegal();
    root.querySelector('[data-action="undo"]').disabled = position() === 0 || blocking;
    root.querySelector('[data-action="redo"]').disabled =
      pending.length > 0 || blocking || st.position >= st.events_total;
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
  // Events a reload interrupted go on their way.
  pending.forEach(function () { run(flushOne); });
  root.setAttribute("data-script", "ready");
})();
