// layout.js lists what a person could not read on the page shown: boxes
// of the layout that overlap, text that runs out of its box, a page wider
// than the window. The browser test evaluates it at several widths and
// fails on any line it returns.
(() => {
  // The boxes: the header, main's blocks, the columns of the source view
  // and their parts (a file's listing, its invariants), the panel's parts.
  const boxes = [];
  const selectors = ["header", "main > *", ".layout > *", ".layout > .files > *", ".filebody > *", "#panel > *", ".contracts > *"];
  const shown = e => {
    const r = e.getBoundingClientRect(), cs = getComputedStyle(e);
    return r.width > 0 && r.height > 0 && cs.visibility !== "hidden" && cs.display !== "none";
  };
  for (const s of selectors) {
    for (const e of document.querySelectorAll(s)) {
      if (shown(e) && !boxes.includes(e)) boxes.push(e);
    }
  }
  const name = e => {
    let n = e.tagName.toLowerCase();
    if (e.id) n += "#" + e.id;
    if (typeof e.className === "string" && e.className.trim()) n += "." + e.className.trim().split(/\s+/).join(".");
    const t = (e.textContent || "").trim().replace(/\s+/g, " ");
    return t ? `${n} "${t.slice(0, 30)}"` : n;
  };
  const box = e => {
    const r = e.getBoundingClientRect();
    return { l: r.left + scrollX, t: r.top + scrollY, r: r.right + scrollX, b: r.bottom + scrollY };
  };
  const problems = [];
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i], b = boxes[j];
      if (a.contains(b) || b.contains(a)) continue;
      const p = box(a), q = box(b);
      const w = Math.min(p.r, q.r) - Math.max(p.l, q.l), h = Math.min(p.b, q.b) - Math.max(p.t, q.t);
      if (w > 1 && h > 1) problems.push(`${name(a)} and ${name(b)} overlap (${Math.round(w)}x${Math.round(h)} px)`);
    }
  }
  // Text runs out of its box when it reaches past the box's sides, unless
  // a box on the way scrolls (or clips) its content itself.
  const scrolls = e => getComputedStyle(e).overflowX !== "visible";
  for (const p of boxes) {
    if (scrolls(p)) continue;
    const pb = box(p);
    for (const e of p.querySelectorAll("*")) {
      if (![...e.childNodes].some(n => n.nodeType === Node.TEXT_NODE && n.textContent.trim()) || !shown(e)) continue;
      let inner = false;
      for (let x = e; x && x !== p; x = x.parentElement) {
        if (x !== e && scrolls(x)) { inner = true; break; }
      }
      if (inner) continue;
      const eb = box(e);
      const out = Math.max(eb.r - pb.r, pb.l - eb.l);
      if (out > 1) {
        problems.push(`the text of ${name(e)} runs ${Math.round(out)} px out of ${name(p)}`);
        break;
      }
    }
  }
  const wide = document.documentElement.scrollWidth;
  if (wide > innerWidth + 1) problems.push(`the page is ${wide} px wide in a ${innerWidth} px window`);
  return problems;
})()
