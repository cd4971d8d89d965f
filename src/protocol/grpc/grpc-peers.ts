/**
 * Loads the gRPC binding's optional peer dependencies on first use. The main entry never imports
 * them statically: a client that never meets a gRPC agent needs neither installed. Node build only
 * (through `grpc-support.ts` and the binding): the web build has no gRPC.
 */
import { A2AClientError } from '../../errors/a2a-client-error.js';
import type { GrpcRuntime } from './grpc-runtime.js';
import { platform } from '../../platform/current.js';

/** The packages the gRPC binding needs, and the command that installs them. */
export const GRPC_PEERS = ['@grpc/grpc-js', '@bufbuild/protobuf'] as const;
const INSTALL = `npm install ${GRPC_PEERS.join(' ')}`;

/**
 * The loader's settings. Internal, not exported from the package: `peers` is the list checked before
 * the runtime module is imported — a test points it at a module name that does not exist to see the
 * `unsupported` error a missing install gives (and calls {@link resetGrpcRuntime}).
 */
export const grpcLoader: { peers: readonly string[] } = { peers: GRPC_PEERS };

let loading: Promise<GrpcRuntime> | undefined;

/**
 * The first gRPC peer that cannot be found, checked synchronously (so that a client constructor can
 * pass a gRPC interface over for another one); `undefined` when all are installed.
 */
export function missingGrpcPeer(): string | undefined {
  for (const name of grpcLoader.peers) if (!platform.resolves(name)) return name;
  return undefined;
}

/**
 * The `unsupported` error for a gRPC interface whose peer `name` is missing.
 */
export function missingPeerError(name: string, cause?: unknown): A2AClientError {
  return missing(name, cause);
}

function missing(name: string, cause: unknown): A2AClientError {
  return new A2AClientError({
    kind: 'unsupported',
    message: `the agent speaks gRPC, which needs the optional peer dependency ${name} (not installed). Install next to a2a-resilient: \`${INSTALL}\``,
    phase: 'before-send',
    cause,
  });
}

async function load(): Promise<GrpcRuntime> {
  for (const name of grpcLoader.peers) {
    try {
      await import(name);
    } catch (cause) {
      throw missing(name, cause);
    }
  }
  try {
    return (await import('./grpc-runtime.js')).runtime;
  } catch (cause) {
    throw missing(GRPC_PEERS.join(' and '), cause);
  }
}

/**
 * The gRPC runtime, loaded once per process (a failed load is retried on the next call).
 * @throws A2AClientError kind `unsupported` naming the package to install when a peer is missing.
 */
export function loadGrpcRuntime(): Promise<GrpcRuntime> {
  loading ??= load().catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

/** Forgets a loaded runtime, so the next {@link loadGrpcRuntime} loads again (tests of the loader). */
export function resetGrpcRuntime(): void {
  loading = undefined;
}
