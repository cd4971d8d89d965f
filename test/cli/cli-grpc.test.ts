/** The CLI talks to gRPC agents: the card's GRPC interface is negotiated, or insisted on with --binding. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/cli.js';
import type { CommandIO } from '../../src/cli/io.js';
import { startOfficialGrpcServer, type OfficialGrpcServer } from '../helpers/official-grpc-server.js';

function capture(): { io: CommandIO; stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return { io: { isTTY: false, out: (l) => stdout.push(l), err: (l) => stderr.push(l), status: () => undefined }, stdout, stderr };
}

let server: OfficialGrpcServer;
beforeAll(async () => {
  server = await startOfficialGrpcServer();
});
afterAll(async () => {
  await server.close();
});

describe('a2a-resilient send to a gRPC agent', () => {
  it('streams the answer over GRPC (--verbose names the binding)', async () => {
    const c = capture();
    const code = await main(['send', server.baseUrl, 'stream 3', '--stream', '--binding', 'grpc', '--verbose'], c.io);
    expect(code).toBe(0);
    expect(c.stderr.join('\n')).toContain('over GRPC');
    expect(c.stdout.join('\n')).toContain('chunk 2');
  });

  it('refuses an unknown binding with a usage error', async () => {
    const c = capture();
    expect(await main(['send', server.baseUrl, 'hi', '--binding', 'carrier-pigeon'], c.io)).toBe(2);
  });
});
