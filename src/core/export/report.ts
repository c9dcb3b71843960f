// The HTML report: one self-contained file holding the built app (its JavaScript, CSS and the
// workers) and one or two recordings, that opens from file:// with no server and no network.
// Used by `flameview html` (src/cli/html.ts) and by the page's Export → HTML report.
//
// Invariants:
// - The app is kept as vite built it (`AppFiles`: file name relative to index.html → text) in one
//   JSON script element, `<` escaped, so no text of it can end the element early. A small inline
//   bootstrap turns each file into a URL of its own text (file:// pages may not load module
//   scripts or workers from disk), rewriting the bundle's references to other files first: worker
//   references (new URL(`x.worker-HASH.js`,import.meta.url)) into data: URLs, static imports of
//   chunks (from"./x-HASH.js") into the chunks' blob: URLs, made on first use, and the lazy
//   chunks' import(`./x-HASH.js`) into a call that makes the chunk's URL when the page asks for it
//   (the chunk imports the entry statically, so the entry cannot hold its URL in advance).
// - `collectApp` checks here, at build time, that every reference the bootstrap will rewrite names
//   a file it holds, so a change in the bundler's output fails the report, not the reader.
// - A recording is its bytes in base64 (no `<` in that alphabet) in a script element of its own,
//   its name in an escaped attribute: names are untrusted text.
//
//   <script type="application/json" id="flameview-app">{"main":…,"css":…,"files":{…}}</script>
//   <script type="application/octet-stream" id="flameview-recording-0" data-name="a.txt">…</script>
//   <script type="module">bootstrap</script>

/** The built app: the entry module's name and every module (entry and workers) by name. */
export interface AppFiles {
  main: string;
  css: string;
  files: Record<string, string>;
}

export interface ReportRecording {
  name: string;
  bytes: Uint8Array;
}

export const APP_ELEMENT_ID = 'flameview-app';
export const RECORDING_ELEMENT_PREFIX = 'flameview-recording-';

