// The Assembly panel: the selected function's instructions with each one's self weight and share
// (perf annotate's local period), the hottest highlighted and scrolled into view, objdump's
// `file:line` labels between them, and jumps within the function as buttons that scroll to their
// target. Opened alone (no `flameview FILE` route) or without the binary, it shows the hottest
// sampled offsets (`+0x195  31 %`) and one line saying why and what to pass. Drawn by the shared
// AnnotatedListing; names, paths and operands are untrusted and rendered as React text only.

import { useMemo } from 'react';
import { asmListing, dsoProblem, hottestTable, type AsmListing } from '../../core/query/disassembly';
import { formatCount, formatNs } from '../../format';
import { useStore } from '../../store/store';
import { AnnotatedListing, type ListingRowView } from './AnnotatedListing';

/** pprof records no symbol start: its table is of addresses, and says so. */
const ADDRESSES = 'pprof records each sample\'s address in the process, not its offset in the function, so the table lists addresses.';

const ALONE = 'This page has no disassembler: open the recording with flameview FILE (or flameview perf.data) on the machine where it was recorded, with --symfs DIR if its binaries are elsewhere, to see the instructions.';

function instructionRows(listing: AsmListing): ListingRowView[] {
  return listing.rows.map((r) => ({
    gutter: r.gutter,
    text: r.text,
    self: r.weight,
    total: 0,
    note: r.kind === 'source',
    jump: r.jumpTo >= 0 && r.jumpLabel ? { label: r.jumpLabel, row: r.jumpTo } : null,
  }));
}

export function AsmPanel() {
  const fn = useStore((s) => s.analysis.selectedFunction);
  const answer = useStore((s) => s.asm.answer);
  const served = useStore((s) => s.asm.base !== null);
  const ns = useStore((s) => s.recordings.a.snapshot?.meta.weightUnit === 'nanoseconds');
  const format = (w: number) => (ns ? formatNs(w) : formatCount(w));
  const ready = answer.status === 'ready' ? answer : null;
  const listing = useMemo(() => (ready?.disassembly && ready.disassembly.listing.length > 0 ? asmListing(ready.disassembly) : null), [ready]);
  const rows = useMemo(() => (listing ? instructionRows(listing) : null), [listing]);

  if (fn === null) return <p className="fn-empty">Select a function in the flame graph or the function table to see its instructions.</p>;
  if (!ready) {
    return (
      <p className="fn-empty" aria-busy="true">
        Reading the instructions of {fn}…
      </p>
    );
  }
  const d = ready.disassembly;
  const block = ready.offsets;
  const problems = d ? [...d.problems] : ready.error ? [ready.error] : [];
  if (!served && block) {
    const why = dsoProblem(block.dso);
    if (why) problems.push(why);
  }
  const lines = problems.map((p, i) => (
    <p key={i} className="asm-problem" role="note">
      {p}
    </p>
  ));
  if (listing && rows && d) {
    const caption = (
      <>
        <span className="asm-fn">{d.function}</span> in {d.binary ?? d.dso} · {formatCount(d.samples)} samples{d.buildId?.matches ? ' · build id matches' : ''}
      </>
    );
    return (
      <section className="asm-panel" aria-busy="false">
        {lines}
        <AnnotatedListing label={`Instructions of ${d.function}`} gutterHeader="Offset" rows={rows} hottest={listing.hottest} all={listing.all} format={format} caption={caption} totals={false} />
      </section>
    );
  }
  const offsets = block ?? (d && d.offsets.length > 0 ? { rows: d.offsets.map((o) => ({ ...o })), self: d.self, name: d.function, ...(d.absolute ? { mappings: [] } : {}) } : null);
  if (!offsets) {
    return (
      <section className="asm-panel" aria-busy="false">
        {lines}
        <p className="fn-empty">
          The recording kept no sampled instructions of {fn}: perf script text prints them as symbol+0xOFFSET, pprof as location addresses; folded and JavaScript profiles carry none.
        </p>
      </section>
    );
  }
  const table = hottestTable(offsets).map((r) => ({ gutter: r.gutter, text: format(r.weight), self: r.weight, total: 0 }));
  return (
    <section className="asm-panel" aria-busy="false">
      {lines}
      {offsets.mappings && <p className="asm-alone">{ADDRESSES}</p>}
      {!served && (
        <p className="asm-alone">
          {ALONE} The hottest sampled {offsets.mappings ? 'addresses' : 'offsets'}:
        </p>
      )}
      <AnnotatedListing label={`Hottest ${offsets.mappings ? 'addresses' : 'offsets'} of ${offsets.name}`} gutterHeader={offsets.mappings ? 'Address' : 'Offset'} rows={table} hottest={table.length > 0 ? 0 : -1} all={offsets.self} format={format} caption={<span className="asm-fn">{offsets.name}</span>} totals={false} textHeader="Self weight" />
    </section>
  );
}
