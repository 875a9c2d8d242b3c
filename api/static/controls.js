// The shared board controls (api/web/templates/_controls.html): a slider shows its value as it moves, a
// stepper's − and + buttons change its number within its bounds, and a button with ``data-random-for`` fills
// that field with a random value made in this browser (crypto.getRandomValues: 32 bytes as hex) before its
// form is sent, so a seat's seed (C-4) comes from its own machine; a name ticked in one of two lists marked
// ``data-apart`` alike cannot be ticked in the other. No inline script (CSP, issue 29).
(function () {
  document.addEventListener("input", (e) => {
    const el = e.target;
    if (el.type === "range" && el.dataset.output) {
      const out = document.getElementById(el.dataset.output);
      if (out) out.textContent = el.value;
    }
  });
  // Lists of the same names in one form whose fieldsets share a ``data-apart`` (a side and the side against it):
  // a name ticked in one is unticked and unavailable in the others, so nobody is on both.
  document.addEventListener("change", (e) => {
    const box = e.target;
    const group = box.type === "checkbox" ? box.closest("fieldset[data-apart]") : null;
    if (!group || !box.form) return;
    for (const other of box.form.querySelectorAll("fieldset[data-apart]")) {
      if (other === group || other.dataset.apart !== group.dataset.apart) continue;
      for (const twin of other.querySelectorAll("input[type=checkbox]")) {
        if (twin.value !== box.value) continue;
        if (box.checked) twin.checked = false;
        twin.disabled = box.checked;
      }
    }
  });
  document.addEventListener("click", (e) => {
    const random = e.target.closest("[data-random-for]");
    if (random) {
      const target = document.getElementById(random.dataset.randomFor);
      if (target) {
        const bytes = new Uint8Array(32);
        window.crypto.getRandomValues(bytes);
        target.value = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
      }
      return;  // a submit button: the form goes with the value just made
    }
    const button = e.target.closest("[data-step-for]");
    if (!button) return;
    const field = document.getElementById(button.dataset.stepFor);
    if (!field) return;
    const delta = Number(button.dataset.delta) || 0;
    const min = field.min === "" ? -Infinity : Number(field.min);
    const max = field.max === "" ? Infinity : Number(field.max);
    const next = Math.min(max, Math.max(min, (Number(field.value) || 0) + delta));
    field.value = String(next);
    field.dataset.touched = "1";
    field.dispatchEvent(new Event("change", { bubbles: true }));
  });
})();
