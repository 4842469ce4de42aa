// Tabs for the replay on a phone: the table, the move list and the review one tap away in the
// sticky controls. Without this script (or on a wide screen, where the CSS ignores the tabs)
// everything is shown one after another.
(function () {
  "use strict";

  var root = document.getElementById("replay");
  var bar = root && root.querySelector(".replay-tabs");
  if (!bar) return;
  var tabs = Array.prototype.slice.call(bar.querySelectorAll('[role="tab"]'));

  function select(name, focus) {
    root.setAttribute("data-tab", name);
    tabs.forEach(function (tab) {
      var on = tab.getAttribute("data-tab") === name;
      tab.setAttribute("aria-selected", String(on));
      tab.tabIndex = on ? 0 : -1;
      if (on && focus) tab.focus();
    });
    if (name === "moves") {
      var current = root.querySelector('.move-list a[aria-current="step"]');
      if (current && current.scrollIntoView) current.scrollIntoView({ block: "nearest" });
    }
  }

  tabs.forEach(function (tab, index) {
    tab.addEventListener("click", function () { select(tab.getAttribute("data-tab"), false); });
    tab.addEventListener("keydown", function (event) {
      var step = { ArrowLeft: -1, ArrowRight: 1 }[event.key];
      if (!step) return;
      event.preventDefault();
      event.stopPropagation(); // not a step through the game
      var next = tabs[(index + step + tabs.length) % tabs.length];
      select(next.getAttribute("data-tab"), true);
    });
  });

  // Tabs only where the panels are one below the other (the CSS shows the bar there too); the
  // panels are then named by their tab for assistive technology.
  var narrow = window.matchMedia ? window.matchMedia("(max-width: 60rem)") : null;

  function apply() {
    var on = !!(narrow && narrow.matches);
    root.classList.toggle("has-tabs", on);
    tabs.forEach(function (tab) {
      var panel = document.getElementById(tab.getAttribute("aria-controls"));
      if (!panel) return;
      if (on) {
        if (!panel.hasAttribute("data-labelledby")) {
          panel.setAttribute("data-labelledby", panel.getAttribute("aria-labelledby") || "");
        }
        panel.setAttribute("role", "tabpanel");
        panel.setAttribute("aria-labelledby", tab.id);
      } else if (panel.hasAttribute("data-labelledby")) {
        panel.removeAttribute("role");
        panel.setAttribute("aria-labelledby", panel.getAttribute("data-labelledby"));
        panel.removeAttribute("data-labelledby");
      }
    });
    if (on) select(root.getAttribute("data-tab") || "table", false);
  }

  if (narrow && narrow.addEventListener) narrow.addEventListener("change", apply);
  apply();
})();
