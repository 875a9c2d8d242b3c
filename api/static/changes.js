// What a live refresh changed is marked for a moment (issue 31: "the reveal shown as a change"). Every swap
// morphs the board (ADR 0038), so a die, a card or a pool that did not change is the same node before and
// after; one that is new, or whose words changed (a die back turned to its face, a pool that grew), gets the
// class ``changed`` for 1.5 s, which web.css draws as a fading ring (an outline, without motion, for a seat
// that asks for reduced motion). What is compared is what a screen reader reads: ``aria-label`` of the
// images (dice, cards, pools) the boards draw.
(function () {
  "use strict";
  const SHOWN = "[role=img][aria-label]";
  document.addEventListener("htmx:beforeSwap", (e) => {
    const before = new Map();
    e.detail.target.querySelectorAll(SHOWN).forEach((el) => before.set(el, el.getAttribute("aria-label")));
    e.detail.target.__shownBefore = before;
  });
  document.addEventListener("htmx:afterSwap", (e) => {
    const before = e.detail.target.__shownBefore;
    delete e.detail.target.__shownBefore;
    if (!before || !before.size) return;  // the first drawing of a table marks nothing
    e.detail.target.querySelectorAll(SHOWN).forEach((el) => {
      if (before.get(el) === el.getAttribute("aria-label")) return;
      el.classList.add("changed");
      window.setTimeout(() => el.classList.remove("changed"), 1500);
    });
  });
})();
