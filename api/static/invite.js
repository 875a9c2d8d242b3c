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
  // Say whose seat it opens before the player takes it: the code goes in a POST body (never a URL), nothing
  // is spent. The names are set as text, never as markup (user text is inert).
  const whose = document.getElementById("invite-whose");
  if (!whose) return;
  fetch("/web/invite/whose", {method: "POST", credentials: "same-origin",
                              headers: {"Content-Type": "application/x-www-form-urlencoded"},
                              body: new URLSearchParams({token: code.slice(0, 200)})})
    .then(function (answer) { return answer.json().then(function (body) { return [answer.ok, body]; }); })
    .then(function (found) {
      const ok = found[0], body = found[1];
      if (ok) {
        document.getElementById("signin-title").textContent = "Take " + body.character + "'s seat";
        whose.textContent = "The House invites you to play " + body.character + " in " + body.campaign + ".";
        const button = document.getElementById("signin-button");
        if (button) button.textContent = "Take " + body.character + "'s seat";
      } else {
        whose.textContent = body.detail || "This invite cannot be used.";
        whose.classList.add("error");
      }
      whose.hidden = false;
    })
    .catch(function () { /* offline or refused: the form still works as it is */ });
})();
