// culprit's web view: the guided path's marks ("looks right"), kept in
// the browser's local storage under the trace's key, and what is left to
// inspect after them. No network access beyond this server.
"use strict";

(function () {
  var store = document.body.dataset.store || "culprit";
  var memory = {};

  function load() {
    try {
      return new Set(JSON.parse(localStorage.getItem(store) || "[]"));
    } catch (e) {
      return new Set(memory[store] || []);
    }
  }

  function save(marks) {
    var list = Array.from(marks);
    try {
      localStorage.setItem(store, JSON.stringify(list));
    } catch (e) {
      memory[store] = list;
    }
  }

  // reach returns the statements reachable from the failure through the
  // dependencies, never entering a statement in stop.
  function reach(rows, stop) {
    var seen = new Set();
    var queue = [];
    rows.forEach(function (r, key) {
      if (r.root && !stop.has(key)) {
        seen.add(key);
        queue.push(key);
      }
    });
    while (queue.length > 0) {
      var r = rows.get(queue.shift());
      if (!r) continue;
      r.deps.forEach(function (d) {
        if (!seen.has(d) && !stop.has(d) && rows.has(d)) {
          seen.add(d);
          queue.push(d);
        }
      });
    }
    return seen;
  }

  function guide(table) {
    var rows = new Map();
    table.querySelectorAll("tbody tr").forEach(function (tr) {
      var deps = [];
      try {
        deps = JSON.parse(tr.dataset.deps || "[]");
      } catch (e) {}
      rows.set(tr.dataset.key, { tr: tr, deps: deps, root: tr.dataset.root === "1" });
    });
    var summary = document.getElementById("summary");
    var executed = Number(summary.dataset.executed) || 0;

    function update() {
      var marks = load();
      var slice = reach(rows, new Set());
      var live = reach(rows, marks);
      var left = 0;
      rows.forEach(function (r, key) {
        var ok = marks.has(key);
        var cleared = !ok && slice.has(key) && !live.has(key);
        r.tr.classList.toggle("ok", ok);
        r.tr.classList.toggle("cleared", cleared);
        r.tr.querySelector("button").textContent = ok ? "undo" : "looks right";
        if (!ok && !cleared) left++;
      });
      document.getElementById("left").textContent = String(left);
      document.getElementById("share").textContent =
        executed > 0 ? (100 * left / executed).toFixed(1) + "%" : "–";
    }

    table.addEventListener("click", function (ev) {
      var b = ev.target.closest("button.ok-button");
      if (!b) return;
      var key = b.closest("tr").dataset.key;
      var marks = load();
      if (marks.has(key)) marks.delete(key); else marks.add(key);
      save(marks);
      update();
    });
    document.getElementById("reset").addEventListener("click", function () {
      save(new Set());
      update();
    });
    update();
  }

  function source() {
    var marks = load();
    document.querySelectorAll("table.src tr[data-key]").forEach(function (tr) {
      tr.classList.toggle("ok", marks.has(tr.dataset.key));
    });
  }

  var g = document.getElementById("guide");
  if (g) guide(g);
  source();
})();
