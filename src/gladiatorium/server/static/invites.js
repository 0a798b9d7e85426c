// The page of a new match: focusing an invitation link selects it, ready to copy (a
// script file, as the Content-Security-Policy runs no inline handler).
document.addEventListener("focusin", (event) => {
  if (event.target instanceof HTMLInputElement && event.target.matches(".invite-link")) {
    event.target.select();
  }
});
