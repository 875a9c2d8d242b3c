// C-4: a seed drawn in this browser, not by the server. A submit button with data-random-seed="ID" puts 128
// random bits (crypto.getRandomValues) into the text field ID just before its form is sent; words the seat
// typed there are kept in front of them. No inline script (CSP, issue 29).
(function () {
  document.addEventListener("click", (e) => {
    const button = e.target.closest("[data-random-seed]");
    if (!button) return;
    const field = document.getElementById(button.dataset.randomSeed);
    if (!field) return;
    const bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    const random = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
    const words = field.value.trim();
    field.value = words ? `${words} ${random}` : random;
  }, true);
})();
