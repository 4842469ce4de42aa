// Starts Redoc on the API's documentation page (api/templates/api/redoc.html). A file, not
// drf-spectacular's inline script: the Content-Security-Policy allows only the site's own
// script files. Redoc writes its styles into <style> elements, which the policy accepts only
// with this response's nonce, handed over as Redoc's `nonce` option.
(function () {
  "use strict";
  var nonce = document.currentScript && document.currentScript.nonce;
  var container = document.getElementById("redoc-container");
  Redoc.init(container.dataset.specUrl, nonce ? { nonce: nonce } : {}, container);
})();
