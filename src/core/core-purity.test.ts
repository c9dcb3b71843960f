// docs/ARCHITECTURE.md, house rule 5: the core is framework-free and runs in Node. This test
// reads every non-test module under src/core and fails on imports of UI, charting or worker
// libraries (react, react-dom, zustand, comlink, d3 and its d3-* packages), or on uses of the
// DOM globals `document` and `window`.

import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const coreDir = fileURLToPath(new URL('.', import.meta.url));
const FORBIDDEN_MODULES = /^(react|react-dom|zustand|comlink|d3|d3-[a-z-]+)(\/|$)/;

function coreModules(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...coreModules(path));
    else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) out.push(path);
  }
  return out;
}

/** Source text with comments and string contents blanked, so prose cannot trip the checks. */
function codeOnly(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*|'(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*"|`(?:\\.|[^`\\])*`/g, (m) =>
    m.startsWith('/') ? ' ' : m[0] + m[0],
  );
}

/** Module specifiers a file imports (static, dynamic, re-exports, require). */
function importsOf(source: string): string[] {
  const specs: string[] = [];
  const re = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*)(['"])([^'"]+)\1/g;
  for (const m of source.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, ' ').matchAll(re)) specs.push(m[2]);
  return specs;
}

function violations(source: string): string[] {
  const found: string[] = [];
  for (const spec of importsOf(source)) if (FORBIDDEN_MODULES.test(spec)) found.push(`imports ${spec}`);
  const code = codeOnly(source);
  for (const global of ['document', 'window']) {
    // A property access such as `profile.document` is fine; the bare global is not.
    if (new RegExp(`(^|[^.\\w$])${global}\\b`).test(code)) found.push(`uses ${global}`);
  }
  return found;
}

describe('core purity', () => {
  const files = coreModules(coreDir);

  it('finds the core modules', () => {
    expect(files.length).toBeGreaterThan(10);
  });

  it('no core module imports react, zustand, comlink or d3, or touches document/window', () => {
    const bad = files.flatMap((f) => violations(readFileSync(f, 'utf8')).map((v) => `${relative(coreDir, f)}: ${v}`));
    expect(bad).toEqual([]);
  });

  it('the checker itself catches violations and ignores prose', () => {
    expect(violations("import { create } from 'zustand';")).toEqual(['imports zustand']);
    expect(violations("import React from 'react'")).toEqual(['imports react']);
    expect(violations("const m = await import('comlink');")).toEqual(['imports comlink']);
    expect(violations('export { x } from "react-dom/client";')).toEqual(['imports react-dom/client']);
    expect(violations("import { scaleLinear } from 'd3-scale';")).toEqual(['imports d3-scale']);
    expect(violations("import * as d3 from 'd3';")).toEqual(['imports d3']);
    expect(violations("import { x } from './d3-like';")).toEqual([]);
    expect(violations('const w = window.innerWidth;')).toEqual(['uses window']);
    expect(violations('document.body.append(x);')).toEqual(['uses document']);
    expect(violations('// the detection window\nconst s = "a window";\nopts.document = 1;')).toEqual([]);
    expect(violations("import { x } from './react-helpers';")).toEqual([]);
  });
});
