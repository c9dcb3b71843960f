// The script embedded in exported SVGs: click to zoom, Reset Zoom, search with "Matched: X%",
// details of the hovered frame. It reads frames from their fv:* attributes (depth, start and
// total in weight units) and names only through textContent: it never parses markup from a
// name (no innerHTML), so a hostile frame name stays text. Plain ES5 for any SVG viewer.
//
// The text below is placed inside <![CDATA[ … ]]>: it must never contain "]]>".

export const SVG_SCRIPT = String.raw`
"use strict";
var svg, frames, details, matchedText, unzoomBtn, searchBtn, xpad, widthPx, fontSize, fontWidth;
var matchRgb = "rgb(230,0,230)", searching = null, zoomed = null;
function init(evt) {
  svg = document.documentElement;
  frames = [];
  var gs = svg.getElementsByTagName("g");
  for (var i = 0; i < gs.length; i++) {
    var g = gs[i];
    if (g.getAttribute("class") !== "f") continue;
    var title = g.getElementsByTagName("title")[0].textContent;
    g.fvIndex = frames.length;
    frames.push({
      g: g, rect: g.getElementsByTagName("rect")[0], text: g.getElementsByTagName("text")[0],
      d: +g.getAttribute("fv:d"), x: +g.getAttribute("fv:x"), t: +g.getAttribute("fv:t"),
      title: title, name: title.replace(/ \([^()]*\)$/, ""), fill: null
    });
  }
  details = document.getElementById("details").firstChild;
  matchedText = document.getElementById("matched").firstChild;
  unzoomBtn = document.getElementById("unzoom");
  searchBtn = document.getElementById("search");
  xpad = +svg.getAttribute("fv:xpad");
  widthPx = +svg.getAttribute("fv:graphwidth");
  fontSize = +svg.getAttribute("fv:fontsize");
  fontWidth = +svg.getAttribute("fv:fontwidth");
  svg.addEventListener("click", onClick, false);
  svg.addEventListener("mouseover", function (e) {
    var f = frameOf(e.target);
    if (f) details.nodeValue = "Function: " + f.title;
  }, false);
  svg.addEventListener("mouseout", function (e) {
    if (frameOf(e.target)) details.nodeValue = " ";
  }, false);
  window.addEventListener("keydown", function (e) {
    if (e.keyCode === 114 || ((e.ctrlKey || e.metaKey) && e.keyCode === 70)) { e.preventDefault(); searchPrompt(); }
    else if (e.keyCode === 27) { resetSearch(); }
  }, false);
  var initial = svg.getAttribute("fv:search");
  if (initial) search(initial);
}
function frameOf(node) {
  for (; node && node !== svg; node = node.parentNode) {
    if (typeof node.fvIndex === "number") return frames[node.fvIndex];
  }
  return null;
}
function onClick(e) {
  var f = frameOf(e.target);
  if (f) { zoom(f); return; }
  var id = e.target && e.target.id;
  if (id === "unzoom") unzoom();
  else if (id === "search") { if (searching !== null) resetSearch(); else searchPrompt(); }
}
function place(f, x, w) {
  f.rect.setAttribute("x", x.toFixed(1));
  f.rect.setAttribute("width", w.toFixed(1));
  f.text.setAttribute("x", (x + 3).toFixed(2));
  var chars = Math.floor((w - 6) / (fontSize * fontWidth));
  var label = "";
  if (chars >= 3) label = f.name.length <= chars ? f.name : f.name.substring(0, chars - 2) + "..";
  f.text.textContent = label;
}
function zoom(target) {
  var x0 = target.x, w0 = target.t, eps = w0 * 1e-9;
  zoomed = target;
  for (var i = 0; i < frames.length; i++) {
    var f = frames[i];
    var cls = "f";
    if (f.d < target.d) {
      if (f.x <= x0 + eps && f.x + f.t >= x0 + w0 - eps) { place(f, xpad, widthPx); cls = "f parent"; }
      else cls = "f hide";
    } else if (f.x >= x0 - eps && f.x + f.t <= x0 + w0 + eps) {
      place(f, xpad + (f.x - x0) / w0 * widthPx, f.t / w0 * widthPx);
    } else cls = "f hide";
    f.g.setAttribute("class", cls);
  }
  unzoomBtn.setAttribute("class", target.d === 0 ? "hide" : "");
  if (searching !== null) search(searching);
}
function unzoom() {
  if (frames.length) zoom(frames[0]);
}
function searchPrompt() {
  var term = window.prompt("Enter a search term (regexp allowed, eg: ^ext4_)", searching || "");
  if (term !== null && term !== "") search(term);
}
function search(term) {
  var re;
  try { re = new RegExp(term); } catch (err) { matchedText.nodeValue = "Invalid regexp"; return; }
  searching = term;
  var spans = [];
  for (var i = 0; i < frames.length; i++) {
    var f = frames[i];
    if (f.fill === null) f.fill = f.rect.getAttribute("fill");
    if (re.test(f.name)) { f.rect.setAttribute("fill", matchRgb); spans.push(f); }
    else f.rect.setAttribute("fill", f.fill);
  }
  // Matched: the share of the (zoomed) total under matching frames, nested matches once.
  var base = zoomed || frames[0];
  spans.sort(function (a, b) { return a.x - b.x || b.t - a.t; });
  var covered = 0, end = -Infinity;
  for (var j = 0; j < spans.length; j++) {
    var s = spans[j];
    var lo = Math.max(s.x, base.x), hi = Math.min(s.x + s.t, base.x + base.t);
    if (hi <= lo || s.x < end) continue;
    covered += hi - lo;
    end = s.x + s.t;
  }
  var pct = base.t > 0 ? covered / base.t * 100 : 0;
  matchedText.nodeValue = "Matched: " + (pct === 100 ? "100" : pct.toFixed(1)) + "%";
  searchBtn.classList.add("show");
  searchBtn.firstChild.nodeValue = "Reset Search";
}
function resetSearch() {
  searching = null;
  for (var i = 0; i < frames.length; i++) if (frames[i].fill !== null) frames[i].rect.setAttribute("fill", frames[i].fill);
  matchedText.nodeValue = " ";
  searchBtn.classList.remove("show");
  searchBtn.firstChild.nodeValue = "Search";
}
`;
