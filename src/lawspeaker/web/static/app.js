// Live updates: when the phase is processed, say so (never reload under a player's typing).
document.addEventListener("DOMContentLoaded", function () {
  var live = document.getElementById("live");
  if (!live || !window.EventSource) return;
  var source = new EventSource(live.dataset.events);
  source.addEventListener("phase", function () { live.hidden = false; });
});