// The forms in which vite's bundle refers to another of its files, relative to the referring
// file: a worker; a chunk imported statically (`from"./x.js"`, or `import"./x.js"` for its side
// effects); a lazy chunk (`import(`./x.js`)`).
const WORKER_REF = /new URL\(`([\w.-]+\.js)`,import\.meta\.url\)/g;
const STATIC_REF = /(\bfrom|\bimport)\s*(["'`])\.\/([\w.-]+\.js)\2/g;
const DYNAMIC_REF = /\bimport\((["'`])\.\/([\w.-]+\.js)\1\)/g;
// The global through which a rewritten import() asks the bootstrap for a chunk's URL.
const CHUNK_URL = 'Symbol.for("flameview.report.chunk")';

// Runs in the report (kept to what every current browser parses). A worker file becomes a data:
// URL (Chromium refuses module workers from blob: URLs in a file:// page's opaque origin, and
// accepts data: ones), after the files it refers to, whose references now name those URLs; the
// entry module and its chunks blob: URLs, which a file:// page may import, each made once (a
// module's URL is its identity: the entry and a chunk importing it must share one instance).
const BOOTSTRAP = `const app = JSON.parse(document.getElementById(${JSON.stringify(APP_ELEMENT_ID)}).textContent);
document.head.append(Object.assign(document.createElement('style'), { textContent: app.css }));
const dir = (name) => name.slice(0, name.lastIndexOf('/') + 1);
const linked = (name) => app.files[name].replace(${String(WORKER_REF)}, (_, ref) => 'new URL(' + JSON.stringify('data:text/javascript;charset=utf-8,' + encodeURIComponent(linked(dir(name) + ref))) + ')');
const urls = new Map();
const moduleUrl = (name) => {
  if (urls.has(name)) {
    if (urls.get(name) === null) throw new Error('flameview report: static imports in a cycle through ' + name);
    return urls.get(name);
  }
  if (!(name in app.files)) throw new Error('flameview report: the app has no file ' + name);
  urls.set(name, null);
  const text = linked(name)
    .replace(${String(STATIC_REF)}, (_, word, q, ref) => word + JSON.stringify(moduleUrl(dir(name) + ref)))
    .replace(${String(DYNAMIC_REF)}, (_, q, ref) => 'import(globalThis[${CHUNK_URL}](' + JSON.stringify(dir(name) + ref) + '))');
  const url = URL.createObjectURL(new Blob([text], { type: 'text/javascript' }));
  urls.set(name, url);
  return url;
};
globalThis[${CHUNK_URL}] = moduleUrl;
import(moduleUrl(app.main));`;

/**
 * Reads the built app from its index.html and a reader of its other files (relative names, as
 * index.html gives them: `./assets/index-X.js`); every worker and chunk the bundle refers to is
 * read too.
 * Throws an Error naming what is missing when the build is not the shape this expects.
 */
export async function collectApp(indexHtml: string, read: (name: string) => Promise<string>): Promise<AppFiles> {
  const script = /<script type="module"[^>]*\bsrc="(?:\.\/)?([^"]+\.js)"/.exec(indexHtml);
  const style = /<link rel="stylesheet"[^>]*\bhref="(?:\.\/)?([^"]+\.css)"/.exec(indexHtml);
  if (!script || !style) throw new Error('the built index.html names no module script or no stylesheet (run the build first)');
  const main = script[1]!;
  const files: Record<string, string> = {};
  const workers = new Set<string>();
  const pending = [main];
  while (pending.length > 0) {
    const name = pending.pop()!;
    if (name in files) continue;
    const text = await read(name);
    files[name] = text;
    const base = name.slice(0, name.lastIndexOf('/') + 1);
    for (const m of text.matchAll(WORKER_REF)) {
      pending.push(base + m[1]!);
      workers.add(base + m[1]!);
    }
    const chunks = [...text.matchAll(STATIC_REF)].map((m) => m[3]!).concat([...text.matchAll(DYNAMIC_REF)].map((m) => m[2]!));
    // The bootstrap links a worker's own workers only: a worker split into chunks would not load.
    if (workers.has(name) && chunks.length > 0) throw new Error(`the worker ${name} imports the chunk ${chunks[0]}, which a report cannot load`);
    for (const chunk of chunks) pending.push(base + chunk);
  }
  return { main, css: await read(style[1]!), files };
}

/** The whole report: the app, then the recordings (the second, if any, opens as the comparison). */
export function reportHtml(app: AppFiles, recordings: readonly ReportRecording[], title: string): string {
  if (recordings.length < 1 || recordings.length > 2) throw new Error(`a report holds one or two recordings, not ${recordings.length}`);
  const data = recordings.map(
    (r, i) => `<script type="application/octet-stream" id="${RECORDING_ELEMENT_PREFIX}${i}" data-name="${escapeHtml(r.name)}">${toBase64(r.bytes)}</script>`,
  );
  const json = JSON.stringify(app).replace(/</g, '\\u003c');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="generator" content="flameview">
<title>${escapeHtml(title)}</title>
</head>
<body>
<div id="root"></div>
<noscript>flameview needs JavaScript to draw flame graphs.</noscript>
<script type="application/json" id="${APP_ELEMENT_ID}">${json}</script>
${data.join('\n')}
<script type="module">${BOOTSTRAP}</script>
</body>
</html>
`;
}

/** The app as a report holds it (for a report exported from a report), or null in the served page. */
export function appFromReport(doc: { getElementById(id: string): { textContent: string | null } | null }): AppFiles | null {
  const text = doc.getElementById(APP_ELEMENT_ID)?.textContent;
  return text ? (JSON.parse(text) as AppFiles) : null;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

// Base64 without Buffer (the core runs in the page too): the letters as bytes, decoded once.
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const ENCODE = Uint8Array.from(ALPHABET, (c) => c.charCodeAt(0));
const PAD = '='.charCodeAt(0);

export function toBase64(bytes: Uint8Array): string {
  const out = new Uint8Array(Math.ceil(bytes.length / 3) * 4);
  let o = 0;
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out[o++] = ENCODE[n >> 18]!;
    out[o++] = ENCODE[(n >> 12) & 63]!;
    out[o++] = ENCODE[(n >> 6) & 63]!;
    out[o++] = ENCODE[n & 63]!;
  }
  if (i < bytes.length) {
    const two = i + 1 < bytes.length;
    const n = (bytes[i]! << 16) | (two ? bytes[i + 1]! << 8 : 0);
    out[o++] = ENCODE[n >> 18]!;
    out[o++] = ENCODE[(n >> 12) & 63]!;
    out[o++] = two ? ENCODE[(n >> 6) & 63]! : PAD;
    out[o++] = PAD;
  }
  return new TextDecoder().decode(out);
}

const DECODE = (() => {
  const t = new Int16Array(128).fill(-1);
  for (let i = 0; i < ALPHABET.length; i++) t[ALPHABET.charCodeAt(i)] = i;
  return t;
})();

/** The inverse of `toBase64`, for the page reading its recordings; throws on a letter outside it. */
export function fromBase64(text: string): Uint8Array {
  const clean = text.replace(/\s+/g, '');
  if (clean.length % 4 !== 0) throw new Error(`base64 text of length ${clean.length} is not a multiple of 4`);
  const pad = clean.endsWith('==') ? 2 : clean.endsWith('=') ? 1 : 0;
  const out = new Uint8Array((clean.length / 4) * 3 - pad);
  const body = clean.length - pad;
  let o = 0;
  for (let i = 0; i < clean.length; i += 4) {
    let n = 0;
    for (let k = i; k < i + 4; k++) {
      const code = clean.charCodeAt(k);
      const v = k >= body ? 0 : code < 128 ? DECODE[code]! : -1;
      if (v < 0) throw new Error(`base64 text has '${clean[k]}' at ${k}`);
      n = (n << 6) | v;
    }
    out[o++] = n >> 16;
    if (o < out.length) out[o++] = (n >> 8) & 255;
    if (o < out.length) out[o++] = n & 255;
  }
  return out;
}
