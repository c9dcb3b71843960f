// The subcommands' names, on their own so that the opener (open.ts) can refuse them as file names
// without importing the dispatcher (main.ts), which loads the commands.

export const COMMAND_NAMES = ['collapse', 'serve', 'serve-demo', 'diff', 'svg', 'top', 'lines', 'annotate', 'convert', 'html'] as const;

export type CommandName = (typeof COMMAND_NAMES)[number];
