// kgres review console: keyboard shortcuts. The pages work without this script; it only adds keys.
(function () {
  "use strict";
  function typing(e) {
    var t = e.target;
    return t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.tagName === "SELECT" || t.isContentEditable);
  }
  function click(id) {
    var el = document.getElementById(id);
    if (el) { el.click(); }
  }
  var page = document.body.getAttribute("data-page");
  var rows = Array.prototype.slice.call(document.querySelectorAll("table.queue tr[data-href]"));
  var at = rows.length ? 0 : -1;
  function select(i) {
    if (!rows.length) { return; }
    if (at >= 0) { rows[at].classList.remove("selected"); }
    at = Math.max(0, Math.min(rows.length - 1, i));
    rows[at].classList.add("selected");
    rows[at].scrollIntoView({block: "nearest"});
  }
  if (at === 0) { select(0); }
  document.addEventListener("keydown", function (e) {
    if (e.ctrlKey || e.metaKey || e.altKey) { return; }
    if (typing(e)) {
      if (e.key === "Escape") { e.target.blur(); }
      return;
    }
    if (e.key === "/") { e.preventDefault(); var s = document.getElementById("search"); if (s) { s.focus(); } return; }
    if (page === "pair") {
      var keys = {a: "accept", r: "reject", n: "unsure", s: "skip"};
      if (keys[e.key]) { e.preventDefault(); click(keys[e.key]); }
      else if (e.key === "c") { e.preventDefault(); document.getElementById("reason").focus(); }
    } else if (page === "queue") {
      if (e.key === "j" || e.key === "ArrowDown") { e.preventDefault(); select(at + 1); }
      else if (e.key === "k" || e.key === "ArrowUp") { e.preventDefault(); select(at - 1); }
      else if (e.key === "Enter" && at >= 0) { e.preventDefault(); window.location.href = rows[at].getAttribute("data-href"); }
    }
  });
})();
