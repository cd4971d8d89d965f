import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSUMER_CTS, CONSUMER_ESM, REDIS_CJS, REDIS_ESM, ROUND_TRIP_CJS, ROUND_TRIP_ESM, SMOKE_CJS, SMOKE_ESM } from './consumers.js';

// The tarball a user installs: packed from dist/ (built by `npm run build`, which `npm test` runs
// first), installed into a fresh project, then used there the ways users use it, with the Node
// that runs this test.

const run = promisify(execFile);
const root = new URL('../../', import.meta.url).pathname;
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Record<string, unknown> & { version: string };
const devVersion = (name: string): string => (pkg.devDependencies as Record<string, string>)[name] ?? 'latest';
/** The test's own Node first on PATH, so npm, the CLI's shebang and the scripts all use it. */
const env = { ...process.env, PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}`, npm_config_update_notifier: 'false' };
const INSTALL = ['install', '--no-audit', '--no-fund', '--prefer-offline', '--ignore-scripts', '--loglevel=error'];

let work: string;
let project: string;
let files: string[];

async function node(file: string): Promise<string> {
  const { stdout } = await run(process.execPath, [file], { cwd: project, env, timeout: 30_000 });
  return stdout.trim();
}

async function tsc(config: object, file: string, source: string): Promise<void> {
  const dir = join(project, `tsc-${file.replace(/\W/g, '-')}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir);
  writeFileSync(join(dir, file), source);
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, noEmit: true, target: 'es2022', types: ['node'], ...config }, files: [file] }));
  await run(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', dir], { cwd: project, env, timeout: 150_000 }).catch((error: { stdout?: string }) => {
    throw new Error(`tsc ${JSON.stringify(config)} failed on ${file}:\n${error.stdout ?? String(error)}`);
  });
}

