// The Copy buttons (the invite's link, _invite.html; a claimed seat's token, claimed.html): copy the source's
// address or value and say so in words (``data-copied-words``); the invite's "Done" hides the invite. A file of
// its own: the Content-Security-Policy allows no inline script (issue 29).
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
      const words = copy.dataset.copiedWords || "Copied: paste it to the player.";
      const done = () => said(copy.dataset.copied, words);
      const failed = () => said(copy.dataset.copied, fallback(text) ? words
                                                               : "Could not copy: select it and copy it yourself.");
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
