import { describe, expect, it } from 'vitest';
import { parseRequest, withParams } from './embed';
import { isEmbedMode } from './embed-mode';

describe('the embedding protocol', () => {
  it('takes well-formed requests and says what is wrong with the others', () => {
    expect(parseRequest({ type: 'flameview:open', url: 'https://x.example/a.txt', id: 3 })).toEqual({ type: 'flameview:open', id: 3, name: null, bytes: null, url: 'https://x.example/a.txt' });
    const open = parseRequest({ type: 'flameview:open', bytes: new Uint8Array([1, 2]), name: 'a.folded' });
    expect(typeof open === 'object' && open.type === 'flameview:open' && open.bytes?.size).toBe(2);
    expect(parseRequest({ type: 'flameview:set', view: 'inline', zoom: ['a', 'b;c'], search: 'x' })).toEqual({ type: 'flameview:set', id: undefined, view: 'inline', zoom: ['a', 'b;c'], search: 'x' });
    expect(parseRequest('hello')).toBe('a message must be an object with a "type"');
    expect(parseRequest(null)).toBe('a message must be an object with a "type"');
    expect(parseRequest({ type: 'flameview:open' })).toBe('flameview:open needs exactly one of "bytes" and "url"');
    expect(parseRequest({ type: 'flameview:open', url: 'u', bytes: new ArrayBuffer(1) })).toBe('flameview:open needs exactly one of "bytes" and "url"');
    expect(parseRequest({ type: 'flameview:open', url: 'u', name: 'x'.repeat(201) })).toMatch(/at most 200/);
    expect(parseRequest({ type: 'flameview:set', zoom: [1] })).toBe('"zoom" must be an array of frame names, root first');
    expect(parseRequest({ type: 'flameview:set', search: /x/ })).toMatch(/"search" must be a string/);
    expect(parseRequest({ type: 'run', code: 'alert(1)' })).toBe('unknown message type "run"');
  });

  it('sets link parameters and keeps the others in order', () => {
    expect(withParams('#v=1&file=a.txt&zoom=x', { zoom: 'a;b', search: 'lex' })).toBe('#v=1&file=a.txt&zoom=a;b&search=lex');
    expect(withParams('', { view: 'inline' })).toBe('#v=1&view=inline');
    expect(withParams('#v=1&search=a&zoom=b', { search: null })).toBe('#v=1&zoom=b');
  });

  it('reads ?embed=1 only', () => {
    expect(isEmbedMode('?embed=1')).toBe(true);
    expect(isEmbedMode('?embed=0')).toBe(false);
    expect(isEmbedMode('')).toBe(false);
  });
});
