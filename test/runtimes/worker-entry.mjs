// Entry of the smoke test in Cloudflare workerd: a worker module (bundled by esbuild with the
// `workerd` and `worker` conditions) whose fetch handler runs the checks against the agents named in
// the query (`?agents=<JSON>&engine=default|fetch`) and answers with the report as JSON.
import { runSmoke } from './smoke.mjs';

export default {
  async fetch(request) {
    const url = new URL(request.url);
    if (url.pathname !== '/smoke') return new Response('ready');
    const query = url.searchParams;
    const urls = JSON.parse(query.get('agents') ?? '{}');
    const options = query.get('engine') === 'fetch' ? { fetch: (input, init) => fetch(input, init) } : {};
    return Response.json(await runSmoke(urls, options));
  },
};
