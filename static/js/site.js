// Progressive touches for every page; everything works without this script.
(function () {
  "use strict";
  // Selects marked data-autosubmit (the language picker) submit their form on change.
  document.querySelectorAll("select[data-autosubmit]").forEach(function (select) {
    select.addEventListener("change", function () {
      if (select.form) select.form.submit();
    });
  });
  // Filter panels open on wide screens; on a phone they start closed unless a filter is set.
  if (window.matchMedia && window.matchMedia("(max-width: 60rem)").matches) {
    document.querySelectorAll("details[data-close-on-narrow]").forEach(function (details) {
      details.open = false;
    });
  }
})();
