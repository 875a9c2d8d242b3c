// A live refresh re-renders the table (or the campaign panel) while a seat may be filling in a move.
// What that seat typed, picked or ticked survives the refresh: inputs the seat touched are remembered
// before an SSE-driven swap and put back into the same form (same data-action / data-verb) after it.
// A seat's own submission is not restored: its answer is the new state. The answer a command drew on the
// campaign page (``#answer``) is kept across those refreshes too.
(function () {
  const touched = (el) => el.dataset && el.dataset.touched === "1";
  document.addEventListener("input", (e) => { if (e.target.form) e.target.dataset.touched = "1"; }, true);
  document.addEventListener("change", (e) => { if (e.target.form) e.target.dataset.touched = "1"; }, true);

  // a form the seat sends is no longer being filled in: a refresh that lands before its answer leaves it be
  document.addEventListener("htmx:beforeRequest", (e) => {
    // what an earlier refusal left for a swap that never came is not this request's
    if (e.detail.target) { delete e.detail.target.__sent; delete e.detail.target.__refused; }
    const form = e.detail.elt;
    if (form && form.tagName === "FORM") {
      for (const el of form.elements) {
        if (!el.dataset) continue;
        if (el.dataset.touched === "1") el.dataset.sent = "1";  // typed and sent: gone once the move is taken
        delete el.dataset.touched;
      }
    }
  });

  // ``data-key`` tells apart forms of one move or command (one per character, say)
  const formKey = (form) => form.dataset.key || form.dataset.action || form.dataset.verb || "";
  // the hx-get container refreshed, or a form posted into a container (its own inputs lost their marks as sent)
  const isRefresh = (detail) => detail.elt === detail.target;

  // A move or command the server refused (a 4xx, drawn with its reason): what the seat sent is put back into
  // the same form, the form stays unfolded, and the reason is brought into view and focused (a phone shows
  // little of the page: a reason drawn above the screen would look like nothing happened).
  const sentForm = (detail) => {
    const source = (detail.requestConfig && detail.requestConfig.elt) || detail.elt;
    return source && source.tagName === "FORM" ? source : null;
  };
  document.addEventListener("htmx:beforeSwap", (e) => {
    const form = sentForm(e.detail);
    // a refusal the page draws (4xx); a 5xx is not swapped (base.html's responseHandling), so nothing is kept
    if (!form || !e.detail.xhr || e.detail.xhr.status < 400 || e.detail.xhr.status >= 500 || !e.detail.shouldSwap) return;
    const kept = [];
    for (const el of form.elements) {
      if (!el.name || el.type === "hidden" || el.type === "submit" || el.type === "button") continue;
      kept.push({ form: formKey(form), name: el.name, type: el.type, value: el.value, checked: el.checked });
    }
    e.detail.target.__sent = kept;
    e.detail.target.__refused = true;
  });

  document.addEventListener("htmx:beforeSwap", (e) => {
    if (!isRefresh(e.detail)) return;
    const kept = [];
    e.detail.target.querySelectorAll("form input, form select, form textarea").forEach((el) => {
      if (!touched(el) || el.type === "hidden") return;
      // a form whose own post is still under way: its answer is the new state, even when the refresh comes first
      if (el.form.classList.contains("htmx-request")) return;
      kept.push({ form: formKey(el.form), name: el.name, type: el.type, value: el.value, checked: el.checked });
    });
    e.detail.target.__kept = kept;
    // a command the seat unfolded stays unfolded
    e.detail.target.__open = Array.from(e.detail.target.querySelectorAll("details[data-verb]"))
      .filter((d) => d.open).map((d) => d.dataset.verb);
    // the answer to the seat's last command stays until its next command (the command itself is logged, so
    // its own frame refreshes the panel a moment after the answer arrived)
    const answer = e.detail.target.querySelector("[data-answer]");
    e.detail.target.__answer = answer && answer.innerHTML.trim() ? answer.innerHTML : null;
  });

  // A move or ruling the server took (2xx to a form's own post): the table is a new state, so a text the seat
  // typed for the old one (a reason, a note) is not left in its box: a morph keeps a box's typed value (the
  // House's undo reason stayed there after the undo it was for, found on a phone walk). Only texts the seat typed
  // or sent go; what the page's own scripts keep (steppers, pickers) is theirs.
  const typed = (el) => (el.type === "text" || el.tagName === "TEXTAREA") && el.dataset &&
    (el.dataset.touched === "1" || el.dataset.sent === "1");
  document.addEventListener("htmx:beforeSwap", (e) => {
    const form = sentForm(e.detail);
    if (form && e.detail.xhr && e.detail.xhr.status < 300) e.detail.target.__took = true;
  });
  document.addEventListener("htmx:afterSwap", (e) => {
    if (!e.detail.target.__took) return;
    delete e.detail.target.__took;
    // no text typed for the old state is put back by the handler below
    const kept = e.detail.target.__kept;
    if (kept) e.detail.target.__kept = kept.filter((k) => k.type !== "text" && k.type !== "textarea");
    e.detail.target.querySelectorAll("form input, form textarea").forEach((el) => {
      if (!typed(el)) return;
      el.value = el.defaultValue;
      delete el.dataset.touched;
      delete el.dataset.sent;
    });
  });

  document.addEventListener("htmx:afterSwap", (e) => {
    if (!e.detail.target.__refused) return;
    delete e.detail.target.__refused;
    const reason = e.detail.target.querySelector("[role=alert]");
    if (!reason) return;
    if (!reason.hasAttribute("tabindex")) reason.setAttribute("tabindex", "-1");
    reason.scrollIntoView({ block: "center" });
    reason.focus({ preventScroll: true });
  });

  document.addEventListener("htmx:afterSwap", (e) => {
    const kept = [...(e.detail.target.__kept || []), ...(e.detail.target.__sent || [])];
    delete e.detail.target.__sent;
    const open = e.detail.target.__open || [];
    const answer = e.detail.target.__answer;
    delete e.detail.target.__kept;
    delete e.detail.target.__open;
    delete e.detail.target.__answer;
    const slot = e.detail.target.querySelector("[data-answer]");
    if (answer && slot && !slot.innerHTML.trim()) {
      slot.innerHTML = answer;  // the server's own markup, as it was drawn
      if (window.htmx) window.htmx.process(slot);
    }
    e.detail.target.querySelectorAll("details[data-verb]").forEach((d) => {
      if (open.includes(d.dataset.verb)) d.open = true;
    });
    if (!kept || !kept.length) return;
    // a key more than one form shares (one per row of a list) says no form for sure: nothing is put back
    // rather than a value typed into one row landing in another's box
    const forms = new Map();
    const shared = new Set();
    e.detail.target.querySelectorAll("form").forEach((f) => {
      const key = formKey(f);
      if (forms.has(key)) shared.add(key);
      forms.set(key, f);
    });
    shared.forEach((key) => forms.delete(key));
    for (const k of kept) {
      const form = forms.get(k.form);
      if (!form) continue;  // the move is no longer offered
      for (const el of form.elements) {
        if (el.name !== k.name || el.type !== k.type) continue;
        if (el.type === "checkbox" || el.type === "radio") {
          if (el.value === k.value) { el.checked = k.checked; el.dataset.touched = "1"; }
        } else { el.value = k.value; el.dataset.touched = "1"; }
      }
    }
  });
})();
