// The causes of a failed fetch, told apart with an injected fetch and CSP reports.

import { describe, expect, it } from 'vitest';
import { diagnoseFetchFailure, fetchFailureMessage, watchCspViolations } from './fetch-failure';

const failing = (async () => {
  throw new TypeError('Failed to fetch');
}) as unknown as typeof fetch;
const answersNoCors = (async (_u: string, init?: RequestInit) => {
  if (init?.mode === 'no-cors') return new Response(null);
  throw new TypeError('Failed to fetch');
}) as unknown as typeof fetch;

describe('diagnoseFetchFailure', () => {
  it('CSP when the policy reported the URL or its origin', async () => {
    expect(await diagnoseFetchFailure('http://a.test/x', { fetch: failing, cspBlocked: () => ['http://a.test/x'] })).toBe('csp');
    expect(await diagnoseFetchFailure('http://a.test/x', { fetch: failing, cspBlocked: () => ['http://a.test'] })).toBe('csp');
    expect(await diagnoseFetchFailure('http://a.test/x', { fetch: failing, cspBlocked: () => ['http://b.test'] })).toBe('network');
  });

  it('mixed content from an https page to an http URL; CORS when no-cors gets an answer; else network', async () => {
    expect(await diagnoseFetchFailure('http://a.test/x', { fetch: answersNoCors, base: 'https://viewer.test/' })).toBe('mixed-content');
    expect(await diagnoseFetchFailure('https://a.test/x', { fetch: answersNoCors, base: 'https://viewer.test/' })).toBe('cors');
    expect(await diagnoseFetchFailure('/relative', { fetch: failing, base: 'http://viewer.test/' })).toBe('network');
  });

  it('collects blockedURI from securitypolicyviolation events', () => {
    const target = new EventTarget();
    const blocked = watchCspViolations(target);
    target.dispatchEvent(Object.assign(new Event('securitypolicyviolation'), { blockedURI: 'http://a.test/x' }));
    expect(blocked()).toEqual(['http://a.test/x']);
  });

  it('messages name the cause and the origins', () => {
    expect(fetchFailureMessage('http://a.test/x', 'csp')).toMatch(/Content-Security-Policy does not allow connecting to http:\/\/a\.test \(connect-src\)/);
    expect(fetchFailureMessage('http://a.test/x', 'cors', 'http://v.test')).toMatch(/http:\/\/a\.test answered but does not allow this page \(http:\/\/v\.test\) to read it \(CORS/);
    expect(fetchFailureMessage('http://a.test/x', 'mixed-content')).toMatch(/mixed content/);
    expect(fetchFailureMessage('http://a.test/x', 'network')).toMatch(/could not be reached/);
  });
});
