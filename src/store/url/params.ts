// Every link parameter registered with the URL state (url-state.ts keeps the view's own: zoom
// path, view, search…), imported once by the URL sync so that none depends on which component
// happened to load first.

import './analysis-params';
import './compare-params';
import './time-params';
import './transform-params';
import './local-recording';
import './source-params';
