import { describe, expect, it } from 'vitest';
import { collectApp, fromBase64, reportHtml, toBase64 } from './report';

const INDEX = `<html><head><script type="module" crossorigin src="./assets/index-A.js"></script>
<link rel="stylesheet" crossorigin href="./assets/index-B.css"></head></html>`;

const FILES: Record<string, string> = {
  'assets/index-A.js':
    'import{a}from"./shared-E.js";new Worker(new URL(new URL(`profile.worker-C.js`,import.meta.url).href,``+import.meta.url)); const s = "</script><!--"; const lazy = () => import(`./lazy-F.js`);',
  'assets/shared-E.js': 'export const a = 1;',
  'assets/lazy-F.js': 'import{a}from"./shared-E.js";import"./index-A.js";export const b = a;',
  'assets/profile.worker-C.js': 'new Worker(new URL(new URL(`part.worker-D.js`,import.meta.url).href,``+import.meta.url));',
  'assets/part.worker-D.js': 'postMessage(1)',
  'assets/index-B.css': 'body { color: red }',
};

const read = async (name: string): Promise<string> => {
  const text = FILES[name];
  if (text === undefined) throw new Error(`no ${name}`);
  return text;
};

describe('the HTML report', () => {
  it('collects the entry module and every worker and chunk it refers to, nested ones too', async () => {
    const app = await collectApp(INDEX, read);
    expect(app.main).toBe('assets/index-A.js');
    expect(app.css).toBe('body { color: red }');
    expect(Object.keys(app.files).sort()).toEqual(['assets/index-A.js', 'assets/lazy-F.js', 'assets/part.worker-D.js', 'assets/profile.worker-C.js', 'assets/shared-E.js']);
  });

  it('refuses a worker split into chunks, which the report could not load', async () => {
    const split: Record<string, string> = { ...FILES, 'assets/part.worker-D.js': 'import{x}from"./worker-chunk-G.js";postMessage(x)' };
    await expect(collectApp(INDEX, async (n) => split[n] ?? Promise.reject(new Error(`no ${n}`)))).rejects.toThrow('the worker assets/part.worker-D.js imports the chunk worker-chunk-G.js');
  });

  it('fails, naming what is missing, on a build of another shape', async () => {
    await expect(collectApp('<html></html>', read)).rejects.toThrow(/no module script/);
    await expect(collectApp(INDEX, async (n) => (n === 'assets/part.worker-D.js' ? Promise.reject(new Error(`no ${n}`)) : read(n)))).rejects.toThrow('no assets/part.worker-D.js');
    await expect(collectApp(INDEX, async (n) => (n === 'assets/lazy-F.js' ? Promise.reject(new Error(`no ${n}`)) : read(n)))).rejects.toThrow('no assets/lazy-F.js');
  });

  it('keeps the app text and untrusted names from ending their elements', async () => {
    const app = await collectApp(INDEX, read);
    const html = reportHtml(app, [{ name: '"><img src=x onerror=alert(1)>.txt', bytes: new Uint8Array([1, 2, 3]) }], '<b>t</b>');
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<b>');
    // The only script ends are the three elements' own.
    expect(html.match(/<\/script>/g)).toHaveLength(3);
    const json = /<script type="application\/json" id="flameview-app">([^<]*)<\/script>/.exec(html)![1]!;
    expect(JSON.parse(json).files['assets/index-A.js']).toBe(FILES['assets/index-A.js']);
    expect(() => reportHtml(app, [], 't')).toThrow('one or two recordings, not 0');
  });

  it('round-trips bytes through base64 as Node encodes them', () => {
    for (const n of [0, 1, 2, 3, 4, 5, 100, 70000]) {
      const bytes = new Uint8Array(n).map((_, i) => (i * 7919 + n) & 255);
      const text = toBase64(bytes);
      expect(text).toBe(Buffer.from(bytes).toString('base64'));
      expect(Buffer.from(fromBase64(text)).equals(Buffer.from(bytes))).toBe(true);
    }
    expect(() => fromBase64('ab*d')).toThrow("base64 text has '*' at 2");
    expect(() => fromBase64('abc')).toThrow('not a multiple of 4');
  });
});
