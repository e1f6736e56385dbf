/* The live page: one SSE stream (/api/events) keeps the board, the seats and the
   announcements current; EventSource reconnects by itself and resumes with
   Last-Event-ID, so no event is missed and the page never reloads. */
"use strict";

(() => {
  const { t, pt, api, light, el } = Carolus;
  const ring = document.getElementById("ring");
  const seats = document.getElementById("seats");
  const status = document.getElementById("status");
  const banner = document.getElementById("banner");
  const list = document.getElementById("announcements");
  const panel = document.getElementById("majority");
  const contested = document.querySelector("#contested tbody");
  const question = document.getElementById("question");
  let state = null;
  let asked = null;  // the latest question event, with its text in this page's language
  let selected = null;
  let refresh = null;
  const KEEP = 30;

  window.carolus = { lastEventId: 0, events: 0 };

  function announce(event) {
    if (event.kind === "question") asked = event;
    if (!event.text) return;
    const item = el("li", { class: `announcement ${event.kind}`, "data-kind": event.kind }, event.text);
    list.prepend(item);
    while (list.children.length > KEEP) list.lastChild.remove();
  }

  function tap(territory) {
    selected = territory;
    if (state) Board.drawRing(ring, state, tap, selected);
    showMajority();
  }

  async function showMajority() {
    if (!selected) return;
    try {
      const view = await api(`/api/majority/${selected}`);
      Board.drawMajority(panel, view, () => { selected = null; panel.hidden = true; if (state) Board.drawRing(ring, state, tap, null); });
    } catch (e) { panel.hidden = true; }
  }

  function scheduleMajorities() {
    clearTimeout(refresh);
    refresh = setTimeout(async () => {
      try { Board.drawContested(contested, await api("/api/majorities"), tap); } catch (e) { /* next event retries */ }
      showMajority();
    }, 150);
  }

  function render(next) {
    state = next;
    Board.drawRing(ring, state, tap, selected);
    Board.drawSeats(seats, state);
    Board.drawStatus(status, state);
    const illegal = state.table && state.table.illegal;
    const lost = (state.status || {}).camera === "lost";
    banner.hidden = !illegal && !lost;
    const lang = document.body.dataset.lang || "en";
    /* the act's whole sentence in this page's language (the view's texts); a view
       without them (an older appliance's) gives the rule's title and its English words */
    banner.textContent = illegal ? (illegal.texts && illegal.texts[lang])
      || t("Not allowed (%(code)s): %(message)s", { ...illegal, code: pt("illegal", illegal.code) })
      : lost ? t("The camera lost the mat.") : "";
    showQuestion(state.table && state.table.question);
    showBare(state.bare);
    scheduleMajorities();
    document.dispatchEvent(new CustomEvent("carolus:state", { detail: state }));
  }

  /* The referee doubts the camera: its question and Yes / No (PIN needed). */
  function showQuestion(standing) {
    question.hidden = !standing;
    if (!standing) return;
    const same = asked && asked.zone === standing.zone && asked.text
      && JSON.stringify(asked.counts) === JSON.stringify(standing.counts);
    document.getElementById("question-text").textContent = same ? asked.text : standing.message;
  }

  /* The set-up step: lay the table bare and Confirm, then the pieces. The words come
     from the step and the problem's code, so they are in this page's language. */
  function bareWords(bare) {
    const problems = {
      "no-frame": t("No camera picture yet: wait until the camera shows the mat, then press Confirm again."),
      "camera-lost": t("The camera is lost: the bare table cannot be learnt until it is back."),
      "moving": t("Something is over the mat or moving: take your hands away and press Confirm again."),
      "no-mat": t("The mat is not found in the camera picture: make sure the whole mat and its corner markers are in view and lit, then press Confirm again."),
      "layout": t("The camera picture does not fit the mat's layout: check the camera settings, then press Confirm again."),
    };
    const text = bare.step === "ask"
      ? t("Lay out the tiles and the court cards, nothing else, then press Confirm.")
      : t("Now set up: the emperor, one cube on each tile, the reserves.");
    return [text, bare.problem ? (problems[bare.problem] || bare.message) : ""];
  }

  function showBare(bare) {
    const box = document.getElementById("bare");
    box.hidden = !bare;
    if (!bare) return;
    const [text, problem] = bareWords(bare);
    document.getElementById("bare-text").textContent = text;
    document.getElementById("bare-problem").textContent = problem;
    document.getElementById("bare-confirm").hidden = bare.step !== "ask";
  }

  document.getElementById("bare-confirm").onclick = () => {
    api("/api/confirm", {}).catch(() => { /* the step's problem arrives with the state */ });
  };

  function reply(answer) {
    const error = document.getElementById("question-error");
    api("/api/answer", { answer }).then(() => { error.textContent = ""; })
      .catch((e) => { error.textContent = e.message; });
  }
  document.getElementById("answer-yes").onclick = () => reply("yes");
  document.getElementById("answer-no").onclick = () => reply("no");

  function connect() {
    const source = new EventSource("/api/events");
    source.onopen = () => light(true);
    source.onerror = () => {
      light(false);
      if (source.readyState === EventSource.CLOSED) setTimeout(connect, 2000);
    };
    source.onmessage = (message) => {
      const event = JSON.parse(message.data);
      if (message.lastEventId) window.carolus.lastEventId = Number(message.lastEventId.split(".").pop());
      window.carolus.events += 1;
      if (event.kind === "hello") {
        list.replaceChildren();
        event.recent.forEach(announce);
        render(event.state);
      } else if (event.kind === "state") {
        if (event.state) render(event.state);  // a burst's earlier states come bare
      } else {
        announce(event);
      }
    };
  }

  Carolus.ready.then(connect);
})();
