// Twenty-one's board (issue 31). Two small helpers, no inline script (CSP):
// - table cards (C-3): a deck or a reshuffle is entered by tapping the cards in the order they lie, top first;
//   each tap writes the order, comma separated, into the fieldset's hidden field and numbers the card. A live
//   refresh of the table keeps the cards tapped so far while the same cards are still to be entered.
// - laying: the cards ticked so far and their total (TO-4, TO-10), said as they are tapped.
(function () {
  "use strict";
  const ORDINAL = (n) => n + (n % 100 >= 11 && n % 100 <= 13 ? "th" : ["th", "st", "nd", "rd"][n % 10] || "th");

  function picked(set) {
    const field = set.querySelector("[data-ordered-value]");
    return field && field.value ? field.value.split(",") : [];
  }

  function draw(set, order) {
    set.querySelector("[data-ordered-value]").value = order.join(",");
    const status = set.querySelector("[data-ordered-status]");
    const count = Number(status.dataset.count) || 0;
    set.querySelectorAll("[data-ordered-card]").forEach((button) => {
      const at = order.indexOf(button.dataset.orderedCard);
      button.setAttribute("aria-pressed", at >= 0 ? "true" : "false");
      button.querySelector(".t21-pos").textContent = at >= 0 ? String(at + 1) : "";
      if (at >= 0) button.setAttribute("aria-label", `${button.dataset.name}, ${ORDINAL(at + 1)} from the top`);
      else button.removeAttribute("aria-label");
    });
    status.textContent = order.length === count
      ? `All ${count} entered, top first.`
      : `Tap the cards from the top down: ${order.length} of ${count} entered.`;
  }

  document.addEventListener("click", (e) => {
    const clear = e.target.closest("[data-ordered-clear]");
    if (clear) { draw(clear.closest("[data-ordered]"), []); return; }
    const button = e.target.closest("[data-ordered-card]");
    if (!button) return;
    const set = button.closest("[data-ordered]");
    const order = picked(set);
    const at = order.indexOf(button.dataset.orderedCard);
    if (at >= 0) order.splice(at, 1); else order.push(button.dataset.orderedCard);
    draw(set, order);
  });

  // a live refresh (the hx-get container swapping itself) keeps what was tapped, card by card
  const isRefresh = (detail) => detail.elt === detail.target;
  const key = (set) => `${set.closest("form") ? set.closest("form").dataset.action : ""}/${set.id}`;
  document.addEventListener("htmx:beforeSwap", (e) => {
    if (!isRefresh(e.detail)) return;
    const kept = {};
    e.detail.target.querySelectorAll("[data-ordered]").forEach((set) => {
      const order = picked(set);
      if (order.length) kept[key(set)] = order;
    });
    e.detail.target.__ordered = kept;
  });
  document.addEventListener("htmx:afterSwap", (e) => {
    const kept = e.detail.target.__ordered;
    delete e.detail.target.__ordered;
    if (!kept) return;
    e.detail.target.querySelectorAll("[data-ordered]").forEach((set) => {
      const order = kept[key(set)];
      if (!order) return;
      const offered = new Set(Array.from(set.querySelectorAll("[data-ordered-card]"), (b) => b.dataset.orderedCard));
      draw(set, order.filter((card) => offered.has(card)));
    });
  });

  // laying: what the ticked cards make (TO-4, TO-10: one ace counts 11 while that keeps the total at 21 or less)
  const value = (code) => { const r = code.slice(0, -1); return r === "A" ? 1 : "JQK".includes(r) ? 10 : Number(r); };
  function total(codes) {
    const hard = codes.reduce((sum, c) => sum + value(c), 0);
    return codes.some((c) => c.startsWith("A")) && hard + 10 <= 21 ? hard + 10 : hard;
  }
  // The cards are laid in the order tapped: the last tapped is the last card laid, the one an assist, a hinder
  // or a hold replaces (TO-7, TO-8); a phone walk found the hand's order decided it.
  const tapped = (form) => {
    const checked = Array.from(form.querySelectorAll("input[name='cards']:checked"), (i) => i.value);
    const order = (form.__tapped || []).filter((c) => checked.includes(c));
    return [...order, ...checked.filter((c) => !order.includes(c))];
  };
  const named = (code) => { const r = code.slice(0, -1), s = code.slice(-1); return r + { S: "♠", H: "♥", D: "♦", C: "♣" }[s]; };
  document.addEventListener("change", (e) => {
    const form = e.target.closest && e.target.closest("form[data-action='lay']");
    if (!form || e.target.name !== "cards") return;
    const order = (form.__tapped || []).filter((c) => c !== e.target.value);
    if (e.target.checked) order.push(e.target.value);
    form.__tapped = order;
    const preview = form.querySelector("[data-lay-preview]");
    if (!preview) return;
    const want = Number(form.dataset.count) || 0;
    const codes = tapped(form);
    if (codes.length < want) preview.textContent = `Tap ${want - codes.length} more.`;
    else if (codes.length > want) preview.textContent = `Only ${want}: untick one.`;
    else if (want === 1) preview.textContent = "The deck makes up the second card.";
    else preview.textContent = `These make ${total(codes)}` + (total(codes) === 21 ? ": a natural 21 (TO-5)" : "") +
      `; ${named(codes[codes.length - 1])}, tapped last, is the last card laid.`;
  });
  document.addEventListener("htmx:configRequest", (e) => {
    const form = e.detail.elt;
    if (!form || form.tagName !== "FORM" || form.dataset.action !== "lay" || !e.detail.formData) return;
    const order = tapped(form);
    e.detail.formData.delete("cards");
    order.forEach((c) => e.detail.formData.append("cards", c));
  });
})();
