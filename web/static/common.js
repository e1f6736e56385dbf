/* Carolus page basics: translations from the server's catalogs, the API with its CSRF
   token, and the connection light. Plain script, no build step. */
"use strict";

const Carolus = (() => {
  const csrf = document.querySelector('meta[name="csrf"]').content;
  let messages = {};

  /* A msgid in this browser's language, with %(name)s filled from params. */
  function t(msgid, params) {
    const text = messages[msgid] || msgid;
    return fill(text, params);
  }

  /* A msgid with a context (colour, castle, seat, letter). */
  function pt(context, msgid, params) {
    const text = messages[context + "\u0004" + msgid] || msgid;
    return fill(text, params);
  }

  function fill(text, params) {
    if (!params) return text;
    return text.replace(/%\((\w+)\)s/g, (all, name) => (name in params ? String(params[name]) : all));
  }

  const ready = fetch("/api/i18n", { credentials: "same-origin" })
    .then((r) => r.json())
    .then((data) => { messages = data.messages || {}; })
    .catch(() => {});

  /* Call the API; resolves to the JSON answer, rejects with the server's message. */
  async function api(path, body, method) {
    const options = { credentials: "same-origin", headers: { "X-CSRF-Token": csrf } };
    if (body !== undefined) {
      options.method = method || "POST";
      options.headers["Content-Type"] = "application/json";
      options.body = JSON.stringify(body);
    }
    const response = await fetch(path, options);
    let data = null;
    try { data = await response.json(); } catch (e) { data = null; }
    if (!response.ok) {
      const error = new Error((data && data.error) || response.statusText);
      error.status = response.status;
      throw error;
    }
    return data;
  }

  function light(ok) {
    const el = document.getElementById("link");
    if (!el) return;
    el.classList.toggle("down", !ok);
    el.title = ok ? t("Connected") : t("Reconnecting…");
  }

  /* An element with attributes and children (strings become text). */
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else node.setAttribute(key, value === true ? "" : value);
    }
    for (const child of children.flat()) {
      if (child === null || child === undefined) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  const languages = document.getElementById("lang-select");
  if (languages) languages.addEventListener("change", () => languages.form.submit());

  return { csrf, t, pt, ready, api, light, el };
})();
