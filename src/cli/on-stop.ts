// A command's temporary files, removed however it ends: at the process's exit, and on Ctrl+C or
// SIGTERM, which then stop it with the status a shell reports for them (130, 143), so an
// interrupted command leaves nothing behind in the temporary directory.

export interface StopCleanup {
  /** Ctrl+C and SIGTERM are someone else's again (a server's graceful stop); the exit still cleans up. */
  signalsOff(): void;
  /** Nothing is cleaned up on stop any more (the caller did it, or will). */
  off(): void;
}

export function cleanupOnStop(cleanup: () => void): StopCleanup {
  const stopped = (signal: NodeJS.Signals) => {
    try {
      cleanup();
    } finally {
      process.exit(signal === 'SIGTERM' ? 143 : 130);
    }
  };
  process.on('exit', cleanup);
  process.on('SIGINT', stopped);
  process.on('SIGTERM', stopped);
  const signalsOff = () => {
    process.off('SIGINT', stopped);
    process.off('SIGTERM', stopped);
  };
  return {
    signalsOff,
    off: () => {
      signalsOff();
      process.off('exit', cleanup);
    },
  };
}
