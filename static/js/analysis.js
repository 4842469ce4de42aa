// The replay page's analysis (templates/records/_analysis.html). The server draws everything
// for the ply in the address; this script keeps it in step as replay.js moves between plies
// (the "replay:ply" event): the decisions rated at the new ply, and the chart's cursor. While
// an analysis is queued or running it follows the job through the API and reloads the page
// once the result is stored.
(function () {
  "use strict";

  var root = document.getElementById("replay");
  var section = document.getElementById("analysis");
  if (!root || !section) return;

  function showPly(ply) {
    var any = false;
    section.querySelectorAll("[data-analysis-ply]").forEach(function (group) {
      var here = group.getAttribute("data-analysis-ply") === String(ply);
      group.hidden = !here;
      any = any || here;
    });
    var none = section.querySelector("[data-analysis-none]");
    if (none) none.hidden = any;
    var svg = section.querySelector("svg[data-plies]");
    var cursor = section.querySelector('[data-field="chart-cursor"]');
    if (svg && cursor) {
      var x0 = parseFloat(svg.getAttribute("data-x0"));
      var x1 = parseFloat(svg.getAttribute("data-x1"));
      var plies = Math.max(parseInt(svg.getAttribute("data-plies"), 10), 1);
      var x = (x0 + (x1 - x0) * ply / plies).toFixed(1);
      cursor.setAttribute("x1", x);
      cursor.setAttribute("x2", x);
    }
    section.querySelectorAll("[data-ply-input]").forEach(function (input) { input.value = String(ply); });
  }

  root.addEventListener("replay:ply", function (event) { showPly(event.detail.ply); });

  // ---------------------------------------------------------------- following a job

  var status = section.getAttribute("data-analysis-status");
  var url = section.getAttribute("data-analysis-url");
  if ((status !== "queued" && status !== "running") || !url || !window.fetch) return;
  var progress = section.querySelector('[data-field="analysis-progress"]');
  var count = section.querySelector('[data-field="analysis-count"]');
  var countTemplate = section.getAttribute("data-count-template") || "";
  var statusText = section.querySelector('[data-field="analysis-status"]');

  function follow() {
    window.fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin" })
      .then(function (response) {
        if (response.status === 200) {
          window.location.reload();
          return null;
        }
        if (response.status === 202) return response.json();
        // A busy or restarting server (503, 429, 5xx) is asked again, less often; a refusal
        // (the game deleted, the analysis no longer the reader's) ends the following.
        if (response.status === 429 || response.status >= 500) {
          window.setTimeout(follow, 5000);
        }
        return null;
      })
      .then(function (body) {
        if (!body || !body.job) return;
        // a queued job that a worker took says so: "running", not "queued" until the reload
        if (statusText && body.job.status === "running") {
          statusText.textContent = section.getAttribute("data-running-text");
        }
        if (progress && body.job.percent !== null) progress.value = body.job.percent;
        if (count && body.job.total) {
          count.textContent = countTemplate
            .replace("%(done)s", String(body.job.done))
            .replace("%(total)s", String(body.job.total));
        }
        window.setTimeout(follow, 2000);
      })
      .catch(function () { window.setTimeout(follow, 5000); });
  }

  window.setTimeout(follow, 2000);
})();
