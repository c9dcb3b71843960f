// Listening and shutting down, shared by `flameview FILE` and `flameview serve`: one-line
// messages for the usual listen failures, and a clean close on Ctrl+C / SIGTERM.

import type { FastifyInstance } from 'fastify';

export class ListenError extends Error {
  constructor(
    message: string,
    /** The port is taken (EADDRINUSE): a caller may try another. */
    readonly inUse = false,
  ) {
    super(message);
  }
}

/** Listens and returns the base URL (`http://127.0.0.1:PORT`), or throws a one-line ListenError. */
export async function listen(app: FastifyInstance, host: string, port: number): Promise<string> {
  try {
    await app.listen({ host, port });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new ListenError(`port ${port} is in use on ${host}; choose another with --port`, true);
    if (code === 'EACCES') throw new ListenError(`permission denied to listen on ${host}:${port}`);
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
      throw new ListenError(`cannot listen on ${host}: no such local address`);
    }
    throw new ListenError(`cannot listen on ${host}:${port}: ${(e as Error).message}`);
  }
  const address = app.server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  const shown = host.includes(':') ? `[${host}]` : host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return `http://${shown}:${actualPort}`;
}

/** Resolves once the process is asked to stop (SIGINT, SIGTERM) and the server has closed. */
export function untilStopped(app: FastifyInstance, onStop?: () => Promise<void> | void): Promise<void> {
  return new Promise((resolve) => {
    let stopping = false;
    const stop = () => {
      if (stopping) return;
      stopping = true;
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      void (async () => {
        await app.close().catch(() => undefined);
        await onStop?.();
        resolve();
      })();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

/** Parses a byte count: digits, optionally followed by k, m or g (powers of 1024). */
export function parseBytes(text: string): number | null {
  const m = /^(\d+)([kmg]?)(i?b)?$/i.exec(text.trim());
  if (!m) return null;
  const scale = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[m[2].toLowerCase() as '' | 'k' | 'm' | 'g'];
  const value = Number(m[1]) * scale;
  return Number.isSafeInteger(value) ? value : null;
}

export function parsePort(text: string): number | null {
  if (!/^\d{1,5}$/.test(text)) return null;
  const port = Number(text);
  return port <= 65535 ? port : null;
}
