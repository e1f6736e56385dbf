/* The advisor panel of the live page (training mode): a switch (PIN + CSRF, like a
   correction) and, while it is on, an "Ask the advisor" button. The advisor speaks only
   when asked: nothing is fetched until the button is pressed, and an answer is hidden
   again as soon as the table moves on (it would be stale). */
"use strict";

(() => {
  const panel = document.getElementById("advisor");
  if (!panel) return;  // a hub without an advisor: no panel at all
  const { t, pt, api, el } = Carolus;
  const toggle = document.getElementById("training");
  const ask = document.getElementById("ask");
  const box = document.getElementById("advice");
  const hintLine = document.getElementById("advice-hint");
  const threatList = document.getElementById("advice-threats");
  const exposedList = document.getElementById("advice-exposed");
  const error = document.getElementById("advisor-error");
  const EXPOSED = 3;
  let moment = null;

  function unit(territories) {
    return territories.length === 1
      ? t("territory %(territory)s", { territory: territories[0] })
      : t("region %(territories)s", { territories: territories.join("+") });
  }

  function cubes(counts) {
    return Object.entries(counts || {}).filter(([, n]) => n)
      .map(([colour, n]) => `${n} ${pt("colour", colour)}`).join(" + ");
  }

  function threatText(threat) {
    if (threat.colour !== undefined) {
      return t("%(player)s can win %(colour)s with %(needs)s to his court", {
        ...threat, colour: pt("colour", threat.colour) });
    }
    const words = { player: threat.player, unit: unit(threat.territories), cubes: threat.cubes, distance: threat.distance };
    return threat.owner
      ? t("%(player)s can take over %(unit)s with %(cubes)s cubes (emperor %(distance)s ahead)", words)
      : t("%(player)s can build on %(unit)s with %(cubes)s cubes (emperor %(distance)s ahead)", words);
  }

  function cheapest(exposure) {
    return Math.min(...exposure.flips.map((f) => f.cubes));
  }

  function exposedText(exposure) {
    const flip = exposure.flips.reduce((a, b) => (b.cubes < a.cubes ? b : a));
    const made = [flip.court && Object.keys(flip.court).length ? t("%(cubes)s to his court", { cubes: cubes(flip.court) }) : null,
      cubes(flip.placed) || null].filter(Boolean).join(", ");
    return t("%(unit)s: %(player)s flips it with %(cubes)s cubes (%(how)s)", {
      unit: unit(exposure.territories), player: flip.player, cubes: flip.cubes, how: made });
  }

  function show(advice) {
    const hint = advice.hint;
    hintLine.textContent = hint
      ? t("Hint for %(player)s:", { player: hint.player }) + " " + (hint.reason || hint.why)
      : t("No hint now: hints come when a player is about to play cubes.");
    hintLine.title = hintLine.textContent;
    const threats = [...advice.threats.colours, ...advice.threats.units];
    threatList.replaceChildren(...(threats.length
      ? threats.map((x) => el("li", { "data-player": x.player }, threatText(x)))
      : [el("li", {}, t("No threats this turn."))]));
    const exposed = advice.exposure.filter((e) => e.flips.length)
      .sort((a, b) => cheapest(a) - cheapest(b) || a.distance - b.distance).slice(0, EXPOSED);
    exposedList.replaceChildren(...exposed.map((e) => el("li", {}, exposedText(e))));
    box.hidden = false;
  }

  async function askAdvisor() {
    error.textContent = "";
    ask.disabled = true;
    try {
      show(await api("/api/advice"));
    } catch (e) {
      error.textContent = e.message;
    } finally {
      ask.disabled = false;
    }
  }

  async function switchTraining() {
    error.textContent = "";
    try {
      const answer = await api("/api/training", { on: toggle.checked });
      if (answer && typeof answer.training === "boolean") toggle.checked = answer.training;
    } catch (e) {
      toggle.checked = !toggle.checked;
      error.textContent = e.message;
    }
    ask.hidden = !toggle.checked;
    if (!toggle.checked) box.hidden = true;
  }

  document.addEventListener("carolus:state", (e) => {
    const state = e.detail;
    const on = Boolean(state.training);
    toggle.checked = on;
    ask.hidden = !on;
    const now = `${state.round}/${state.phase}/${state.step}/${state.to_move}`;
    if (!on || (moment !== null && now !== moment)) box.hidden = true;  // stale advice
    moment = now;
  });
  toggle.addEventListener("change", switchTraining);
  ask.addEventListener("click", askAdvisor);
})();
