// The invite's Copy button (api/web/templates/_invite.html): copies the link's address, says so in words, and
// "Done" hides the invite. A file of its own: the Content-Security-Policy allows no inline script (issue 29).
(function () {
  function said(id, words) {
    const out = id && document.getElementById(id);
    if (out) out.textContent = words;
  }
  function fallback(text) {  // no clipboard API (a page served over plain HTTP on the local network)
    const area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.className = "offscreen";
    document.body.appendChild(area);
    area.select();
    let done = false;
    try { done = document.execCommand("copy"); } catch (e) { done = false; }
    area.remove();
    return done;
  }
  document.addEventListener("click", (e) => {
    const copy = e.target.closest("[data-copy]");
    if (copy) {
      const source = document.getElementById(copy.dataset.copy);
      if (!source) return;
      const text = source.href || source.value || source.textContent;
      const done = () => said(copy.dataset.copied, "Copied: paste it to the player.");
      const failed = () => said(copy.dataset.copied, fallback(text) ? "Copied: paste it to the player."
                                                               : "Could not copy: select the link and copy it by hand.");
      if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(text).then(done, failed);
      else failed();
      return;
    }
    const dismiss = e.target.closest("[data-dismiss]");
    if (dismiss) {
      const slot = document.getElementById(dismiss.dataset.dismiss);
      if (slot) slot.replaceChildren();
    }
  });
})();
