// A frame name that wraps only after `::`, `,`, `<` or a space (see breakableParts), for the
// tooltips and the details; a very long one cut to its ends, with its length (shownName).
// Untrusted text, rendered as React text only.

import { Fragment } from 'react';
import { breakableParts } from '../render/labels';
import { shownName } from '../core/views/shorten';

/** `max`: the most characters shown (MAX_TOOLTIP_NAME in a tooltip, else the default). */
export function BreakableName({ name, max }: { name: string; max?: number }) {
  const { text, cut } = shownName(name, max);
  return (
    <>
      {breakableParts(text).map((part, i) => (
        <Fragment key={i}>
          {i > 0 && <wbr />}
          {part}
        </Fragment>
      ))}
      {cut > 0 && <span className="name-cut"> ({cut.toLocaleString('en-US')} characters)</span>}
    </>
  );
}
