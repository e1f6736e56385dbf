/* Camera: the MJPEG stream with the zones and counts the hub reports drawn over it, the
   calibration flow, and the counts the referee believes, zone by zone. Zones are named in
   the page's language (Board.zoneName) and their labels never overlap: each is placed at
   its zone where it is free, else listed under the picture. */
"use strict";

(() => {
  const { t, api, el } = Carolus;
  const SVG = "http://www.w3.org/2000/svg";
  let state = null;

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

  /* Place each label at its zone's middle, or the nearest free spot around it within
     reach (a spiral of candidate offsets); a label with no free spot near its zone is
     listed under the picture instead, so no two labels ever cover each other. */
  function placeLabels(svg, zones, size) {
    const placed = [];
    const crowded = [];
    const pad = 2;
    const offsets = [[0, 0]];
    for (let ring = 1; ring <= 6; ring += 1) {
      for (const [dx, dy] of [[0, -1], [0, 1], [-1, 0], [1, 0], [-1, -1], [1, -1], [-1, 1], [1, 1]]) offsets.push([dx * ring * 9, dy * ring * 9]);
    }
    for (const zone of zones) {
      const label = document.createElementNS(SVG, "text");
      label.setAttribute("class", "zone-label");
      label.setAttribute("text-anchor", "middle");
      label.setAttribute("data-zone", zone.zone);
      label.textContent = labelText(zone);
      svg.append(label);
      const [mx, my] = middle(zone.polygon_px);
      let spot = null;
      for (const [dx, dy] of offsets) {
        label.setAttribute("x", (mx + dx).toFixed(1));
        label.setAttribute("y", (my + dy + 5).toFixed(1));
        const raw = label.getBBox();
        const box = { x: raw.x - pad, y: raw.y - pad, width: raw.width + 2 * pad, height: raw.height + 2 * pad };
        const inside = box.x >= 0 && box.y >= 0 && box.x + box.width <= size[0] && box.y + box.height <= size[1];
        if (inside && !placed.some((other) => overlaps(box, other))) { spot = box; break; }
      }
      if (spot) placed.push(spot);
      else { label.remove(); crowded.push(zone); }
    }
    return crowded;
  }

  async function overlay() {
    const svg = document.getElementById("overlay");
    const more = document.getElementById("overlay-more");
    if (!svg || svg.hidden) return;
    try {
      const data = await api("/api/camera/overlay");
      svg.setAttribute("viewBox", `0 0 ${data.size[0]} ${data.size[1]}`);
      svg.replaceChildren();
      for (const zone of data.zones) {
        const poly = document.createElementNS(SVG, "polygon");
        poly.setAttribute("points", zone.polygon_px.map((p) => p.join(",")).join(" "));
        poly.setAttribute("class", "zone");
        svg.append(poly);
      }
      const crowded = placeLabels(svg, data.zones, data.size);
      if (more) {
        more.replaceChildren(...crowded.map((zone) => el("li", { "data-zone": zone.zone }, labelText(zone))));
        more.hidden = !crowded.length;
      }
    } catch (e) { svg.replaceChildren(); }
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
  Carolus.ready.then(async () => { await picture(); tick(); setInterval(tick, 2000); });
})();