beforeAll(async () => {
  const built = statSync(join(root, 'dist/src/index.js'), { throwIfNoEntry: false });
  if (!built) throw new Error('dist/ is missing: run `npm run build` (or `npm ci`) before this test');
  work = mkdtempSync(join(tmpdir(), 'a2a-pack-'));
  const { stdout } = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], { cwd: root, env });
  const [packed] = JSON.parse(stdout) as [{ filename: string; files: { path: string }[] }];
  files = packed.files.map((f) => f.path).sort();
  project = join(work, 'consumer');
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true }));
  await run('npm', [...INSTALL, join(work, packed.filename), `@types/node@${devVersion('@types/node')}`], { cwd: project, env, timeout: 120_000 });
}, 180_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the npm tarball', () => {
  it('carries no script npm runs on install (npm 11 warns about any that allowScripts does not cover)', () => {
    const installed = JSON.parse(readFileSync(join(project, 'node_modules/a2a-resilient/package.json'), 'utf8')) as { scripts?: Record<string, string> };
    const lifecycle = ['preinstall', 'install', 'postinstall', 'prepare', 'preprepare', 'postprepare', 'prepublish'];
    expect(Object.keys(installed.scripts ?? {}).filter((name) => lifecycle.includes(name))).toEqual([]);
  });

  it('is built by `npm pack` and `npm publish` (prepack), and never by `npm ci` or an install (no prepare)', () => {
    const scripts = pkg.scripts as Record<string, string>;
    expect(scripts.prepack).toBe('npm run build');
    expect(scripts.prepare).toBeUndefined();
  });

  it('holds the built entry points, LICENSE and README, and no source maps, tests or sources', () => {
    expect(files).toEqual(
      expect.arrayContaining(['LICENSE', 'README.md', 'package.json', 'dist/src/index.js', 'dist/src/index.d.ts', 'dist/mocks/entry.js', 'dist/mocks/index.d.ts', 'dist/src/redis/entry.js', 'dist/src/redis/index.d.ts', 'dist/src/push/index.js', 'dist/src/push/index.d.ts', 'dist/src/cli/main.js']),
    );
    // examples/ ships as sources to read and docs/ as the guides (the README links both): the examples import
    // only the package's entry points. dist/web is the build for browsers and workers.
    const stray = files.filter(
      (f) =>
        !['LICENSE', 'README.md', 'package.json'].includes(f) &&
        !/^dist\/(src|mocks)\/.+\.(js|d\.ts)$/.test(f) &&
        !/^dist\/web\/(index|push|chunks\/[\w-]+)\.js$/.test(f) &&
        !/^examples\/[a-z-]+\.ts$/.test(f) &&
        !/^docs\/[a-z0-9-]+\.md$/.test(f),
    );
    expect(stray).toEqual([]);
    expect(readFileSync(join(root, 'LICENSE'), 'utf8')).toContain('Apache License\n                           Version 2.0, January 2004');
  });

  it('holds every guide and example the README and the guides link to (docs/…, examples/…), so the links work in node_modules too', () => {
    const guides = files.filter((f) => f.startsWith('docs/'));
    expect(guides).toContain('docs/errors-and-retries.md');
    const linked = ['README.md', ...guides].flatMap((page) => {
      const base = page === 'README.md' ? '' : 'docs/';
      const text = readFileSync(join(root, page), 'utf8');
      return [...text.matchAll(/\]\(((?:\.\.\/)?(?:examples|docs)\/[^)#]+|[a-z0-9-]+\.md)(?:#[^)]*)?\)/g)].map((m) => join(base, m[1] ?? ''));
    });
    expect(linked).toContain('examples/quick-start.ts');
    // A link to a page that is not in the repository is test/docs/links.test.ts's to report.
    for (const path of new Set(linked)) if (existsSync(join(root, path))) expect(files, `a link to ${path}`).toContain(path);
  });

  it('ships every module built from the current sources, each with its types, and nothing stale', () => {
    // dist/src/chunks/ holds the code the bundled entry points share (scripts/bundle.mjs): no source of its own.
    // dist/web/ is the web build of the same sources (scripts/bundle.mjs), typed by dist/src's .d.ts.
    const js = files.filter((f) => f.endsWith('.js') && !f.startsWith('dist/src/chunks/') && !f.startsWith('dist/web/'));
    expect(files.filter((f) => f.startsWith('dist/src/chunks/')).every((f) => f.endsWith('.js'))).toBe(true);
    expect(files.filter((f) => f.startsWith('dist/web/')).every((f) => f.endsWith('.js'))).toBe(true);
    for (const f of ['dist/web/index.js', 'dist/web/push.js']) {
      expect(files, `${f} (the web build) is missing`).toContain(f);
      expect(statSync(join(root, f)).mtimeMs, `${f} is older than src/index.ts: run \`npm run build\``).toBeGreaterThanOrEqual(statSync(join(root, 'src/index.ts')).mtimeMs);
    }
    for (const f of js) {
      expect(files, `${f} has no .d.ts`).toContain(f.replace(/\.js$/, '.d.ts'));
      const source = join(root, f.replace(/^dist\//, '').replace(/\.js$/, '.ts'));
      const src = statSync(source, { throwIfNoEntry: false });
      expect(src, `${f} has no source (a stale build? run \`npm run build\`)`).toBeDefined();
      expect(statSync(join(root, f)).mtimeMs, `${f} is older than ${source}: run \`npm run build\``).toBeGreaterThanOrEqual(src?.mtimeMs ?? 0);
    }
  });

  it('says who made it, where it lives and what it needs', () => {
    expect(pkg).toMatchObject({
      license: 'Apache-2.0',
      repository: { type: 'git', url: expect.stringMatching(/^git\+https:\/\//) },
      homepage: expect.stringMatching(/^https:\/\//),
      bugs: { url: expect.stringMatching(/^https:\/\//) },
      keywords: expect.arrayContaining(['a2a']),
      engines: { node: expect.stringMatching(/^>=20\.19/) },
    });
  });
});

describe('installed in a fresh project, without msw, redis or a framework (a2a-resilient/push needs none)', () => {
  const missing = {
    client: 'function',
    fanOut: 'function',
    mocks: { code: 'ERR_MODULE_NOT_FOUND', message: expect.stringContaining('npm install --save-dev msw') },
    redis: { code: 'ERR_MODULE_NOT_FOUND', message: expect.stringContaining('npm install redis') },
    push: 'function',
    aiSdk: { code: 'ERR_MODULE_NOT_FOUND', message: expect.stringContaining('npm install ai') },
    langchain: { code: 'ERR_MODULE_NOT_FOUND', message: expect.stringContaining('npm install @langchain/core') },
    // a2a-resilient/a2a-js loads without @a2a-js/sdk: the 0.3 factories need nothing, the 1.x ones say what to install when first used.
    v03: ['JSONRPC', 'HTTP+JSON', 'GRPC'],
    v1: { code: 'ERR_MODULE_NOT_FOUND', message: expect.stringContaining('npm install @a2a-js/sdk@^1') },
    // The framework entries are built apart from the main one but throw its error class (one instance).
    badCard: 'card',
  };

  it('imports from ESM; a2a-resilient/mocks and a2a-resilient/redis fail with what to install', async () => {
    writeFileSync(join(project, 'smoke.mjs'), SMOKE_ESM);
    expect(JSON.parse(await node('smoke.mjs'))).toEqual(missing);
  });

  it('requires from CommonJS, and the optional entry points fail with the same messages', async () => {
    writeFileSync(join(project, 'smoke.cjs'), SMOKE_CJS);
    expect(JSON.parse(await node('smoke.cjs'))).toEqual(missing);
  });

  it('runs the CLI binary: --version prints the installed version, --help the usage', async () => {
    const cli = join(project, 'node_modules/.bin/a2a-resilient');
    expect((await run(cli, ['--version'], { cwd: project, env })).stdout.trim()).toBe(pkg.version);
    expect((await run(cli, ['--help'], { cwd: project, env })).stdout).toContain('Usage: a2a-resilient <command>');
  });

  it('the CLI demo without msw: the mocks entry’s install hint on one line, no stack, exit 1', async () => {
    const cli = join(project, 'node_modules/.bin/a2a-resilient');
    const failed = await run(cli, ['demo'], { cwd: project, env, timeout: 30_000 }).then(
      () => undefined,
      (error: { code?: number; stdout?: string; stderr?: string }) => error,
    );
    expect(failed?.code).toBe(1);
    expect(failed?.stdout).toBe('');
    expect(failed?.stderr).toBe('a2a-resilient demo needs msw, an optional peer dependency that is not installed. Install it next to a2a-resilient: `npm install --save-dev msw@^2.9.0`.\n');
  });
});

describe('installed in a fresh project, with msw and redis', () => {
  beforeAll(async () => {
    await run('npm', [...INSTALL, `msw@${devVersion('msw')}`, `redis@${devVersion('redis')}`], { cwd: project, env, timeout: 120_000 });
  }, 180_000);

  it('a2a-resilient/redis through require() and import: its store is a sharedState the client accepts', async () => {
    writeFileSync(join(project, 'redis.cjs'), REDIS_CJS);
    writeFileSync(join(project, 'redis.mjs'), REDIS_ESM);
    const expected = { factory: 'function', degraded: 'degraded', closed: 'closed' };
    expect(JSON.parse(await node('redis.cjs'))).toEqual(expected);
    expect(JSON.parse(await node('redis.mjs'))).toEqual(expected);
  });

  it('a CommonJS coordinator calls a mock agent through require() of both entry points', async () => {
    writeFileSync(join(project, 'round-trip.cjs'), ROUND_TRIP_CJS);
    expect(JSON.parse(await node('round-trip.cjs'))).toEqual({ texts: ['hello from the tarball'], sameExports: true });
  });

  it('an ES module coordinator does the same through import', async () => {
    writeFileSync(join(project, 'round-trip.mjs'), ROUND_TRIP_ESM);
    expect(JSON.parse(await node('round-trip.mjs'))).toEqual({ texts: ['hello from the tarball'], sameExports: true });
  });

  it('type-checks TypeScript consumers: ESM under node16 and bundler, import = require() in a .cts under nodenext', async () => {
    await Promise.all([
      tsc({ module: 'node16', moduleResolution: 'node16' }, 'consumer.mts', CONSUMER_ESM),
      tsc({ module: 'esnext', moduleResolution: 'bundler' }, 'consumer.ts', CONSUMER_ESM),
      tsc({ module: 'nodenext', moduleResolution: 'nodenext' }, 'consumer.cts', CONSUMER_CTS),
    ]);
  }, 180_000); // three compilers side by side on a loaded 2-core CI machine
});
