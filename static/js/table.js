// Drawing the table (live card, pile, discards, every seat's hand and display) into the
// markup of templates/records/_table.html, shared by the replay (replay.js) and the record
// editor (record.js). Everything from a record (names, comments) is written with
// textContent, never as HTML.
//
//   var T = window.FourcolorTable(root, labels, names);  T.drawCentre(state); T.drawSeats(state);
//
// `state` is a ply in the engine's JSON (fourcolor/replay_json.py: live {card, owner, source},
// pile_left, and each seat's hand_count, exposed_points, can_claim), its discards and each
// list of cards as one string ("rK yA") or a list, each displayed meld as [kind, cards,
// points] (web/views/replay_data.py writes the replay's so, a third of its page).
(function () {
  "use strict";

  window.FourcolorTable = function (root, L, names) {
    function fmt(template, values) {
      return template.replace(/%\((\w+)\)s/g, function (_m, key) {
        return key in values ? String(values[key]) : "";
      });
    }

    // L's plural pairs are [one, other]
    function plural(pair, count) {
      return pair[count === 1 ? 0 : 1];
    }

    function el(tag, attrs, children) {
      var node = document.createElement(tag);
      Object.keys(attrs || {}).forEach(function (key) {
        if (key === "text") node.textContent = attrs[key];
        else if (key === "className") node.className = attrs[key];
        else node.setAttribute(key, attrs[key]);
      });
      (children || []).forEach(function (child) {
        if (child === null || child === undefined) return;
        node.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
      });
      return node;
    }

    function fill(field, scope, nodes) {
      var target = (scope || root).querySelector('[data-field="' + field + '"]');
      if (!target) return null;
      target.textContent = "";
      nodes.forEach(function (node) {
        if (node !== null) target.appendChild(typeof node === "string" ? document.createTextNode(node) : node);
      });
      return target;
    }

    // The data writes each list of cards as one string, "rK yA gE" ("" for none).
    function split(cards) {
      if (Array.isArray(cards)) return cards;
      return cards ? cards.split(" ") : [];
    }

    function empty() {
      return el("p", { className: "empty", text: L.nothing });
    }

    function cardItem(token, small, live) {
      var info = L.cards[token] || ["?", token];
      var classes = "card card--" + token.charAt(0) + (small ? " card--sm" : "") + (live ? " card--live" : "");
      return el("li", { className: classes, "data-card": token, title: info[1] }, [
        el("span", { className: "sr-only", text: info[1] }),
        el("span", { "aria-hidden": "true", text: info[0] }),
      ]);
    }

    function cardList(tokens, small, inline) {
      if (!tokens || !tokens.length) return empty();
      return el("ul", { className: inline ? "cards cards--inline" : "cards" }, tokens.map(function (t) {
        return cardItem(t, small, false);
      }));
    }

    function hiddenHand(count) {
      return el("div", { className: "hand-hidden", "data-hidden": "true" }, [
        el("ul", { className: "cards", "aria-hidden": "true" }, [el("li", { className: "card card--back card--sm" })]),
        el("span", { text: fmt(plural(L.cardsHidden, count), { count: count }) }),
      ]);
    }

    function meld(kind, tokens, points) {
      return el("div", { className: "meld", "data-kind": kind }, [
        cardList(tokens, true),
        el("span", { className: "meld__name", text: L.melds[kind] || kind }),
        " ",
        el("span", { className: "meld__points", text: fmt(L.pointsShort, { points: points }) }),
      ]);
    }

    function drawCentre(st) {
      if (st.live) {
        var live = el("ul", { className: "cards cards--inline" }, [cardItem(st.live.card, false, true)]);
        var who = (L.sources[st.live.source] || st.live.source) + " " + (names[st.live.owner] || "");
        fill("live", null, [live, el("p", { text: who })]);
      } else {
        fill("live", null, [empty()]);
      }
      fill("pile", null, [String(st.pile_left)]);
      fill("pile-words", null, [plural(L.pileLeft, st.pile_left)]);
      fill("discards", null, [cardList(split(st.discards), true)]);
    }

    function drawSeats(st) {
      st.seats.forEach(function (s) {
        var box = root.querySelector('.seat[data-seat="' + s.seat + '"]');
        if (!box) return;
        box.classList.toggle("is-turn", s.seat === st.turn);
        var badge = box.querySelector('[data-field="turn-badge"]');
        if (badge) badge.hidden = s.seat !== st.turn;
        fill("count", box, ["(" + s.hand_count + ")"]);
        fill("hand", box, [s.hand === null ? hiddenHand(s.hand_count) : cardList(split(s.hand), false)]);
        fill("exposed", box, ["(" + fmt(L.pointsShort, { points: s.exposed_points }) + ")"]);
        fill("display", box, s.display.length ? s.display.map(function (m) { return meld(m[0], split(m[1]), m[2]); }) : [empty()]);
        var claims = (s.can_claim || []).map(function (c) { return L.claims[c] || c; }).join(", ");
        var claimsNode = fill("claims", box, [fmt(L.mayClaim, { claims: claims })]);
        if (claimsNode) claimsNode.hidden = !claims;
      });
    }

    return { fmt: fmt, el: el, fill: fill, split: split, empty: empty, cardItem: cardItem,
             cardList: cardList, hiddenHand: hiddenHand, meld: meld, drawCentre: drawCentre,
             drawSeats: drawSeats };
  };
})();
