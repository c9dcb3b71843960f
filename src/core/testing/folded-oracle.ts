// For tests: per-function sums computed straight from folded text, independently of the engine,
// to check function tables against: total counted once per stack (recursion once), self at the leaf.

export function functionSumsFromFolded(
  lines: string[],
  rename: (name: string) => string = (name) => name,
): Map<string, [self: number, total: number]> {
  const out = new Map<string, [number, number]>();
  for (const line of lines) {
    if (!line) continue;
    const space = line.lastIndexOf(' ');
    const count = Number(line.slice(space + 1));
    const stack = line.slice(0, space).split(';').map(rename);
    for (const name of new Set(stack)) {
      const row = out.get(name) ?? [0, 0];
      row[1] += count;
      out.set(name, row);
    }
    out.get(stack[stack.length - 1])![0] += count;
  }
  return out;
}
