import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { undici, undiciCore } from '../../src/transport/undici-lib.js';
import { v1Card, v1Message } from '../helpers/recording-agent.js';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));

describe('undiciCore', () => {
  it('gives the very Agent and buildConnector the undici package exports (a caller’s undici.Agent is ours)', () => {
    const pkg = createRequire(import.meta.url)('undici') as typeof import('undici');
    expect(undiciCore().Agent).toBe(pkg.Agent);
    expect(undiciCore().buildConnector).toBe(pkg.buildConnector);
    expect(undici()).toBe(pkg);
  });

  it('lets a client answer its first call without loading undici’s fetch, nor Node’s own copy of undici', async () => {
    // A loopback agent here; a fresh client process, as a CLI or a serverless coordinator starts, on the built package.
    const server = createServer((rq, rs) => {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      rq.resume();
      rq.on('end', () => {
        rs.writeHead(200, { 'content-type': 'application/json' });
        rs.end(JSON.stringify(rq.method === 'GET' ? v1Card(`${url}/rpc`, 'cold') : { jsonrpc: '2.0', id: 1, result: v1Message('pong') }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const script = `
      import { createRequire } from 'node:module';
      import { A2AClient } from 'a2a-resilient';
      const client = await A2AClient.connect(process.argv[1]);
      const answer = await client.sendMessage({ message: { role: 'user', parts: [{ kind: 'text', text: 'ping' }] } });
      const cache = Object.keys(createRequire(import.meta.url).cache);
      console.log(JSON.stringify({
        answer: answer.kind === 'message' ? answer.parts[0].text : answer.kind,
        nodeUndici: process.moduleLoadList.some((m) => m.includes('deps/undici')),
        undiciFetch: cache.some((f) => f.includes('undici/lib/web/fetch/index.js')),
        undiciAgent: cache.some((f) => f.includes('undici/lib/dispatcher/agent.js')),
      }));
      await client.close();
    `;
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script, base], { cwd: root, timeout: 30_000 }).finally(() => server.close());
    expect(JSON.parse(stdout.trim().split('\n').pop() ?? '')).toEqual({ answer: 'pong', nodeUndici: false, undiciFetch: false, undiciAgent: true });
  });
});
