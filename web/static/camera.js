/* Camera: the MJPEG stream with the zones and counts the hub reports drawn over it, the
   calibration flow, and the counts the referee believes, zone by zone. Zones are named in
   the page's language (Board.zoneName) and their labels never overlap: each is placed at
   its zone where it is free, else listed under the picture and marked on it by a short
   key (the territory's number, as printed on the mat, or a letter). Labels are sized in
   the screen's pixels, not the camera's, so they stay readable on a phone where the
   picture is shrunk to a third. */
"use strict";

(() => {
  const { t, api, el } = Carolus;
  const SVG = "http://www.w3.org/2000/svg";
  /* The labels' and keys' letters, in CSS pixels whatever the picture's size. */
  const LABEL_PX = 14;
  let state = null;
  let last = null; // the latest overlay, laid out again when the picture changes size

  const counted = (counts) => Board.COLOURS.filter((c) => (counts || {})[c]).map((c) => `${Board.letter(c)}${counts[c]}`).join(" ");
  const labelText = (zone) => {
    const counts = counted(zone.counts);
    return Board.zoneName(zone.zone, state) + (counts ? ` · ${counts}` : "");
  };

  /* The middle of a polygon (the mean of its corners is enough for the mat's zones). */
  function middle(points) {
    const n = points.length || 1;
    return [points.reduce((a, p) => a + p[0], 0) / n, points.reduce((a, p) => a + p[1], 0) / n];
  }

  const overlaps = (a, b) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

  /* A key for each zone listed under the picture: a territory's number, else A, B, … */
  function keys(zones) {
    let letter = 0;
    return new Map(zones.map((zone) => {
      const [kind, where] = zone.zone.split(":");
      return [zone.zone, kind === "territory" ? where : String.fromCharCode(65 + letter++)];
    }));
  }

  /* Place each label at its zone's middle, or the nearest free spot around it within
     reach (a spiral of candidate offsets); a label with no free spot near its zone is
     listed under the picture instead, and its short key is placed at the zone the same
     way, so no two labels or keys ever cover each other. A label that leaves a listed
     zone no room for its key gives way and is listed too. `unit` is the camera's pixels
     per CSS pixel: letters, gaps and offsets are measured on the screen. */
  function placeLabels(svg, zones, size, unit) {
    const placed = []; // {zone, node, box}
    const pad = 2 * unit;
    const offsets = [[0, 0]];
    for (let ring = 1; ring <= 6; ring += 1) {
      for (const [dx, dy] of [[0, -1], [0, 1], [-1, 0], [1, 0], [-1, -1], [1, -1], [-1, 1], [1, 1]]) offsets.push([dx * ring * 9 * unit, dy * ring * 9 * unit]);
    }
    const text = (zone, cls, words) => {
      const node = document.createElementNS(SVG, "text");
      node.setAttribute("class", cls);
      node.setAttribute("text-anchor", "middle");
      node.setAttribute("data-zone", zone.zone);
      node.style.fontSize = `${(LABEL_PX * unit).toFixed(2)}px`;
      node.style.strokeWidth = `${(3 * unit).toFixed(2)}px`;
      node.textContent = words;
      svg.append(node);
      return node;
    };
    const boxAt = (node, zone, [dx, dy]) => {
      const [mx, my] = middle(zone.polygon_px);
      node.setAttribute("x", (mx + dx).toFixed(1));
      node.setAttribute("y", (my + dy + 5 * unit).toFixed(1));
      const raw = node.getBBox();
      return { x: raw.x - pad, y: raw.y - pad, width: raw.width + 2 * pad, height: raw.height + 2 * pad };
    };
    const place = (zone, cls, words) => {
      const node = text(zone, cls, words);
      for (const offset of offsets) {
        const box = boxAt(node, zone, offset);
        const inside = box.x >= 0 && box.y >= 0 && box.x + box.width <= size[0] && box.y + box.height <= size[1];
        if (inside && !placed.some((other) => overlaps(box, other.box))) { placed.push({ zone: zone.zone, node, box }); return true; }
      }
      node.remove();
      return false;
    };
    const labelled = new Set(zones.filter((zone) => place(zone, "zone-label", labelText(zone))).map((z) => z.zone));
    let crowded = [];
    let key = new Map();
    for (let round = 0; round <= zones.length; round += 1) {
      for (const entry of placed.filter((e) => e.node.classList.contains("zone-key"))) {
        entry.node.remove();
        placed.splice(placed.indexOf(entry), 1);
      }
      crowded = zones.filter((zone) => !labelled.has(zone.zone));
      key = keys(crowded);
      const missing = crowded.filter((zone) => !place(zone, "zone-key", key.get(zone.zone)));
      if (!missing.length) break;
      let gave = false;
      for (const zone of missing) { // the labels over the zone's middle give way
        const probe = text(zone, "zone-key", key.get(zone.zone));
        const box = boxAt(probe, zone, [0, 0]);
        probe.remove();
        for (const entry of placed.filter((e) => labelled.has(e.zone) && overlaps(box, e.box))) {
          entry.node.remove();
          placed.splice(placed.indexOf(entry), 1);
          labelled.delete(entry.zone);
          gave = true;
        }
      }
      if (!gave) break;
    }
    return { crowded, key };
  }

  /* Lay the latest overlay out over the picture as it is shown now. */
  function draw() {
    const svg = document.getElementById("overlay");
    const more = document.getElementById("overlay-more");
    if (!svg || svg.hidden || !last) return;
    const data = last;
    const shown = svg.getBoundingClientRect().width;
    if (!shown || !data.size[0]) return; // the picture is not shown yet: when it is
    const unit = data.size[0] / shown;
    svg.setAttribute("viewBox", `0 0 ${data.size[0]} ${data.size[1]}`);
    svg.replaceChildren();
    for (const zone of data.zones) {
      const poly = document.createElementNS(SVG, "polygon");
      poly.setAttribute("points", zone.polygon_px.map((p) => p.join(",")).join(" "));
      poly.setAttribute("class", "zone");
      poly.setAttribute("data-zone", zone.zone);
      svg.append(poly);
    }
    for (const poly of svg.querySelectorAll("polygon")) poly.style.strokeWidth = `${(2 * unit).toFixed(2)}px`;
    const { crowded, key } = placeLabels(svg, data.zones, data.size, unit);
    if (more) {
      more.replaceChildren(...crowded.map((zone) => el("li", { "data-zone": zone.zone, "data-key": key.get(zone.zone) }, labelText(zone))));
      more.hidden = !crowded.length;
    }
  }

  async function overlay() {
    const svg = document.getElementById("overlay");
    if (!svg || svg.hidden) return;
    try {
      last = await api("/api/camera/overlay");
      draw();
    } catch (e) { last = null; svg.replaceChildren(); }
  }

  async function zones() {
    state = await api("/api/state");
    const box = document.getElementById("zones");
    const row = (zone, cubes) => el("div", { class: "zone-row", "data-zone": zone },
      el("span", { class: "label" }, Board.zoneName(zone, state), el("span", { class: "sep" }, ":")), " ",
      el("span", { class: "counts" }, Board.COLOURS.map((c) => el("span", { class: "count" + (cubes[c] ? "" : " zero") },
        el("span", { class: `cube ${c}` }, Board.letter(c)), cubes[c]))));
    const rows = [];
    for (let n = 1; n <= 15; n += 1) rows.push(row(`territory:${n}`, state.territories[String(n)].cubes));
    for (const p of state.players) {
      if (!p.seat) continue;
      rows.push(row(`court:${p.seat}`, p.court));
      rows.push(row(`reserve:${p.seat}`, p.reserve));
    }
    box.replaceChildren(...rows);
  }

  /* The picture, unless this appliance shows it only after the PIN (web.camera_needs_pin):
     then say so instead of a broken picture. */
  async function picture() {
    const img = document.getElementById("camera");
    if (!img) return;
    if (document.body.dataset.trusted !== "yes") {
      let status = 200;
      try { status = (await fetch("/api/camera.jpg", { credentials: "same-origin", cache: "no-store" })).status; } catch (e) { status = 0; }
      if (status === 401) {
        document.getElementById("camera-box").hidden = true;
        document.getElementById("overlay").hidden = true;
        document.getElementById("camera-pin").hidden = false;
        return;
      }
    }
    img.addEventListener("load", draw);
    img.src = img.dataset.src;
  }

  const calibrate = document.getElementById("calibrate");
  if (calibrate) {
    calibrate.onclick = async () => {
      const report = document.getElementById("calibration");
      report.hidden = false;
      report.textContent = t("Calibrating…");
      try { report.textContent = JSON.stringify(await api("/api/calibrate", {}), null, 1); } catch (e) { report.textContent = e.message; }
    };
  }
  const tick = async () => { try { await zones(); } catch (e) { /* the next tick retries */ } overlay(); };
  window.addEventListener("resize", draw);
  Carolus.ready.then(async () => { await picture(); tick(); setInterval(tick, 2000); });
})();
