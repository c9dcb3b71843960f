// Entry bundled by bench/instructions.sh: one engine run (file → loadProfile → makeSnapshot) of the
// source tree it is bundled from, so two revisions can be compared by instruction count.
// The bundling script points the '../src/' imports at the revision's tree.

import { createReadStream } from 'node:fs';
import { loadProfile } from '../src/core/import/load';
import { makeSnapshot } from '../src/core/views/snapshot';

async function main(): Promise<void> {
  const file = process.argv[2];
  const profile = await loadProfile(createReadStream(file, { highWaterMark: 1 << 20 }) as AsyncIterable<Uint8Array>, { source: file });
  const snapshot = makeSnapshot(profile);
  console.log(JSON.stringify({ nodes: snapshot.inline.nodeCount, functionNodes: snapshot.functions?.nodeCount ?? null, frames: snapshot.frames.count }));
}

void main();
