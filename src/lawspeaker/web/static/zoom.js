// Zoom and pan for every map on a page: each <figure class="map"> with an <img>
// (the SVG drawing) gets a viewport that scrolls, and buttons: zoom in, zoom out,
// fit, 1:1. Mouse wheel zooms around the pointer, dragging pans, two fingers pinch;
// in the focused viewport the arrow keys pan and + - 0 1 zoom, fit and go 1:1.
// The first view shows the drawing at its own pixel size (labels legible), centred
// on the figure's data-focus ("x y" in the drawing's pixels: the player's own
// units) or on the middle of the board.
// No inline script or style anywhere (the Content-Security-Policy allows none):
// sizes are set through the CSSOM, which the policy does not restrict.
(function () {
  "use strict";
  var STEP = 1.25, MAX = 4, LEGIBLE = 0.8;

  function button(bar, act, text, label) {
    var b = document.createElement("button");
    b.type = "button";
    b.dataset.zoom = act;
    b.textContent = text;
    b.setAttribute("aria-label", label);
    b.title = label;
    bar.appendChild(b);
    return b;
  }

  function setup(figure) {
    var img = figure.querySelector("img");
    if (!img || figure.classList.contains("zoomable")) { return; }
    var link = img.parentElement.tagName === "A" ? img.parentElement : null;
    var view = document.createElement("div");
    view.className = "mapview";
    view.tabIndex = 0;
    view.setAttribute("role", "region");
    view.setAttribute("aria-label", (img.alt || "map") +
      ": drag or use the arrow keys to move; + and - zoom, 0 fits, 1 is full size");
    (link || img).replaceWith(view);
    view.appendChild(img);
    img.draggable = false;

    var bar = document.createElement("div");
    bar.className = "zoombar";
    bar.setAttribute("role", "toolbar");
    bar.setAttribute("aria-label", "map zoom");
    button(bar, "in", "+", "Zoom in");
    button(bar, "out", "\u2212", "Zoom out");
    button(bar, "fit", "Fit", "Fit the whole map");
    button(bar, "one", "1:1", "Full size (the drawing's own pixels)");
    var level = document.createElement("output");
    level.className = "zoomlevel";
    level.setAttribute("aria-live", "polite");
    bar.appendChild(level);
    var src = link ? link.href : img.src;
    if (src.indexOf("data:") !== 0) {  // a picture made for this answer alone has no address
      var open = document.createElement("a");
      open.href = src;
      open.target = "_blank";
      open.rel = "noopener";
      open.textContent = "open alone";
      bar.appendChild(open);
    }
    view.before(bar);
    figure.classList.add("zoomable");

    var scale = 0;  // 0: not laid out yet

    function natural() { return { w: img.naturalWidth || 1, h: img.naturalHeight || 1 }; }
    function fit() {
      var n = natural();
      return Math.min(view.clientWidth / n.w, view.clientHeight / n.h);
    }
    function lowest() { return Math.min(fit(), 1); }

    // Scale to s, keeping the drawing's point under (px, py) of the viewport in place.
    function zoom(s, px, py) {
      var n = natural(), old = scale || s;
      s = Math.max(lowest(), Math.min(MAX, s));
      if (px === undefined) { px = view.clientWidth / 2; py = view.clientHeight / 2; }
      var cx = (view.scrollLeft + px) / old, cy = (view.scrollTop + py) / old;
      scale = s;
      img.style.width = Math.round(n.w * s) + "px";
      img.style.height = Math.round(n.h * s) + "px";
      view.scrollLeft = cx * s - px;
      view.scrollTop = cy * s - py;
      figure.dataset.scale = s.toFixed(3);
      level.value = Math.round(s * 100) + "%";
    }
    function centre(x, y) {
      view.scrollLeft = x * scale - view.clientWidth / 2;
      view.scrollTop = y * scale - view.clientHeight / 2;
    }
    function first() {
      var f = fit();
      scale = f >= LEGIBLE ? Math.min(f, 1.5) : 1;
      zoom(scale);
      var n = natural(), focus = (figure.dataset.focus || "").split(" ").map(Number);
      var ok = focus.length === 2 && focus.every(isFinite);
      centre(ok ? focus[0] : n.w / 2, ok ? focus[1] : n.h / 2);
    }
    function act(what) {
      if (what === "in") { zoom(scale * STEP); }
      else if (what === "out") { zoom(scale / STEP); }
      else if (what === "fit") { zoom(fit()); }
      else if (what === "one") { zoom(1); }
    }

    bar.addEventListener("click", function (e) {
      var b = e.target.closest("button[data-zoom]");
      if (b && scale) { act(b.dataset.zoom); }
    });
    view.addEventListener("keydown", function (e) {
      if (!scale || e.ctrlKey || e.metaKey || e.altKey) { return; }
      var key = { "+": "in", "=": "in", "-": "out", "_": "out", "0": "fit", "1": "one" }[e.key];
      if (key) { e.preventDefault(); act(key); }
    });
    view.addEventListener("wheel", function (e) {
      if (!scale) { return; }
      e.preventDefault();
      var r = view.getBoundingClientRect();
      // One notch of a wheel (about 100 px) is one step; a touchpad's small deltas, less.
      var notches = e.deltaY * (e.deltaMode === 1 ? 33 : e.deltaMode === 2 ? 800 : 1) / 100;
      notches = Math.max(-1, Math.min(1, notches));
      zoom(scale * Math.pow(STEP, -notches), e.clientX - r.left, e.clientY - r.top);
    }, { passive: false });

    // Drag with the mouse or a pen; one finger scrolls natively (touch-action: pan-x pan-y).
    var drag = null;
    view.addEventListener("pointerdown", function (e) {
      if (e.pointerType === "touch" || e.button !== 0) { return; }
      drag = { x: e.clientX, y: e.clientY, left: view.scrollLeft, top: view.scrollTop };
      view.setPointerCapture(e.pointerId);
      view.classList.add("dragging");
    });
    view.addEventListener("pointermove", function (e) {
      if (!drag) { return; }
      view.scrollLeft = drag.left - (e.clientX - drag.x);
      view.scrollTop = drag.top - (e.clientY - drag.y);
    });
    function end() { drag = null; view.classList.remove("dragging"); }
    view.addEventListener("pointerup", end);
    view.addEventListener("pointercancel", end);

    // Two fingers pinch: zoom around their midpoint.
    var pinch = null;
    function spread(t) {
      var r = view.getBoundingClientRect();
      return { d: Math.hypot(t[0].clientX - t[1].clientX, t[0].clientY - t[1].clientY),
               x: (t[0].clientX + t[1].clientX) / 2 - r.left,
               y: (t[0].clientY + t[1].clientY) / 2 - r.top };
    }
    view.addEventListener("touchstart", function (e) {
      if (e.touches.length === 2 && scale) { pinch = { s: scale, at: spread(e.touches) }; }
    }, { passive: true });
    view.addEventListener("touchmove", function (e) {
      if (!pinch || e.touches.length !== 2) { return; }
      e.preventDefault();
      var now = spread(e.touches);
      zoom(pinch.s * now.d / (pinch.at.d || 1), now.x, now.y);
    }, { passive: false });
    view.addEventListener("touchend", function (e) {
      if (e.touches.length < 2) { pinch = null; }
    });

    if (img.complete && img.naturalWidth) { first(); }
    else { img.addEventListener("load", first, { once: true }); }
  }

  function all() { document.querySelectorAll("figure.map").forEach(setup); }
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", all); }
  else { all(); }
  document.addEventListener("htmx:load", all);  // a map swapped in later gets it too
})();
