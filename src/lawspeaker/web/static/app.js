// The pages' only script (the Content-Security-Policy allows no inline script).
document.addEventListener("DOMContentLoaded", function () {
  // Live updates: when the phase is processed, say so (never reload under a player's typing).
  var live = document.getElementById("live");
  if (live && window.EventSource) {
    var source = new EventSource(live.dataset.events);
    source.addEventListener("phase", function () { live.hidden = false; });
  }
  // A secret link shown to the GM: one click selects it for copying.
  document.querySelectorAll("input.link[readonly]").forEach(function (input) {
    input.addEventListener("click", function () { input.select(); });
  });
  // "Go back" on an error page: the previous page when there is one, else all games.
  document.querySelectorAll("a.back").forEach(function (a) {
    a.addEventListener("click", function (event) {
      if (window.history.length > 1) { event.preventDefault(); window.history.back(); }
    });
  });
});
