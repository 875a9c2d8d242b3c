// An invite link carries its one-time code in the URL fragment (/web/invite#inv_…): the browser never sends
// a fragment to the server, so the unspent code lands in no access log (issue 29). Fill the sign-in form with
// it, and drop it from the address bar and the history. Nothing is claimed until the player sends the form.
(function () {
  let code = window.location.hash.slice(1);
  try { code = decodeURIComponent(code).trim(); } catch (e) { code = code.trim(); }  // a malformed escape
  if (!code) return;
  history.replaceState(null, "", window.location.pathname);
  const field = document.getElementById("token");
  if (field) field.value = code.slice(0, 200);
})();
