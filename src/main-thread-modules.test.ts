// The page's main thread never computes a comparison: the modules that diff two trees (the path
// alignment, the per-node deltas, the change table) are reached only from the compare worker.
// This walks the value imports (type-only imports vanish at build time) and the import() calls of
// lazy chunks from the page's entry, as the bundler does; `new Worker(new URL(…))` starts a
// separate bundle and is not followed.

import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const ROOT = resolve(__dirname, '..');
const DIFF_MODULES = ['src/core/views/diff.ts', 'src/core/views/function-deltas.ts', 'src/core/session/compare-session.ts'];

function resolveImport(from: string, spec: string): string | null {
  if (!spec.startsWith('.')) return null; // packages
  const base = resolve(dirname(from), spec);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')]) if (existsSync(candidate) && candidate.match(/\.tsx?$/)) return candidate;
  return null; // css and other assets
}

/** The files a module loads at run time: its imports and re-exports, less the type-only ones (and its import() calls unless `staticOnly`). */
function valueImports(file: string, staticOnly = false): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
  const out: string[] = [];
  for (const st of source.statements) {
    if (ts.isImportDeclaration(st)) {
      const clause = st.importClause;
      if (clause?.isTypeOnly) continue;
      const named = clause?.namedBindings;
      const onlyTypes = clause && !clause.name && named && ts.isNamedImports(named) && named.elements.length > 0 && named.elements.every((e) => e.isTypeOnly);
      if (onlyTypes) continue;
      out.push((st.moduleSpecifier as ts.StringLiteral).text);
    } else if (ts.isExportDeclaration(st) && st.moduleSpecifier && !st.isTypeOnly) {
      out.push((st.moduleSpecifier as ts.StringLiteral).text);
    }
  }
  // The lazy chunks' import('…') calls (components/lazy.ts): they load later, on the main thread too.
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteral(node.arguments[0])) out.push(node.arguments[0].text);
    ts.forEachChild(node, visit);
  };
  if (!staticOnly) visit(source);
  return out.map((spec) => resolveImport(file, spec)).filter((f): f is string => f !== null);
}

/** Every module reached from `entry`, each with the chain of imports that reached it. */
function moduleGraph(entry: string, staticOnly = false): Map<string, string[]> {
  const seen = new Map<string, string[]>([[entry, [entry]]]);
  const queue = [entry];
  while (queue.length) {
    const file = queue.shift()!;
    for (const dep of valueImports(file, staticOnly)) {
      if (seen.has(dep)) continue;
      seen.set(dep, [...seen.get(file)!, dep]);
      queue.push(dep);
    }
  }
  return new Map([...seen].map(([f, chain]) => [relative(ROOT, f), chain.map((c) => relative(ROOT, c))]));
}

describe('the diff runs off the main thread', () => {
  it("the page's modules do not reach the diff; the compare worker's do", () => {
    const page = moduleGraph(join(ROOT, 'src/boot.ts'));
    // The walk sees the page: its components, store and controllers, the compare client among them.
    expect(page.has('src/components/compare/CompareView.tsx')).toBe(true);
    expect(page.has('src/controllers/compare-results.ts')).toBe(true);
    for (const m of DIFF_MODULES) expect(page.get(m), `${m} is imported by the page: ${page.get(m)?.join(' → ')}`).toBeUndefined();
    const worker = moduleGraph(join(ROOT, 'workers/compare.worker.ts'));
    for (const m of DIFF_MODULES) expect(worker.has(m), m).toBe(true);
  });
});

describe('the first picture needs none of the app', () => {
  it("the page's first script (src/boot.ts) reaches the renderer and the first open, and loads the app, its store and React only by import()", () => {
    const first = moduleGraph(join(ROOT, 'src/boot.ts'), true);
    expect(first.has('src/render/flame-renderer.ts')).toBe(true);
    expect(first.has('src/controllers/first-open.ts')).toBe(true);
    for (const [m, chain] of first) expect(/^src\/(store\/(?!url\/(profile-hash|link-values)\.ts$)|components\/)|^src\/(main|App)\.tsx$|^src\/core\/(import|parallel|session\/profile-session)/.test(m), `${m} is loaded before the first picture: ${chain.join(' → ')}`).toBe(false);
    // The app comes with the import() after the picture.
    expect(moduleGraph(join(ROOT, 'src/boot.ts')).has('src/App.tsx')).toBe(true);
  });
});
