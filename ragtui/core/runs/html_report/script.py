"""The report's one script: the dialogue list's filters, search and sorting, kept in the page's
address (``#scenario=…&q=…&sort=…``) so a link reopens the same view, and links to a dialogue
(``#d12``) that open it. It reads only the page's own elements and writes only ``hidden``,
``open``, the order of the list, a count and the address's fragment: no network, no markup
(``textContent`` only), no inline handler — the Content-Security-Policy allows it by its hash."""

from __future__ import annotations

SCRIPT = """
(function () {
  "use strict";
  function el(id) { return document.getElementById(id); }
  var list = el("dlgs"), shown = el("shown");
  var selects = {scenario: el("f-scenario"), persona: el("f-persona"), outcome: el("f-outcome"), sort: el("f-sort")};
  var failed = el("f-failed"), search = el("f-search");
  if (!list || !shown || !failed || !search || !selects.scenario || !selects.persona || !selects.outcome ||
      !selects.sort) { return; }
  var rows = Array.prototype.slice.call(list.querySelectorAll("details.dlg"));
  var texts = rows.map(function (row) { return row.textContent.toLowerCase(); });
  var keys = {scenario: "s", persona: "p", outcome: "o"};

  function number(row, name) { var v = row.dataset[name]; return v === "" ? -1 : Number(v); }
  var orders = {
    "": function (a, b) { return number(a, "id") - number(b, "id"); },
    "score": function (a, b) { return number(a, "score") - number(b, "score") || number(a, "id") - number(b, "id"); },
    "-score": function (a, b) { return number(b, "score") - number(a, "score") || number(a, "id") - number(b, "id"); },
    "scenario": function (a, b) {
      return number(a, "s") - number(b, "s") || number(a, "p") - number(b, "p") || number(a, "t") - number(b, "t") ||
        number(a, "id") - number(b, "id");
    }
  };

  function apply() {
    var words = search.value.toLowerCase().split(/\\s+/).filter(Boolean);
    var count = 0;
    rows.forEach(function (row, i) {
      var ok = Object.keys(keys).every(function (name) {
        return !selects[name].value || row.dataset[keys[name]] === selects[name].value;
      }) && (!failed.checked || row.dataset.f === "1") &&
        words.every(function (word) { return texts[i].indexOf(word) >= 0; });
      row.hidden = !ok;
      if (ok) { count += 1; }
    });
    var order = orders[selects.sort.value] || orders[""];
    rows.slice().sort(order).forEach(function (row) { list.appendChild(row); });
    shown.textContent = count + " of " + rows.length + " dialogue(s) shown";
  }

  // The view in the address: selects by the name they show, so a link reads as what it shows.
  function state() {
    var params = new URLSearchParams();
    ["scenario", "persona", "outcome"].forEach(function (name) {
      var select = selects[name];
      if (select.value) { params.set(name, select.options[select.selectedIndex].textContent); }
    });
    if (failed.checked) { params.set("failed", "1"); }
    if (search.value) { params.set("q", search.value); }
    if (selects.sort.value) { params.set("sort", selects.sort.value); }
    return params.toString();
  }
  function remember() {
    var hash = state();
    var url = location.href.split("#")[0] + (hash ? "#" + hash : "");
    try { history.replaceState(null, "", url); } catch (e) { location.replace("#" + hash); }
  }
  function restore(hash) {
    var params = new URLSearchParams(hash);
    ["scenario", "persona", "outcome", "sort"].forEach(function (name) {
      var select = selects[name], wanted = params.get(name) || "";
      select.value = "";
      Array.prototype.forEach.call(select.options, function (option) {
        if (wanted && (name === "sort" ? option.value : option.textContent) === wanted) { select.value = option.value; }
      });
    });
    failed.checked = params.get("failed") === "1";
    search.value = params.get("q") || "";
  }
  function clearFilters() { restore(""); }

  // A link to a dialogue (#d12) opens it; when the filters hide it, they are cleared to show it.
  function openDialogue(id) {
    var row = el(id);
    if (!row || rows.indexOf(row) < 0) { return false; }
    if (row.hidden) { clearFilters(); apply(); }
    row.open = true;
    row.scrollIntoView();
    return true;
  }
  function follow() {
    var hash = location.hash.slice(1);
    if (/^d\\d+$/.test(hash)) { if (!openDialogue(hash)) { apply(); } return; }
    restore(hash);
    apply();
  }

  [selects.scenario, selects.persona, selects.outcome, selects.sort, failed].forEach(function (control) {
    control.addEventListener("change", function () { apply(); remember(); });
  });
  search.addEventListener("input", function () { apply(); remember(); });
  window.addEventListener("hashchange", follow);
  follow();
})();
"""
