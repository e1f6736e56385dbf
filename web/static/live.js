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
    banner.textContent = illegal ? t("Not allowed (%(code)s): %(message)s", { ...illegal, code: pt("illegal", illegal.code) })
      : lost ? t("The camera lost the mat.") : "";
    showQuestion(state.table && state.table.question);
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
