import { describe, expect, it } from 'vitest';
import { FirstOpen, firstOpenLink, openOptions } from './first-open';

const doc = (base = 'https://example.org/app/', report = false) => ({
  baseURI: base,
  getElementById: (id: string) => (report && id === 'flameview-recording-0' ? ({} as HTMLElement) : null),
});
const at = (hash: string, search = '', protocol = 'https:', pathname = '/app/') => ({ protocol, hash, search, pathname });

describe('firstOpenLink: which addresses the first script opens itself', () => {
  it('takes one #profile= and nothing else, resolved against the page as the app resolves it', () => {
    const shown = { view: 'functions', orientation: 'flame', order: 'name' };
    expect(firstOpenLink(at('#profile=data/run%201.txt'), doc())).toEqual({ url: 'https://example.org/app/data/run%201.txt', name: 'run 1.txt', ...shown });
    expect(firstOpenLink(at('#profile=https://x.test/a/perf.txt'), doc())).toEqual({ url: 'https://x.test/a/perf.txt', name: 'perf.txt', ...shown });
  });

  it('takes the view, orientation and order the app writes beside it (what a reload finds)', () => {
    expect(firstOpenLink(at('#v=1&profile=a.txt&view=functions'), doc())).toMatchObject({ name: 'a.txt', view: 'functions', orientation: 'flame', order: 'name' });
    expect(firstOpenLink(at('#v=1&profile=a.txt&view=inline&orient=icicle&order=heavy'), doc())).toMatchObject({ view: 'inline', orientation: 'icicle', order: 'heavy' });
  });

  it("takes a team server's /p/<id> page, as the app reads it, unless the hash names another recording", () => {
    const id = 'ab'.repeat(32);
    const page = (hash: string) => firstOpenLink(at(hash, '', 'https:', `/team/p/${id}`), doc(`https://example.org/team/p/${id}`));
    expect(page('')).toMatchObject({ url: `https://example.org/team/api/profiles/${id}`, view: 'functions' });
    expect(page('#v=1&view=inline')).toMatchObject({ url: `https://example.org/team/api/profiles/${id}`, view: 'inline' });
    expect(page('#v=1&zoom=main')).toBeNull();
    expect(page('#profile=b.txt')).toMatchObject({ url: `https://example.org/team/p/b.txt`, name: 'b.txt' });
  });

  it("takes `flameview FILE`'s link, whose other parameters say where more data is", () => {
    const hash = '#profile=/api/local/abc/perf.data&original=/api/local/def/perf.data&source=/api/source/0123456789abcdef&asm=/api/asm/0123456789abcdef0123456789abcdef&srcurl=vscode%3A%2F%2Ffile%2F%7Bpath%7D%3A%7Bline%7D';
    expect(firstOpenLink(at(hash), doc('http://127.0.0.1:5000/'))).toMatchObject({ url: 'http://127.0.0.1:5000/api/local/abc/perf.data', name: 'perf.data', view: 'functions' });
    // A value the app refuses shows a notice above the graph (and moves it): the app opens that link.
    for (const bad of ['asm=bad', 'source=/elsewhere', 'srcurl=vscode%3A%2F%2Ffile%2Fx', 'original=%20', `original=${'x'.repeat(4001)}`]) {
      expect(firstOpenLink(at(`#profile=a.txt&${bad}`), doc()), bad).toBeNull();
    }
  });

  it('leaves to the app every link with state to apply, several recordings, a comparison, or nothing', () => {
    const hashes = ['', '#', '#profile=', '#profile=a.txt&zoom=main', '#profile=a.txt&search=x', '#profile=a.txt&profile=b.txt', '#profile=a.txt&compare=b.txt', '#file=a.txt&size=3', '#profile=a.txt&transforms=x', '#profile=a.txt&event=cycles'];
    // Values the app ignores with a notice, an unknown version, a parameter twice.
    hashes.push('#v=2&profile=a.txt', '#profile=a.txt&view=calls', '#profile=a.txt&order=name', '#profile=a.txt&view=inline&view=functions', '#profile=a.txt&x=1');
    for (const hash of hashes) {
      expect(firstOpenLink(at(hash), doc()), hash).toBeNull();
    }
  });

  it('refuses what the app refuses, and pages that are not a served app (a report, an embedded page)', () => {
    expect(firstOpenLink(at('#profile=javascript:alert(1)'), doc())).toBeNull();
    expect(firstOpenLink(at('#profile=data:text/plain,x'), doc())).toBeNull();
    expect(firstOpenLink(at('#profile=a.txt', '', 'file:'), doc('file:///tmp/report.html'))).toBeNull();
    expect(firstOpenLink(at('#profile=a.txt'), doc(undefined, true))).toBeNull();
    expect(firstOpenLink(at('#profile=a.txt', '?embed=1'), doc())).toBeNull();
    expect(firstOpenLink(at('#profile=a.txt', '?embed=0'), doc())).not.toBeNull();
  });
});

