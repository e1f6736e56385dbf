/* History: the game log's games, each with its record, a step-through replay drawn
   like the live board, and charts of castles per side and of who held each colour. */
"use strict";

(() => {
  const { t, api, el } = Carolus;
  const SIDE_FILL = { white: "#f3efe2", black: "#262626", grey: "#9a9a9a" };
  const SIDE_STROKE = { white: "#6b6455", black: "#000", grey: "#555" };
  let game = null;

  async function list() {
    const data = await api("/api/games");
    document.getElementById("nolog").hidden = data.log;
    const tbody = document.querySelector("#games tbody");
    const heads = [...document.querySelectorAll("#games thead th")].map((th) => th.textContent);
    const labelled = (row) => { [...row.children].forEach((td, i) => td.setAttribute("data-label", heads[i] || "")); return row; };
    tbody.replaceChildren(...data.games.map((g) => labelled(el("tr", { "data-game": g.id },
      el("td", {}, g.id), el("td", {}, (g.started || "").slice(0, 16).replace("T", " ")),
      el("td", {}, g.players.map((p) => `${p.name} (${Board.sideName(p.castles)})`).join(", ")),
      el("td", {}, { running: t("running"), finished: t("finished"), unfinished: t("unfinished") }[g.status] || g.status),
      el("td", {}, g.winner ? Board.sideName(g.winner) : "—"), el("td", {}, g.rounds),
      el("td", {}, el("button", { type: "button", onclick: () => open(g) }, t("Replay")), " ",
        el("a", { href: `/api/games/${g.id}/record`, download: `carolus-game-${g.id}.json` }, t("Record")))))));
  }

  async function open(g) {
    game = g;
    document.getElementById("replay").hidden = false;
    document.getElementById("replay-title").textContent = t("Game %(id)s", { id: g.id });
    document.getElementById("download").href = `/api/games/${g.id}/record`;
    const first = await show(0);
    const range = document.getElementById("step");
    range.max = first.steps;
    charts(await api(`/api/games/${g.id}/charts`));
    document.getElementById("replay").scrollIntoView();
  }

  async function show(step) {
    const frame = await api(`/api/games/${game.id}/step/${step}`);
    document.getElementById("step").value = frame.step;
    document.getElementById("step-label").textContent = t("Step %(step)s of %(steps)s", frame);
    Board.drawRing(document.getElementById("ring"), frame.state, null, null);
    Board.drawStatus(document.getElementById("status"), frame.state);
    Board.drawSeats(document.getElementById("seats"), frame.state);
    document.getElementById("step-events").replaceChildren(...frame.events.map((text) => el("li", {}, text)));
    return frame;
  }

  const go = (delta) => () => {
    const range = document.getElementById("step");
    const next = Math.max(0, Math.min(Number(range.max), Number(range.value) + delta));
    show(next);
  };
  document.getElementById("first").onclick = () => show(0);
  document.getElementById("last").onclick = () => show(Number(document.getElementById("step").max));
  document.getElementById("prev").onclick = go(-1);
  document.getElementById("next").onclick = go(1);
  document.getElementById("step").oninput = (e) => show(Number(e.target.value));

  function svg(tag, attrs, text) {
    const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function charts(data) {
    const W = 600, left = 40, right = 110, top = 10, H = 220, bottom = 30;
    const chart = document.getElementById("castle-chart");
    chart.replaceChildren();
    const rounds = data.rounds, n = Math.max(rounds.length, 1);
    const most = Math.max(10, ...Object.values(data.castles).flat());
    const x = (i) => left + (n === 1 ? 0 : (i * (W - left - right)) / (n - 1));
    const y = (v) => H - bottom - (v * (H - top - bottom)) / most;
    for (let v = 0; v <= most; v += 2) {
      chart.append(svg("line", { x1: left, x2: W - right, y1: y(v), y2: y(v), class: "grid" }));
      chart.append(svg("text", { x: left - 6, y: y(v) + 4, class: "axis", "text-anchor": "end" }, v));
    }
    rounds.forEach((r, i) => { if (n < 20 || i % 5 === 0) chart.append(svg("text", { x: x(i), y: H - 10, class: "axis", "text-anchor": "middle" }, r)); });
    chart.append(svg("text", { x: W - right + 14, y: H - 10, class: "axis" }, t("round")));
    Object.entries(data.castles).forEach(([side, values], k) => {
      const points = values.map((v, i) => `${x(i)},${y(v)}`).join(" ");
      chart.append(svg("polyline", { points, class: `line ${side}`, fill: "none", stroke: SIDE_STROKE[side] || "#333", "stroke-dasharray": ["", "6 3", "2 2"][k] || "" }));
      values.forEach((v, i) => chart.append(svg("circle", { cx: x(i), cy: y(v), r: 3, fill: SIDE_FILL[side] || "#999", stroke: SIDE_STROKE[side] || "#333" })));
      const label = `${Board.sideName(side)} (${data.sides[side].join(", ")})`;
      chart.append(svg("text", { x: W - right + 6, y: y(values[values.length - 1] || 0) + 4 + k * 12, class: "legend" }, label));
    });
    // who held each colour: one band per colour, a segment per round labelled with the holder
    const control = document.getElementById("control-chart");
    control.replaceChildren();
    const players = [...new Set(Object.values(data.control).flat().filter(Boolean))];
    const shade = ["#444", "#888", "#bbb", "#ddd"];
    Board.COLOURS.forEach((colour, row) => {
      const cy = 10 + row * 28;
      control.append(svg("text", { x: left - 6, y: cy + 15, class: "axis", "text-anchor": "end" }, Board.letter(colour)));
      const w = (W - left - right) / n;
      data.control[colour].forEach((holder, i) => {
        const cell = svg("rect", { x: left + i * w, y: cy, width: Math.max(w - 1, 1), height: 22, class: `held ${colour}`,
          fill: holder ? shade[players.indexOf(holder) % 4] : "none", stroke: "#ccc" });
        cell.append(svg("title", {}, `${t("round")} ${rounds[i]}: ${Board.colourName(colour)} — ${holder || t("nobody")}`));
        control.append(cell);
      });
    });
    players.forEach((p, i) => {
      control.append(svg("rect", { x: W - right + 6, y: 12 + i * 16, width: 10, height: 10, fill: shade[i % 4] }));
      control.append(svg("text", { x: W - right + 20, y: 21 + i * 16, class: "legend" }, p));
    });
  }

  // A log that cannot be read is said, never shown as an empty table.
  function failed(error) {
    const problem = document.getElementById("logerror");
    problem.textContent = error.message;
    problem.hidden = false;
  }

  Carolus.ready.then(list).catch(failed);
})();
