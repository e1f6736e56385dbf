/* The board drawn from the view model (GET /api/state): the ring of 15 territories as
   SVG with regions merged, cubes as coloured squares with a letter, castles, emperor and
   the reachable units; the seats with courts, cylinders, reserves and discs. */
"use strict";

const Board = (() => {
  const { t, pt, el } = Carolus;
  const SVG = "http://www.w3.org/2000/svg";
  const COLOURS = ["red", "green", "yellow", "blue", "pink"];
  const R_OUT = 196, R_IN = 118, STEP = 360 / 15;

  function s(tag, attrs, ...children) {
    const node = document.createElementNS(SVG, tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value !== null && value !== undefined) node.setAttribute(key, value);
    }
    for (const child of children.flat()) {
      if (child === null || child === undefined) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  function letter(colour) { return pt("letter", colour); }
  function colourName(colour) { return pt("colour", colour); }
  function sideName(side) { return ["white", "black", "grey"].includes(side) ? pt("castle", side) : side; }

  /* Territory n spans angles [(n-1)*24, n*24) clockwise from the top. */
  function polar(r, deg) {
    const a = (deg - 90) * Math.PI / 180;
    return [r * Math.cos(a), r * Math.sin(a)];
  }

  function sector(r1, r2, a1, a2) {
    const [x1, y1] = polar(r2, a1), [x2, y2] = polar(r2, a2);
    const [x3, y3] = polar(r1, a2), [x4, y4] = polar(r1, a1);
    const large = a2 - a1 > 180 ? 1 : 0;
    return `M${x1.toFixed(1)},${y1.toFixed(1)} A${r2},${r2} 0 ${large} 1 ${x2.toFixed(1)},${y2.toFixed(1)} ` +
      `L${x3.toFixed(1)},${y3.toFixed(1)} A${r1},${r1} 0 ${large} 0 ${x4.toFixed(1)},${y4.toFixed(1)} Z`;
  }

  /* A unit's territories in clockwise order (a region may wrap past 15). */
  function clockwise(territories) {
    const set = new Set(territories);
    const start = territories.find((n) => !set.has(((n + 13) % 15) + 1)) || territories[0];
    return territories.map((_, i) => ((start - 1 + i) % 15) + 1);
  }

  function cube(x, y, colour, count, size) {
    const g = s("g", { class: `cube-mark ${colour}`, transform: `translate(${x.toFixed(1)},${y.toFixed(1)})` });
    g.append(s("title", {}, `${count} ${colourName(colour)}`));
    g.append(s("rect", { x: -size / 2, y: -size / 2, width: size, height: size, rx: 2, class: `cube ${colour}` }));
    g.append(s("text", { x: 0, y: size * 0.3, class: "cube-letter", "font-size": size * 0.72 }, letter(colour)));
    g.append(s("text", { x: size * 0.62, y: size * 0.33, class: "cube-count", "font-size": size * 0.85 }, `${count}`));
    return g;
  }

  function castle(x, y, side) {
    const g = s("g", { class: `castle ${side}`, transform: `translate(${x.toFixed(1)},${y.toFixed(1)})` });
    g.append(s("title", {}, t("Castle: %(side)s", { side: sideName(side) })));
    g.append(s("path", { d: "M-9,8 V-4 H-6 V-8 H-3 V-4 H-1.5 V-8 H1.5 V-4 H3 V-8 H6 V-4 H9 V8 Z" }));
    return g;
  }

  function emperor(x, y) {
    const g = s("g", { class: "emperor", transform: `translate(${x.toFixed(1)},${y.toFixed(1)})` });
    g.append(s("title", {}, t("The emperor")));
    g.append(s("circle", { r: 11 }));
    g.append(s("path", { d: "M-7,4 L-7,-4 L-3.5,0 L0,-6 L3.5,0 L7,-4 L7,4 Z", class: "crown" }));
    return g;
  }

  /* Draw the ring into svg; onTap(territory) when a territory is tapped. */
  function drawRing(svg, state, onTap, selected) {
    svg.replaceChildren();
    const reachOrder = [];
    state.units.forEach((u, i) => { if (u.reachable) reachOrder.push(i); });
    const emperorIndex = state.units.findIndex((u) => u.emperor);
    const stepsTo = (i) => ((i - emperorIndex + state.units.length) % state.units.length);
    for (const unit of state.units) {
      const order = clockwise(unit.territories);
      const a1 = (order[0] - 1) * STEP, a2 = a1 + order.length * STEP;
      const mid = (a1 + a2) / 2;
      const isSelected = selected && unit.territories.includes(selected);
      const g = s("g", { class: "unit" + (unit.reachable ? " reachable" : "") + (unit.owner ? ` owned ${unit.owner}` : "") + (isSelected ? " selected" : ""),
        "data-territories": unit.territories.join("+"), "data-owner": unit.owner || "" });
      for (const n of order) {
        const b1 = (n - 1) * STEP, b2 = b1 + STEP;
        const path = s("path", { d: sector(R_IN, R_OUT, b1, b2), class: "territory", "data-territory": n, tabindex: 0, role: "button",
          "aria-label": unit.territories.length > 1 ? t("region %(territories)s", { territories: unit.territories.join("+") }) : t("territory %(territory)s", { territory: n }) });
        path.addEventListener("click", () => onTap && onTap(n));
        path.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") onTap && onTap(n); });
        g.append(path);
        // cubes on a small upright grid (2 columns) around the tile's middle, so the
        // counts read the same on every side of the ring
        const cubes = (state.territories[String(n)] || {}).cubes || {};
        const present = COLOURS.filter((c) => cubes[c]);
        const [cx, cy] = polar((R_IN + R_OUT) / 2 + 4, b1 + STEP / 2);
        const rows = Math.ceil(present.length / 2);
        present.forEach((colour, i) => {
          const col = present.length === 1 ? 0.5 : i % 2, row = Math.floor(i / 2);
          const x = cx - 20 + col * 28, y = cy - ((rows - 1) * 18) / 2 + row * 18;
          g.append(cube(x, y, colour, cubes[colour], 14));
        });
        const [nx, ny] = polar(R_IN + 9, b1 + STEP / 2);
        g.append(s("text", { x: nx.toFixed(1), y: (ny + 3).toFixed(1), class: "number" }, n));
      }
      if (order.length > 1) {
        for (const n of order.slice(1)) {  // the tiles of a region touch: thin dashed seams
          const [x1, y1] = polar(R_IN, (n - 1) * STEP), [x2, y2] = polar(R_OUT, (n - 1) * STEP);
          g.append(s("line", { x1, y1, x2, y2, class: "seam" }));
        }
      }
      g.append(s("path", { d: sector(R_IN, R_OUT, a1, a2), class: "outline" }));
      if (unit.owner) {
        g.append(s("path", { d: sector(R_OUT + 2, R_OUT + 10, a1 + 0.6, a2 - 0.6), class: `band ${unit.owner}` }));
        const [cx, cy] = polar(R_IN - 16, mid);
        g.append(castle(cx, cy, unit.owner));
      }
      if (unit.emperor) {
        const [ex, ey] = polar(R_IN - 40, mid);
        g.append(emperor(ex, ey));
      }
      if (unit.reachable) {
        const i = state.units.indexOf(unit);
        const [bx, by] = polar(R_OUT + 19, mid);
        const badge = s("g", { class: "reach", transform: `translate(${bx.toFixed(1)},${by.toFixed(1)})` });
        badge.append(s("title", {}, t("The emperor can stop here")));
        badge.append(s("circle", { r: 8 }));
        badge.append(s("text", { y: 3.5 }, stepsTo(i)));
        g.append(badge);
      }
      svg.append(g);
    }
    // the supply in the middle of the ring (not known while the table is set up)
    if (!state.supply || !Object.keys(state.supply).length) return;
    const supply = s("g", { class: "supply" });
    supply.append(s("text", { y: -42, class: "supply-title" }, t("Supply")));
    COLOURS.forEach((colour, i) => supply.append(cube(-14, -24 + i * 16, colour, (state.supply || {})[colour] || 0, 12)));
    svg.append(supply);
  }

  function counts(given, cylinders) {
    const cubes = {};
    for (const colour of COLOURS) cubes[colour] = (given || {})[colour] || 0;
    return el("span", { class: "counts" }, COLOURS.map((colour) => {
      const held = cylinders && cylinders.includes(colour);
      return el("span", { class: "count" + (cubes[colour] ? "" : " zero") + (held ? " held" : ""),
        title: `${cubes[colour]} ${colourName(colour)}` + (held ? " — " + t("holds the %(colour)s cylinder", { colour: colourName(colour) }) : "") },
        el("span", { class: `cube ${colour}` }, letter(colour)), cubes[colour], held ? el("span", { class: "cylinder", "aria-hidden": "true" }, "◆") : null);
    }));
  }

  /* What the small marks of the seats mean, said where they stand (a phone has no hover
     for the tooltips): the ◆ after court cubes and the score. */
  function seatLegend(state) {
    const lines = [];
    if (state.players.some((p) => (p.control || []).length)) {
      lines.push(el("span", { class: "legend-line held-legend" }, el("span", { class: "cylinder", "aria-hidden": "true" }, "◆"), " ",
        t("after court cubes: that player holds the colour's cylinder (controls the colour).")));
    }
    if (state.players.some((p) => p.score !== undefined)) {
      lines.push(el("span", { class: "legend-line score-legend" },
        t("Score: %(points)s points for each territory under castles, at most 40, for tables that keep a score.",
          { points: state.players.length === 3 ? 5 : 4 })));
    }
    return lines.length ? el("p", { class: "hint seat-legend" }, lines) : null;
  }

  function drawSeats(box, state) {
    const legend = seatLegend(state);
    box.replaceChildren(...state.players.map((p) => {
      const active = state.to_move === p.name;
      return el("div", { class: "card seat" + (active ? " active" : ""), "data-player": p.name },
        el("h3", {}, el("span", { class: `castle-swatch ${p.castles}`, title: sideName(p.castles) }), p.name,
          p.seat ? el("small", {}, " · " + pt("seat", p.seat)) : null,
          active ? el("small", { class: "to-move" }, " · " + t("to move")) : null),
        el("p", { class: "castles" }, t("Territories under castles: %(count)s", { count: p.territories }), p.score !== undefined ? ` · ${t("score")} ${p.score}` : ""),
        el("div", { class: "row" }, el("span", { class: "label" }, t("Court")), counts(p.court, p.control)),
        el("div", { class: "row" }, el("span", { class: "label" }, t("Cylinders")),
          (p.control || []).length ? p.control.map((c) => el("span", { class: `cylinder-chip ${c}` }, colourName(c))) : el("span", { class: "none" }, "—")),
        el("div", { class: "row" }, el("span", { class: "label" }, t("Reserve")), counts(p.reserve, null)),
        el("div", { class: "row" }, el("span", { class: "label" }, t("Discs")),
          el("span", { class: "discs" }, (p.discs || []).map((d) => el("span", { class: "disc" + (d === p.disc ? " laid" : "") }, d)),
            p.disc ? el("span", { class: "disc laid" }, t("laid %(disc)s", { disc: p.disc })) : null)));
    }));
    if (legend) box.append(legend);
  }

  /* A zone of the table in words, as the players say it: "territory 7", "Court of Anna"
     (the seat's court when nobody sits there). The one place the page names zones. */
  function zoneName(zone, state) {
    const [kind, where] = String(zone).split(":");
    if (kind === "territory") return t("territory %(territory)s", { territory: where });
    const player = ((state && state.players) || []).find((p) => p.seat === where);
    if (kind === "court") {
      return player ? t("Court of %(player)s", { player: player.name }) : t("%(seat)s court", { seat: pt("seat", where) });
    }
    if (kind === "reserve") {
      return player ? t("Reserve of %(player)s", { player: player.name }) : t("%(seat)s reserve", { seat: pt("seat", where) });
    }
    return String(zone);
  }

  function phaseWords(state) {
    if (state.finished) {
      return state.winner === "draw" ? t("The game is over: a draw.") : t("The game is over: %(winner)s wins.", { winner: sideName(state.winner || "") });
    }
    if (state.phase !== "opening" && state.phase !== "action") return t("Setting up the table");
    const phase = state.phase === "opening" ? t("opening phase") : t("action phase");
    const parts = [t("Round %(round)s", { round: state.round }), phase];
    if (state.phase === "opening") {
      parts.push(state.choosers.length ? t("choosing a disc: %(players)s", { players: state.choosers.join(", ") }) : "");
    } else if (state.to_move) {
      const step = { cubes: t("play cubes"), emperor: t("move the emperor"), refill: t("refill") }[state.step] || "";
      parts.push(t("%(player)s: %(step)s", { player: state.to_move, step }));
    }
    return parts.filter(Boolean).join(" · ");
  }

  function drawStatus(box, state) {
    const order = (state.discs_chosen || []).length
      ? t("Discs: %(discs)s", { discs: state.discs_chosen.map(([name, disc]) => `${name} ${disc}`).join(", ") }) : "";
    const playOrder = (state.order || []).length ? t("Order of play: %(players)s", { players: state.order.join(" → ") }) : "";
    box.replaceChildren(el("h2", { class: "phase" }, phaseWords(state)),
      el("p", { class: "order" }, [order, playOrder].filter(Boolean).join(" · ")));
    /* the appliance's words and each chore's sentence come from the server's one
       renderer, in every language: this page shows its own */
    const lang = document.body.dataset.lang || "en";
    const status = state.status || {};
    const message = (status.texts && status.texts[lang]) || status.message;
    if (message) box.append(el("p", { class: "message" }, message));
    const pending = (state.table && state.table.pending) || [];
    if (pending.length) {
      box.append(el("ul", { class: "pending" }, pending.map((p) => el("li", {},
        (p.texts && (p.texts[lang] || p.texts.en)) || p.message || p.kind))));
    }
  }

  function outcome(view) {
    const words = {
      build: t("%(side)s would build a castle", { side: sideName(view.side) }),
      take: t("%(side)s would take it over", { side: sideName(view.side) }),
      keep: t("%(side)s keeps it", { side: sideName(view.owner) }),
      nothing: t("nothing would happen"),
    };
    return words[view.outcome] || view.outcome;
  }

  function where(territories) {
    return territories.length > 1 ? t("region %(territories)s", { territories: territories.join("+") })
      : t("territory %(territory)s", { territory: territories[0] });
  }

  function strength(side) {
    const parts = COLOURS.filter((c) => side.cubes[c]).map((c) => `${side.cubes[c]} ${colourName(c)}`);
    if (side.castles) parts.push(t("%(count)s for the castle", { count: side.castles }));
    return `${sideName(side.side)} ${side.total}` + (parts.length ? ` (${parts.join(" + ")})` : "");
  }

  function drawMajority(box, view, onClose) {
    box.hidden = false;
    const none = t("none");
    box.replaceChildren(
      el("button", { class: "close", type: "button", "aria-label": t("Close"), onclick: onClose }, "×"),
      el("h2", {}, where(view.territories), view.owner ? el("small", {}, " · " + t("Castle: %(side)s", { side: sideName(view.owner) })) : null),
      el("p", {}, t("Cubes: %(cubes)s", { cubes: COLOURS.filter((c) => view.cubes[c]).map((c) => `${view.cubes[c]} ${colourName(c)}`).join(", ") || none })),
      el("table", { class: "strengths" }, el("tbody", {}, view.sides.map((side) => el("tr", { class: side.side === view.side ? "leader" : "" },
        el("th", {}, el("span", { class: `castle-swatch ${side.side}` }), sideName(side.side), el("small", {}, " " + side.players.join(", "))),
        el("td", { class: "total" }, side.total),
        el("td", {}, el("span", { class: "made-of" }, strength(side))))))),
      el("p", { class: "outcome" }, "→ " + outcome(view)));
  }

  function drawContested(tbody, views, onTap) {
    tbody.replaceChildren(...views.map((v) => el("tr", { onclick: () => onTap(v.territories[0]), class: v.margin === 0 ? "tie" : "" },
      el("td", {}, where(v.territories)),
      el("td", {}, v.owner ? sideName(v.owner) : "—"),
      el("td", {}, v.sides.map((side) => `${sideName(side.side)} ${side.total}`).join(" : ")),
      el("td", {}, v.margin),
      el("td", {}, outcome(v)))));
  }

  return { drawRing, drawSeats, drawStatus, drawMajority, drawContested, sideName, colourName, letter, COLOURS, where, zoneName };
})();
