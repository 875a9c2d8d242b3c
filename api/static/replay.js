// The replay viewer: a step slider and keys, rewinds and overturns as branches, dice as dice; and the
// verify panel, which derives the drawn results again in the browser (fairness.js).
"use strict";
(function () {
  const replay = JSON.parse(document.getElementById("replay-data").textContent);
  const report = JSON.parse(document.getElementById("verify-data").textContent);
  const names = JSON.parse(document.getElementById("names-data").textContent);
  const who = (seat) => names[seat] || seat;
  const steps = replay.steps;
  // Hashes, commitments and seeds are for the verify panel below, not for the story of the table (issue 31).
  const SECRET = /(^|_)(hash|hashes|nonce|commitment|commitments)$|^(secret_seed|side_seeds|seed_hash)$/;
  // Ids are the program's, not the table's: "What was recorded" leaves them out. A seat (a value or a key that
  // is exactly a seat's handle) is said by its name, wherever the event records it.
  const ID = /(^|_)id$/;
  const isSeat = (v) => typeof v === "string" && Object.prototype.hasOwnProperty.call(names, v);
  const slider = document.getElementById("step");
  const FACES = "⚀⚁⚂⚃⚄⚅";

  const el = (tag, attrs = {}, ...children) => {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    for (const c of children) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
    return node;
  };
  const isDie = (v) => v && typeof v === "object" && !Array.isArray(v) && "value" in v &&
    (v.value === null || Number.isInteger(v.value));
  const CARD = /^(10|[2-9JQKA])([SHDC])$/;

  // A die of six faces is drawn as its pips; any other (a d10, a cut) as its number, and so is every die of a
  // list that holds one above 6, so that a list never mixes pips and numbers.
  function die(value, note, faces = 6) {
    if (faces === 6 && Number.isInteger(value) && value >= 1 && value <= 6)
      return el("span", { class: "die", role: "img", "aria-label": `die showing ${value}${note ? ", " + note : ""}` },
                FACES[value - 1]);
    if (value === null) return el("span", { class: "die hidden", role: "img", "aria-label": "hidden die" }, "?");
    return el("span", { class: "die big", role: "img", "aria-label": `die showing ${value}${note ? ", " + note : ""}` },
              value);
  }

  function showDie(value, faces) {
    const flags = Object.entries(value).filter(([k, v]) => k !== "value" && v === true).map(([k]) => k.replace(/_/g, " "));
    const span = el("span", {}, die(value.value, flags.join(", "), faces));
    if (flags.length) span.append(el("small", { class: "flag" }, flags.join(", ")));
    return span;
  }

  function show(value, key = "") {
    const dicey = key.includes("dice") || ["cup", "revealed", "kept", "rolled", "value"].includes(key);
    if (Array.isArray(value)) {
      if (!value.length) return el("span", { class: "none" }, "—");
      if (value.every(isDie) || (dicey && value.every((v) => Number.isInteger(v) || v === null))) {
        const faces = value.some((v) => (isDie(v) ? (v.faces || 6) !== 6 || v.value > 6 : v > 6)) ? 0 : 6;
        return el("span", { class: "dice" }, ...value.map((v) => isDie(v) ? showDie(v, faces) : die(v, "", faces)));
      }
      if (value.every((v) => typeof v === "string" && CARD.test(v)))
        return el("span", { class: "cards" }, ...value.map((v) => {
          const m = CARD.exec(v);
          return el("span", { class: "card" + ("HD".includes(m[2]) ? " red" : "") }, m[1] + { S: "♠", H: "♥", D: "♦", C: "♣" }[m[2]]);
        }));
      if (value.every((v) => v === null || typeof v !== "object"))
        return document.createTextNode(value.map((v) => isSeat(v) ? who(v) : v).join(", "));
      return el("ol", { class: "items" }, ...value.map((v) => el("li", {}, show(v))));
    }
    if (value && typeof value === "object") {
      if (isDie(value)) return showDie(value, value.faces || 6);
      const entries = Object.entries(value).filter(([k]) => !SECRET.test(k) && !ID.test(k));
      if (!entries.length) return el("span", { class: "none" }, "—");
      return el("dl", { class: "kv" }, ...entries.map(([k, v]) => el("div", {}, el("dt", {}, isSeat(k) ? who(k) : k.replace(/_/g, " ")), el("dd", {}, show(v, k)))));
    }
    if (value === null || value === undefined) return el("span", { class: "none" }, "—");
    if (typeof value === "boolean") return document.createTextNode(value ? "yes" : "no");
    if (dicey && Number.isInteger(value)) return die(value);
    return document.createTextNode(isSeat(value) ? who(value) : String(value));
  }

  // Rewinds and overturns: each is a branch, with who undid what and why (C-6).
  const branches = document.getElementById("branches");
  for (const s of steps) {
    const reason = s.detail && s.detail.reason;
    if (s.event === "Rewound") {
      const to = s.detail.to_step;
      const gone = s.step - 1 === to + 1 ? `step ${to + 1} was undone` : `steps ${to + 1} to ${s.step - 1} were undone`;
      branches.append(el("li", { class: "branch" }, `Step ${s.step}: ${who(s.actor)} undid the table back to step ${to}` +
        ` — ${gone}` + (reason ? ` (“${reason}”)` : "")));
    } else if (s.event === "Overturned") {
      branches.append(el("li", { class: "branch" }, `Step ${s.step}: ${who(s.actor)} overturned the result` +
        (reason ? ` (“${reason}”)` : "")));
    }
  }
  if (branches.children.length)  // the table's history as a whole, not the step shown above
    branches.before(el("h2", { class: "branches-title", id: "branches-title" }, "Undos and overturns in this table's history"));
  const undone = new Set();
  for (const s of steps) if (s.event === "Rewound") for (let i = s.detail.to_step + 1; i < s.step; i++) undone.add(i);

  // The board as it stood after a step: the system's own board, drawn by the server as this seat may see it
  // then (C-5), fetched as the slider moves; the last one asked for is the one shown.
  const boardBox = document.getElementById("step-state");
  const boards = new Map();
  let wanted = 0;
  function board(step) {
    wanted = step;
    document.getElementById("step-board-step").textContent = String(step);
    boardBox.setAttribute("aria-busy", "true");
    let found = boards.get(step);
    if (!found) {
      found = fetch(`/web/units/${boardBox.dataset.unit}/replay/${step}`, { credentials: "same-origin" })
        .then((r) => r.ok ? r.text() : Promise.reject(new Error(String(r.status))));
      boards.set(step, found);
      found.catch(() => boards.delete(step));
    }
    found.then((html) => {
      if (wanted !== step) return;
      boardBox.innerHTML = html;  // the server's own escaped markup (autoescaped templates)
      boardBox.setAttribute("aria-busy", "false");
    }, () => {
      if (wanted !== step) return;
      boardBox.replaceChildren(el("p", { class: "meta" }, "The table of this step could not be fetched; try again."));
      boardBox.setAttribute("aria-busy", "false");
    });
  }

  let timer = null;
  function render(index) {
    const s = steps[index];
    slider.value = String(index + 1);
    document.getElementById("step-label").textContent = String(index + 1);
    // the server's words for the step (the system's board says whose it was: WebBoard.step_words)
    const head = el("p", {}, el("strong", { "data-event": s.event }, s.words),
                    ` at ${new Date(s.at).toLocaleTimeString()}`);
    if (undone.has(s.step)) head.append(el("span", { class: "undone" }, " — undone by a later rewind"));
    const box = document.getElementById("step-event");
    box.replaceChildren(head);
    document.getElementById("step-board-words").textContent = s.words;  // said again above the board (aria-hidden)
    const shown = Object.keys(s.detail || {}).filter((k) => !SECRET.test(k) && !ID.test(k));
    if (shown.length) box.append(el("details", { class: "recorded" }, el("summary", {}, "What was recorded"), show(s.detail)));
    if (s.hidden.length) box.append(el("p", { class: "meta" }, s.hidden.includes("*")
      ? "This step is hidden from your seat until the unit is settled."
      : `Hidden from your seat: ${s.hidden.map((k) => k.replace(/_/g, " ")).join(", ")}`));
    clearTimeout(timer);  // a slider dragged across many steps fetches the one it stops at
    timer = setTimeout(() => board(s.step), boards.has(s.step) ? 0 : 120);
  }
  const go = (index) => render(Math.max(0, Math.min(steps.length - 1, index)));
  const current = () => Number(slider.value) - 1;
  // On a phone the board of the step is below the controls: a tap of Back or Next brings it into view (its
  // heading says which step, and what happened in it), so the tap is seen to do something.
  const boardSection = document.getElementById("step-board");
  function tapped(index) {
    go(index);
    const top = boardSection.getBoundingClientRect().top;
    if (window.matchMedia("(max-width: 720px)").matches && (top > window.innerHeight * 0.5 || top < -2)) {
      boardSection.scrollIntoView({ block: "start" });
    }
  }
  slider.addEventListener("input", () => go(current()));
  document.getElementById("prev").addEventListener("click", () => tapped(current() - 1));
  document.getElementById("next").addEventListener("click", () => tapped(current() + 1));
  document.addEventListener("keydown", (e) => {
    if (["INPUT", "TEXTAREA", "SELECT"].includes(e.target.tagName) && e.target !== slider) return;
    const moves = { ArrowLeft: current() - 1, ArrowRight: current() + 1, Home: 0, End: steps.length - 1 };
    if (e.key in moves && e.target !== slider) { e.preventDefault(); go(moves[e.key]); }
  });
  go(0);

  // The verify panel.
  document.getElementById("verify-run").addEventListener("click", () => {
    const out = document.getElementById("verify-result");
    const list = document.getElementById("verify-list");
    list.replaceChildren();
    if (!report.verifiable) { out.textContent = `Not yet: ${report.reason}.`; return; }
    const checks = StakesFairness.verifyAll(report);
    const hash = document.getElementById("verify").dataset.commitment || null;
    const committed = hash ? StakesFairness.commitment(report.secret_seed) === hash : null;
    // A slot in words: its parts joined, a side (or a seat) by who plays it, a seed in it (a long hex text) cut to
    // its first 8 characters; the slot itself, as fairness.md derives from it, is the item's title.
    const sideNames = JSON.parse((document.getElementById("sides-data") || {}).textContent || "{}");
    const part = (p) => typeof p !== "string" ? String(p)
      : Object.prototype.hasOwnProperty.call(sideNames, p) ? sideNames[p] : isSeat(p) ? who(p)
      : /^[0-9a-f]{16,}$/.test(p) ? p.slice(0, 8) + "…" : p;
    const slotWords = (slot) => slot.map(part).join(" · ");
    // a draw in the table's own words where its system gives them (``WebBoard.draw_words``), else drawn here
    const result = (c, words) => words ? el("span", { class: "drawn" }, words) : Array.isArray(c.recorded) ? show(c.recorded)
      : c.faces === 6 ? die(c.recorded) : el("span", { class: "die big", role: "img", "aria-label": `d${c.faces} showing ${c.recorded}` }, c.recorded);
    checks.forEach((c, i) => {
      const r = report.results[i] || {};
      list.append(el("li", { class: c.ok ? "ok" : "bad" }, `Draw ${i + 1}: `, result(c, r.words),
        r.taken_back ? " (taken back by an undo)" : r.abandoned ? " (would have been drawn: abandoned)" : "",
        c.entered ? " entered at the table" : c.ok ? " — the same in your browser" : ` — your browser derived ${JSON.stringify(c.derived)}`,
        el("small", { class: "slot", title: JSON.stringify(c.slot) },
           ` (${(report.results[i] || {}).where || "slot " + slotWords(c.slot)})`)));
    });
    const derived = checks.filter((c) => !c.entered);
    const bad = derived.filter((c) => !c.ok).length;
    // The server also checks what its own rules derive from these draws:
    // it agrees when it found exactly the mismatches this browser found among the same draws.
    const agrees = bad === report.mismatches.length && derived.length === (report.results || []).filter((r) => !r.entered).length;
    out.textContent = `${derived.length} ${derived.length === 1 ? "result" : "results"} derived in your browser, ` +
      `${bad} ${bad === 1 ? "mismatch" : "mismatches"}` +
      (committed === null ? "" : committed ? "; the seed matches its commitment" : "; the seed does NOT match its commitment") +
      (agrees ? ". The server agrees." : ". The server reported otherwise!");
    out.dataset.derived = String(derived.length);
    out.dataset.mismatches = String(bad);
    out.dataset.agrees = String(agrees && committed !== false);
  });
})();
