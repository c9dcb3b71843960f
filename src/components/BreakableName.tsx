// A frame name that wraps only after `::`, `,`, `<` or a space (see breakableParts), for the
// tooltips and the details. Untrusted text, rendered as React text only.

import { Fragment } from 'react';
import { breakableParts } from '../render/labels';

export function BreakableName({ name }: { name: string }) {
  return (
    <>
      {breakableParts(name).map((part, i) => (
        <Fragment key={i}>
          {i > 0 && <wbr />}
          {part}
        </Fragment>
      ))}
    </>
  );
}
