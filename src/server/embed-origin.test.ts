// `serve --allow-embed ORIGIN`: one exact origin per flag, or a usage error; the policy it sets.
import { describe, expect, it } from 'vitest';
import { runServe } from '../cli/serve';
import { runInMemory } from '../cli/run-in-memory';
import { embedOrigin, securityHeaders, SECURITY_HEADERS } from './security';

describe('--allow-embed', () => {
  it('accepts exactly one http(s) origin for --allow-embed', () => {
    expect(embedOrigin('https://ci.example.com')).toBe('https://ci.example.com');
    expect(embedOrigin('http://127.0.0.1:8000/')).toBe('http://127.0.0.1:8000');
    for (const bad of ['*', 'https://a.example/path', "https://a.example 'unsafe-inline'", 'https://a.example;script-src *', 'javascript:alert(1)', 'ci.example.com', 'https://*.example.com']) {
      expect(embedOrigin(bad), bad).toBeNull();
    }
  });

  it('names the origins in frame-ancestors, and keeps none without them', () => {
    expect(securityHeaders()).toBe(SECURITY_HEADERS);
    const csp = securityHeaders(['https://a.example', 'http://127.0.0.1:9000'])['content-security-policy']!;
    expect(csp).toContain('frame-ancestors https://a.example http://127.0.0.1:9000');
    expect(csp).not.toContain("frame-ancestors 'none'");
    expect(SECURITY_HEADERS['content-security-policy']).toContain("frame-ancestors 'none'");
  });

  it('is a usage error for anything but an origin', async () => {
    const r = await runInMemory((args, io) => runServe(args, io, {}), ['--store', '/nonexistent', '--allow-embed', 'https://a.example/x']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^flameview serve: --allow-embed needs an origin such as https:\/\/ci.example.com \(scheme, host, port; no path\), found "https:\/\/a.example\/x"\n/);
  });
});
