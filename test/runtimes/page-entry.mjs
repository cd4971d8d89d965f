// Entry of the smoke test in a browser page (bundled by esbuild with the `browser` condition): the
// agents' URLs come in the page URL's fragment (`#<JSON>`, `?engine=fetch` to pass fetch explicitly);
// the report is left in `window.smokeReport` (and the page title says it is done) for the harness.
import { runSmoke } from './smoke.mjs';

const urls = JSON.parse(decodeURIComponent(location.hash.slice(1)));
const options = new URLSearchParams(location.search).get('engine') === 'fetch' ? { fetch: (input, init) => fetch(input, init) } : {};
runSmoke(urls, options).then(
  (report) => {
    window.smokeReport = report;
    document.title = 'done';
  },
  (error) => {
    window.smokeReport = { runtime: navigator.userAgent, results: [{ name: 'run', ok: false, ms: 0, detail: String(error?.stack ?? error) }] };
    document.title = 'done';
  },
);
