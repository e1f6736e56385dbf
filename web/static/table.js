/* Corrections: the PIN once per browser, then zone counts, undo, confirm, the buttons
   and new games. Every request carries the page's CSRF token (Carolus.api). */
"use strict";

(() => {
  const { t, api } = Carolus;
  const result = document.getElementById("result");
  const COLOURS = ["red", "green", "yellow", "blue", "pink"];
  const say = (text, bad) => { result.textContent = text; result.classList.toggle("error", !!bad); };
  const done = (promise, words) => promise.then(() => say(words)).catch((e) => say(e.message, true));

  async function fillZones() {
    const zone = document.getElementById("zone");
    if (!zone) return;
    const state = await api("/api/state");
    const chosen = zone.value;  // the picker stays where the player left it
    zone.replaceChildren();
    const add = (id) => zone.append(new Option(Board.zoneName(id, state), id));
    for (let n = 1; n <= 15; n += 1) add(`territory:${n}`);
    for (const p of state.players) {
      if (!p.seat) continue;
      add(`court:${p.seat}`);
      add(`reserve:${p.seat}`);
    }
    if (chosen && [...zone.options].some((o) => o.value === chosen)) zone.value = chosen;
    zone.onchange = () => showCounts(state);
    showCounts(state);
  }

  function showCounts(state) {
    const [kind, where] = document.getElementById("zone").value.split(":");
    let cubes = null;
    if (kind === "territory") cubes = state.territories[where].cubes;
    else {
      const p = state.players.find((x) => x.seat === where);
      cubes = p && (kind === "court" ? p.court : p.reserve);
    }
    if (!cubes) return;
    for (const c of COLOURS) document.querySelector(`#correction input[name="${c}"]`).value = cubes[c];
  }
  // colour order of the rules

  function unlocked() {
    document.getElementById("pin-card").hidden = true;
    document.getElementById("controls").hidden = false;
    document.body.dataset.trusted = "yes";
    fillZones();
  }

  document.getElementById("pin-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const error = document.getElementById("pin-error");
    try {
      await api("/api/pin", { pin: document.getElementById("pin").value });
      error.textContent = "";
      unlocked();
    } catch (err) { error.textContent = err.message; }
  });

  document.getElementById("correction").addEventListener("submit", (e) => {
    e.preventDefault();
    const form = e.target;
    const counts = {};
    for (const c of COLOURS) counts[c] = Number(form.elements[c].value);
    const zone = form.elements.zone.value;
    const name = form.elements.zone.selectedOptions[0].text;  // the zone in words
    done(api("/api/correction", { zone, counts }).then(fillZones), t("Corrected: %(zone)s", { zone: name }));
  });
  document.getElementById("undo").onclick = () => done(api("/api/undo", {}), t("The last step was undone."));
  document.getElementById("confirm").onclick = () => done(api("/api/confirm", {}), t("Confirmed."));
  const display = document.getElementById("display");
  for (const button of document.querySelectorAll("button.press")) {
    button.onclick = () => done(api(`/api/button/${button.dataset.button}`, { long: !!button.dataset.long })
      .then(() => { display.src = `/api/display.png?${Date.now()}`; }), t("Pressed."));
  }
  const newGame = document.getElementById("new-game");
  if (newGame) {
    newGame.addEventListener("submit", (e) => {
      e.preventDefault();
      const players = [...newGame.querySelectorAll("fieldset.player")]
        .map((f) => ({ name: f.elements.name.value.trim(), castles: f.elements.castles.value, seat: f.elements.seat.value }))
        .filter((p) => p.name);
      done(api("/api/game", { players }).then(fillZones), t("A new game starts."));
    });
    document.getElementById("end-game").onclick = () => done(api("/api/game/end", {}), t("The game was ended."));
  }
  Carolus.ready.then(() => { if (document.body.dataset.trusted === "yes") fillZones(); });
})();
