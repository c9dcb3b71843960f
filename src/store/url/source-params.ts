// The Source panel's link parameters, registered with the URL state (url-state.ts):
//   source=/api/source/<secret>   the route `flameview FILE` serves the recording's source files
//                                 at (same origin only: a path, never a URL of another site)
//   srcurl=<template>             "open in editor / repository" links, {path} and {line} filled in
//                                 (core/query/source-listing.ts checks the kind of link it makes)

import { useStore } from '../store';
import { registerUrlParam } from './url-state';
import { checkTemplate } from '../../core/query/source-listing';
import { SOURCE_ROUTE } from './link-values';

registerUrlParam<string>({
  key: 'source',
  history: 'replace',
  order: 5,
  parse: (v) => (SOURCE_ROUTE.test(v) ? { ok: true, value: v } : { ok: false, notice: "The link's source value is not this page's source route; source text will not be read from the server." }),
  write: (s) => s.sourcePanel.served,
  apply: (value) => useStore.getState().setSourceServed(value ?? null),
});

registerUrlParam<string>({
  key: 'srcurl',
  history: 'replace',
  order: 6,
  parse: (v) => {
    const why = checkTemplate(v);
    return why === null ? { ok: true, value: v } : { ok: false, notice: `The link's srcurl was ignored: ${why}.` };
  },
  write: (s) => s.sourcePanel.template,
  apply: (value) => useStore.getState().setSourceTemplate(value ?? null),
});
