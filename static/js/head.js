// Loaded in <head>, before the first paint: marks the page as scripted, so that the CSS hides
// the no-script fallbacks (.js-hide) without a flash. A file, not an inline script: the
// Content-Security-Policy allows only the site's own script files.
document.documentElement.classList.add("js");
