// lawspeaker map calibrate: click where each province's unit stands.
// Every spot is saved by the server at once; skipped places come back at the end.
"use strict";
(function () {
  const svg = document.getElementById("map");
  const marks = document.getElementById("marks");
  const guessLayer = document.getElementById("guess");
  const NS = "http://www.w3.org/2000/svg";
  const W = Number(svg.dataset.width), H = Number(svg.dataset.height);
  let view = { x: 0, y: 0, w: W, h: H };
  let state = null;
  let current = null;          // the key asked for
  const skipped = new Set();   // skipped this session: asked again once the rest are done
  const history = [];          // keys skipped, so Undo can step back over a skip too

  function $(id) { return document.getElementById(id); }

  function say(text, error) {
    const s = $("status");
    s.textContent = text;
    s.classList.toggle("error", Boolean(error));
  }

  async function call(path, body) {
    const init = body === undefined ? { method: "POST" }
      : { method: "POST", headers: { "Content-Type": "application/json" },
          body: JSON.stringify(body) };
    const response = await fetch(path, init);
    const data = await response.json();
    if (!response.ok) { throw new Error(data.error || response.statusText); }
    return data;
  }

  function nameOf(key) {
    const item = state.items.find((i) => i.key === key);
    return item ? item.name : key;  // a coast's name says which coast
  }

  function next(after) {
    const keys = state.items.map((i) => i.key);
    const open = (k) => !(k in state.placed);
    const start = after === null ? -1 : keys.indexOf(after);
    for (let n = 1; n <= keys.length; n++) {
      const k = keys[(start + n) % keys.length];
      if (open(k) && !skipped.has(k)) { return k; }
    }
    skipped.clear();  // only skipped ones are left: ask for them again
    return keys.find(open) || null;
  }

  function unit() {  // image pixels per screen pixel, so marks keep their size
    const box = svg.getBoundingClientRect();
    return Math.max(view.w / Math.max(box.width, 1), view.h / Math.max(box.height, 1));
  }

  function circle(parent, x, y, r, cls) {
    const c = document.createElementNS(NS, "circle");
    c.setAttribute("cx", x); c.setAttribute("cy", y); c.setAttribute("r", r);
    if (cls) { c.setAttribute("class", cls); }
    parent.appendChild(c);
    return c;
  }

  function draw() {
    const u = unit();
    marks.replaceChildren();
    guessLayer.replaceChildren();
    for (const [key, [x, y]] of Object.entries(state.placed)) {
      const g = document.createElementNS(NS, "g");
      g.setAttribute("class", key.includes("/") ? "mark coast" : "mark");
      g.dataset.key = key;
      const c = circle(g, x, y, 5 * u);
      c.setAttribute("stroke-width", 1.5 * u);
      const t = document.createElementNS(NS, "text");
      t.setAttribute("x", x + 7 * u); t.setAttribute("y", y + 4 * u);
      t.setAttribute("font-size", 12 * u); t.setAttribute("stroke-width", 3 * u);
      t.textContent = key;
      g.appendChild(t);
      marks.appendChild(g);
    }
    const guess = current && state.guesses[current];
    if (guess) {
      const g = document.createElementNS(NS, "g");
      g.setAttribute("class", "guess");
      const c = circle(g, guess[0], guess[1], 14 * u);
      c.setAttribute("stroke-width", 2.5 * u);
      guessLayer.appendChild(g);
    }
    $("accept").disabled = !guess;
    $("current").textContent = current ? nameOf(current) : "nothing: every place is set";
    $("current").dataset.key = current || "";
    $("progress").textContent = state.done + " / " + state.total + " set";
    const jump = $("jump");
    if (jump.options.length !== state.items.length) {
      jump.replaceChildren();
      for (const item of state.items) {
        const o = document.createElement("option");
        o.value = item.key;
        o.textContent = item.name;
        jump.appendChild(o);
      }
    }
    for (const o of jump.options) {
      o.textContent = o.textContent.replace(/^✓ /, "");
      if (o.value in state.placed) { o.textContent = "✓ " + o.textContent; }
    }
    if (current) { jump.value = current; }
  }

  function setView(v) {
    const w = Math.min(Math.max(v.w, W / 40), W * 1.5);
    const h = w * (v.h / v.w);
    view = { x: v.x, y: v.y, w: w, h: h };
    svg.setAttribute("viewBox", [view.x, view.y, view.w, view.h].join(" "));
    if (state) { draw(); }
  }

  function zoom(factor, cx, cy) {
    const x = cx === undefined ? view.x + view.w / 2 : cx;
    const y = cy === undefined ? view.y + view.h / 2 : cy;
    setView({ x: x - (x - view.x) / factor, y: y - (y - view.y) / factor,
              w: view.w / factor, h: view.h / factor });
  }

  function imagePoint(event) {
    const p = svg.createSVGPoint();
    p.x = event.clientX; p.y = event.clientY;
    return p.matrixTransform(svg.getScreenCTM().inverse());
  }

  async function place(key, x, y) {
    try {
      state = await call("place", { key: key, x: x, y: y });
      history.push({ placed: key });
      say("Saved " + nameOf(key) + " at " + Math.round(x) + ", " + Math.round(y));
      current = next(key);
      draw();
    } catch (err) { say(err.message, true); }
  }

  function skip() {
    if (!current) { return; }
    skipped.add(current);
    history.push({ skipped: current });
    say("Skipped " + nameOf(current) + "; it comes back at the end");
    current = next(current);
    draw();
  }

  async function undo() {
    const last = history.pop();
    if (last && last.skipped) {
      skipped.delete(last.skipped);
      current = last.skipped;
      say("Back to " + nameOf(current));
      draw();
      return;
    }
    try {
      state = await call("undo");
      if (state.undone) {
        current = state.undone;
        say("Took back " + nameOf(current));
      } else { say("Nothing to undo"); }
      draw();
    } catch (err) { say(err.message, true); }
  }

  let drag = null;
  svg.addEventListener("pointerdown", (e) => {
    drag = { sx: e.clientX, sy: e.clientY, view: { ...view }, moved: false };
    svg.setPointerCapture(e.pointerId);
  });
  svg.addEventListener("pointermove", (e) => {
    if (!drag) { return; }
    const dx = e.clientX - drag.sx, dy = e.clientY - drag.sy;
    if (!drag.moved && Math.hypot(dx, dy) < 5) { return; }
    drag.moved = true;
    svg.classList.add("panning");
    const u = unit();
    setView({ x: drag.view.x - dx * u, y: drag.view.y - dy * u, w: view.w, h: view.h });
  });
  svg.addEventListener("pointerup", (e) => {
    const was = drag;
    drag = null;
    svg.classList.remove("panning");
    if (!was || was.moved || !current || !state) { return; }
    const p = imagePoint(e);
    if (p.x < 0 || p.y < 0 || p.x > W || p.y > H) { say("That is outside the image", true); return; }
    place(current, p.x, p.y);
  });
  svg.addEventListener("wheel", (e) => {
    e.preventDefault();
    const p = imagePoint(e);
    zoom(e.deltaY < 0 ? 1.25 : 0.8, p.x, p.y);
  }, { passive: false });

  $("skip").addEventListener("click", skip);
  $("undo").addEventListener("click", undo);
  $("accept").addEventListener("click", () => {
    const g = current && state.guesses[current];
    if (g) { place(current, g[0], g[1]); }
  });
  $("zoom-in").addEventListener("click", () => zoom(1.5));
  $("zoom-out").addEventListener("click", () => zoom(1 / 1.5));
  $("fit").addEventListener("click", () => setView({ x: 0, y: 0, w: W, h: H }));
  $("jump").addEventListener("change", (e) => { current = e.target.value; draw(); });
  $("finish").addEventListener("click", async () => {
    await call("finish");
    say("Finished: " + state.done + " of " + state.total + " set in " + state.file +
        ". You may close this page.");
  });
  document.addEventListener("keydown", (e) => {
    if (e.target.tagName === "SELECT") { return; }
    const k = e.key;
    if (k === "s" || k === "S" || k === "ArrowRight") { e.preventDefault(); skip(); }
    else if (k === "u" || k === "U" || k === "Backspace" || (k === "z" && (e.ctrlKey || e.metaKey))) {
      e.preventDefault(); undo();
    } else if (k === "Enter") { e.preventDefault(); $("accept").click(); }
    else if (k === "+" || k === "=") { zoom(1.5); }
    else if (k === "-") { zoom(1 / 1.5); }
    else if (k === "0") { setView({ x: 0, y: 0, w: W, h: H }); }
  });
  window.addEventListener("resize", () => { if (state) { draw(); } });

  fetch("state").then((r) => r.json()).then((data) => {
    state = data;
    current = next(null);
    draw();
    svg.dataset.ready = "1";
  });
})();
