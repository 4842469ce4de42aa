// Follows a running background job: polls the API (data-job-url) and updates the status,
// the counters and the progress bar in place; once the job is over, reloads the page, which
// the server then draws with every record's verdict. Without this script the page is still
// right, only not live (reload it by hand).
(function () {
  "use strict";

  var root = document.getElementById("job");
  if (!root || root.hasAttribute("data-finished")) return;
  var url = root.getAttribute("data-job-url");
  var bar = document.getElementById("job-progress");
  var delay = 1000;
  var MAX_DELAY = 10000;
  // The statuses' labels in the page's language (the API answers only the code).
  var labels = {};
  var labelData = document.getElementById("job-status-labels");
  if (labelData) {
    try {
      labels = JSON.parse(labelData.textContent) || {};
    } catch (e) {
      labels = {};
    }
  }

  function setText(selector, value) {
    var node = root.querySelector(selector);
    if (node) node.textContent = String(value);
  }

  function show(job) {
    root.setAttribute("data-status", job.status);
    var status = root.querySelector("[data-field=status]");
    if (status) {
      status.textContent = Object.prototype.hasOwnProperty.call(labels, job.status)
        ? labels[job.status] : job.status;
      status.className = "status status--" + job.status;
    }
    setText("[data-field=handled]", job.resume_at);
    setText("[data-field=total]", job.total === null ? "?" : job.total);
    if (job.percent !== null) {
      bar.value = job.percent;
      bar.textContent = job.percent + " %";
    }
    var counts = job.import_report ? {
      stored: job.stored, duplicate: job.duplicates, refused: job.refused,
      not_stored: job.not_stored
    } : (job.revalidate_report || job.analyses_report || {});
    Object.keys(counts).forEach(function (key) {
      setText("[data-count=" + key + "]", counts[key]);
    });
    var error = root.querySelector("[data-field=error]");
    if (error) {
      error.textContent = job.error;
      error.hidden = !job.error;
    }
  }

  function poll() {
    fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin" })
      .then(function (response) {
        if (!response.ok) throw new Error("HTTP " + response.status);
        return response.json();
      })
      .then(function (job) {
        show(job);
        if (job.finished) {
          window.location.reload();
          return;
        }
        delay = 1000;
        window.setTimeout(poll, delay);
      })
      .catch(function () {
        // Network trouble or a throttled answer: try again, less and less often.
        delay = Math.min(delay * 2, MAX_DELAY);
        window.setTimeout(poll, delay);
      });
  }

  window.setTimeout(poll, delay);
})();
