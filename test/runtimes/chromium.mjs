// Headless Chromium for the runtime smoke test: Debian's /usr/bin/chromium (`apt-get install chromium`;
// nothing is downloaded here), driven by playwright-core. The page entry is bundled by esbuild as a
// user's bundler would (platform browser, condition `browser`) and served from one loopback port; the
// agents listen on others, so every call — the card fetch first — is cross-origin (CORS).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { bundleResult } from './bundle-check.mjs';

const CHROMIUM = process.env.A2A_CHROMIUM ?? '/usr/bin/chromium';
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const PAGE = '<!doctype html><meta charset="utf-8"><title>smoke</title><script type="module" src="/page.js"></script>';

/** Bundles the page into `dir`/page.js. Resolves the `bundle` smoke result (see bundle-check.mjs).
 * @throws esbuild's errors (e.g. a Node built-in it cannot resolve). */
export async function bundlePage(dir) {
  const { metafile } = await build({
    entryPoints: [join(dir, 'page-entry.mjs')],
    outfile: join(dir, 'page.js'),
    absWorkingDir: dir,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    logLevel: 'silent',
    metafile: true,
  });
  return bundleResult(metafile, join(dir, 'page.js'));
}

/** Serves the page and its script on 127.0.0.1. */
async function servePage(dir) {
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/') res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
    else if (path === '/page.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end(readFileSync(join(dir, 'page.js')));
    else res.writeHead(path === '/favicon.ico' ? 204 : 404).end();
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  return { url: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((resolve) => server.close(resolve)) };
}

/** A runtime for ./run.mjs. @throws when Chromium is not installed (CI installs it with apt-get). */
export async function chromiumRuntime() {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} not found: apt-get update && apt-get install -y chromium`);
  const { chromium } = await import('playwright-core');
  const version = execFileSync(CHROMIUM, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  return {
    engine: 'fetch',
    version: `${version} (${CHROMIUM}, playwright-core)`,
    run: async ({ dir, urls, engine }) => {
      const bundle = await bundlePage(dir);
      const page = await servePage(dir);
      const profile = mkdtempSync(join(tmpdir(), 'a2a-chromium-'));
      const log = [];
      try {
        const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: FLAGS, timeout: 30_000 });
        try {
          const tab = context.pages()[0] ?? (await context.newPage());
          tab.on('console', (m) => log.push(`console.${m.type()}: ${m.text()}`));
          tab.on('pageerror', (e) => log.push(`pageerror: ${e.message}`));
          await tab.goto(`${page.url}/${engine === 'fetch' ? '?engine=fetch' : ''}#${encodeURIComponent(JSON.stringify(urls))}`);
          await tab.waitForFunction(() => document.title === 'done', undefined, { timeout: 60_000 });
          const report = await tab.evaluate(() => window.smokeReport);
          report.results.unshift(bundle);
          if (log.length > 0) report.stderr = log.join('\n');
          return report;
        } finally {
          await context.close();
        }
      } finally {
        await page.close();
        rmSync(profile, { recursive: true, force: true });
      }
    },
  };
}
