/**
 * Without the optional gRPC peers, a gRPC-only card fails at connect() with kind `unsupported` naming
 * what to install, and a card that also lists another binding falls back to it. The peer list of the
 * real loader is pointed at a package that does not exist (its documented test seam).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { A2AClient, isA2AClientError } from 'a2a-resilient';
import { GRPC_PEERS, grpcLoader, resetGrpcRuntime } from '../../../src/protocol/grpc/grpc-peers.js';
import { grpcTarget } from '../../../src/protocol/grpc/grpc-target.js';
import { startOfficialGrpcServer } from '../../helpers/official-grpc-server.js';

afterEach(() => {
  grpcLoader.peers = GRPC_PEERS;
  resetGrpcRuntime();
});

describe('optional gRPC peers', () => {
  it('connect() to a gRPC-only card fails with unsupported naming the package to install', async () => {
    const s = await startOfficialGrpcServer();
    try {
      grpcLoader.peers = ['@grpc/grpc-js', 'a2a-resilient-test-missing-peer'];
      resetGrpcRuntime();
      const error: unknown = await A2AClient.connect(s.baseUrl).then(() => undefined, (e: unknown) => e);
      expect(isA2AClientError(error) && error.kind).toBe('unsupported');
      expect(String((error as Error).message)).toContain('a2a-resilient-test-missing-peer');
      expect(String((error as Error).message)).toContain('npm install @grpc/grpc-js @bufbuild/protobuf');
    } finally {
      await s.close();
    }
  });

  it('a card that also lists JSON-RPC falls back to it; protocol.binding GRPC insists', () => {
    grpcLoader.peers = ['a2a-resilient-test-missing-peer'];
    const card = {
      name: 'both', description: 'd', version: '1', capabilities: {}, defaultInputModes: [], defaultOutputModes: [], skills: [],
      supportedInterfaces: [
        { url: '127.0.0.1:9', protocolBinding: 'GRPC', protocolVersion: '1.0' },
        { url: 'http://127.0.0.1:9/rpc', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      ],
    };
    expect(new A2AClient(card).protocol.binding).toBe('JSONRPC');
    let error: unknown;
    try {
      new A2AClient(card, { protocol: { binding: 'GRPC' } });
    } catch (e) {
      error = e;
    }
    expect(isA2AClientError(error) && error.kind).toBe('unsupported');
  });
});

describe('gRPC interface URLs', () => {
  it('accepts host:port (1.0.2) and the older URL forms, normalised for grpc-js', () => {
    expect(grpcTarget('127.0.0.1:50051')).toEqual({ target: '127.0.0.1:50051', secure: false, origin: 'grpc://127.0.0.1:50051' });
    expect(grpcTarget('agent.example.com:443')).toEqual({ target: 'agent.example.com:443', secure: true, origin: 'grpcs://agent.example.com:443' });
    expect(grpcTarget('https://agent.example.com/a2a')).toMatchObject({ target: 'agent.example.com:443', secure: true });
    expect(grpcTarget('grpcs://agent.example.com:8443')).toMatchObject({ target: 'agent.example.com:8443', secure: true });
    expect(grpcTarget('http://[::1]:7000')).toMatchObject({ target: '[::1]:7000', secure: false });
    expect(grpcTarget('agent.internal:50051', { insecure: true })).toMatchObject({ secure: false });
  });

  it('refuses plaintext to a remote host unless asked, and URLs without a port', () => {
    const kind = (f: () => unknown): unknown => {
      try {
        f();
      } catch (e) {
        return isA2AClientError(e) ? e.kind : e;
      }
      return 'no error';
    };
    expect(kind(() => grpcTarget('http://agent.example.com:80'))).toBe('unsupported');
    expect(kind(() => grpcTarget('grpc://agent.example.com:80', { insecure: true }))).toBe('no error');
    expect(kind(() => grpcTarget('agent.example.com'))).toBe('card');
    expect(kind(() => grpcTarget('ftp://x:1'))).toBe('card');
  });
});