/** A worker that takes messages and never answers; `fail()` fires its error event. */
function silentWorker() {
  const listeners = new Map<string, ((e: unknown) => void)[]>();
  const worker = {
    posted: 0,
    postMessage() {
      worker.posted++;
    },
    addEventListener(type: string, fn: (e: unknown) => void) {
      listeners.set(type, [...(listeners.get(type) ?? []), fn]);
    },
    removeEventListener() {},
    fail: () => listeners.get('error')?.forEach((fn) => fn({ message: 'no' })),
  };
  return worker;
}

describe('FirstOpen: its worker and its answer are taken once, together', () => {
  const URL_ = 'https://example.org/a.txt';
  const make = () => {
    const w = silentWorker();
    const open = new FirstOpen(URL_, openOptions('a.txt', ''), undefined, () => w as unknown as Worker);
    return { w, open };
  };

  it('starts the open at once, and hands over the worker, then the answer, once each', () => {
    const { w, open } = make();
    const answer = open.answer;
    expect(w.posted).toBe(1);
    // The answer only goes with the worker it lives in.
    expect(open.takeAnswer(URL_, openOptions('a.txt', ''), () => {})).toBeNull();
    expect(open.takeWorker()).toBe(w);
    expect(open.takeWorker()).toBeNull();
    expect(open.takeAnswer(URL_, openOptions('a.txt', ''), () => {})).toBe(answer);
    expect(open.takeAnswer(URL_, openOptions('a.txt', ''), () => {})).toBeNull();
    // Taken, the page keeps it no longer.
    expect(open.answer).toBeNull();
  });

  it('keeps the answer from an open of another URL or with other options (another event, a split)', () => {
    const { open } = make();
    const answer = open.answer;
    open.takeWorker();
    expect(open.takeAnswer('https://example.org/b.txt', openOptions('b.txt', ''), () => {})).toBeNull();
    expect(open.takeAnswer(URL_, openOptions('a.txt', '?min-part-bytes=1048576'), () => {})).toBeNull();
    expect(open.takeAnswer(URL_, { ...openOptions('a.txt', ''), event: 'cycles' }, () => {})).toBeNull();
    expect(open.takeAnswer(URL_, openOptions('a.txt', ''), () => {})).toBe(answer);
  });

  it('forgets the answer when the first open was another recording: a later open of its URL reads it again', () => {
    const { open } = make();
    open.takeWorker();
    open.forget();
    expect(open.answer).toBeNull();
    expect(open.takeAnswer(URL_, openOptions('a.txt', ''), () => {})).toBeNull();
  });

  it('gives nothing of a worker that failed to start: the loader starts its own and says why', () => {
    const { w, open } = make();
    w.fail();
    expect(open.takeWorker()).toBeNull();
    expect(open.takeAnswer(URL_, openOptions('a.txt', ''), () => {})).toBeNull();
  });
});
