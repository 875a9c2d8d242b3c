// Signing out ends this page's live stream before the page goes (found on a phone walk: the stream, cut by the
// sign-out, logged "[object Event]" errors, and its "end" asked /web/session, a 401, while the page left). The
// stream's extension closes its EventSource on the cleanup event, the element staying where it is.
document.addEventListener("submit", (event) => {
  const form = event.target;
  if (!(form instanceof HTMLFormElement) || form.getAttribute("action") !== "/web/sign-out" || !window.htmx) return;
  document.querySelectorAll("[sse-connect]").forEach((el) => htmx.trigger(el, "htmx:beforeCleanupElement"));
});
