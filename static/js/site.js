// Progressive touches for every page; everything works without this script.
(function () {
  "use strict";
  // Selects marked data-autosubmit (the language picker) submit their form on change.
  document.querySelectorAll("select[data-autosubmit]").forEach(function (select) {
    select.addEventListener("change", function () {
      if (select.form) select.form.submit();
    });
  });
  // The site's menu button (shown on phones only) opens and closes the menu.
  var menuToggle = document.querySelector(".menu-toggle");
  var menu = document.getElementById("site-menu");
  if (menuToggle && menu) {
    menuToggle.addEventListener("click", function () {
      var open = menuToggle.getAttribute("aria-expanded") !== "true";
      menuToggle.setAttribute("aria-expanded", String(open));
      menu.classList.toggle("is-open", open);
    });
  }
  // Filter panels open on wide screens; on a phone they start closed unless a filter is set.
  if (window.matchMedia && window.matchMedia("(max-width: 60rem)").matches) {
    document.querySelectorAll("details[data-close-on-narrow]").forEach(function (details) {
      details.open = false;
    });
  }
  // A table wider than its box scrolls sideways (its shadows show that there is more): it
  // then takes the keyboard focus so that the arrow keys scroll it, and is named by its caption.
  function markScrollable() {
    document.querySelectorAll(".table-wrap").forEach(function (wrap) {
      var scrolls = wrap.scrollWidth > wrap.clientWidth + 1;
      wrap.classList.toggle("is-scrollable", scrolls);
      if (scrolls && !wrap.hasAttribute("tabindex")) {
        wrap.setAttribute("tabindex", "0");
        wrap.setAttribute("role", "region");
        var caption = wrap.querySelector("caption");
        if (caption && !wrap.hasAttribute("aria-labelledby") && !wrap.hasAttribute("aria-label")) {
          wrap.setAttribute("aria-label", caption.textContent.trim());
        }
      }
    });
  }
  markScrollable();
  window.addEventListener("resize", markScrollable);

  // Player-name inputs (data-suggest: the API's player list) offer names as one types: the
  // players whose names contain the text, most rounds first, in the input's <datalist>.
  document.querySelectorAll("input[data-suggest][list]").forEach(function (input) {
    var list = document.getElementById(input.getAttribute("list"));
    if (!list) {
      list = document.createElement("datalist");
      list.id = input.getAttribute("list");
      input.insertAdjacentElement("afterend", list);
    }
    var timer = null;
    var asked = "";
    function suggest() {
      var text = input.value.trim();
      if (!text || text === asked) return;
      asked = text;
      var url = new URL(input.getAttribute("data-suggest"), window.location.href);
      url.searchParams.set("search", text);
      url.searchParams.set("ordering", "-rounds");
      url.searchParams.set("page_size", "8");
      fetch(url.toString(), { headers: { Accept: "application/json" }, credentials: "same-origin" })
        .then(function (response) { return response.ok ? response.json() : { results: [] }; })
        .then(function (body) {
          if (input.value.trim() !== text) return; // typed on meanwhile
          list.textContent = "";
          (body.results || []).forEach(function (player) {
            var option = document.createElement("option");
            option.value = player.name;
            list.appendChild(option);
          });
        })
        .catch(function () { /* no suggestions; the filter still works */ });
    }
    input.addEventListener("input", function () {
      window.clearTimeout(timer);
      timer = window.setTimeout(suggest, 200);
    });
  });
})();
