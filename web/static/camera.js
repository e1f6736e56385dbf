/* Camera: the MJPEG stream with the zones and counts the hub reports drawn over it, the
   calibration flow, and the counts the referee believes, zone by zone. */
"use strict";

(() => {
  const { t, api, el } = Carolus;

  async function overlay() {
    const svg = document.getElementById("overlay");
    if (!svg) return;
    try {
      const data = await api("/api/camera/overlay");
      svg.setAttribute("viewBox", `0 0 ${data.size[0]} ${data.size[1]}`);
      svg.replaceChildren();
      for (const zone of data.zones) {
        const ns = "http://www.w3.org/2000/svg";
        const poly = document.createElementNS(ns, "polygon");
        poly.setAttribute("points", zone.polygon_px.map((p) => p.join(",")).join(" "));
        poly.setAttribute("class", "zone");
        svg.append(poly);
        const [x, y] = zone.polygon_px[0];
        const label = document.createElementNS(ns, "text");
        label.setAttribute("x", x + 4); label.setAttribute("y", y + 14); label.setAttribute("class", "zone-label");
        label.textContent = zone.zone + " " + Board.COLOURS.filter((c) => (zone.counts || {})[c]).map((c) => `${Board.letter(c)}${zone.counts[c]}`).join(" ");
        svg.append(label);
      }
    } catch (e) { svg.replaceChildren(); }
  }

  async function zones() {
    const state = await api("/api/state");
    const box = document.getElementById("zones");
    const row = (name, cubes) => el("div", { class: "zone-row" }, el("span", { class: "label" }, name),
      el("span", { class: "counts" }, Board.COLOURS.map((c) => el("span", { class: "count" + (cubes[c] ? "" : " zero") },
        el("span", { class: `cube ${c}` }, Board.letter(c)), cubes[c]))));
    const rows = [];
    for (let n = 1; n <= 15; n += 1) rows.push(row(t("territory %(territory)s", { territory: n }), state.territories[String(n)].cubes));
    for (const p of state.players) {
      rows.push(row(t("Court of %(player)s", { player: p.name }), p.court));
      rows.push(row(t("Reserve of %(player)s", { player: p.name }), p.reserve));
    }
    box.replaceChildren(...rows);
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
  Carolus.ready.then(() => { zones(); overlay(); setInterval(() => { zones(); overlay(); }, 2000); });
})();
