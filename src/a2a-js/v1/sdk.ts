/** The parts of `@a2a-js/sdk` 1.x the transports use, loaded on first use (an optional peer dependency). */
type Root = typeof import('@a2a-js/sdk');
type Errors = typeof import('@a2a-js/sdk/errors');
type GrpcErrors = typeof import('@a2a-js/sdk/errors/grpc');

/** `@a2a-js/sdk` 1.x: its codecs (`Task.fromJSON`, …) and its error classes. */
export interface SdkV1 {
  /** The package root: the ProtoJSON codecs of every A2A type. */
  readonly root: Root;
  /** `@a2a-js/sdk/errors`: the JSON-RPC and REST error classes and their decoders. */
  readonly errors: Errors;
}

let sdk: Promise<SdkV1> | undefined;
let grpcErrors: Promise<GrpcErrors> | undefined;

function missing(what: string, cause: unknown): Error {
  return Object.assign(
    new Error(
      `a2a-resilient/a2a-js: resilientTransports() needs ${what}, an optional peer dependency: \`npm install @a2a-js/sdk@^1\` (for @a2a-js/sdk 0.3, as @google/adk uses, call resilientTransportsV03() instead)`,
      { cause },
    ),
    { code: 'ERR_MODULE_NOT_FOUND' },
  );
}

/**
 * Loads `@a2a-js/sdk` 1.x once.
 * @throws Error with `code` `ERR_MODULE_NOT_FOUND` when it is missing or is 0.3 (no `./errors` export).
 */
export function loadSdkV1(): Promise<SdkV1> {
  sdk ??= Promise.all([import('@a2a-js/sdk'), import('@a2a-js/sdk/errors')]).then(
    ([root, errors]) => ({ root, errors }),
    (cause: unknown) => {
      sdk = undefined;
      throw missing('@a2a-js/sdk 1.x', cause);
    },
  );
  return sdk;
}

/**
 * Loads `@a2a-js/sdk/errors/grpc` once (it needs `@bufbuild/protobuf`, which the gRPC binding needs too).
 * @throws Error with `code` `ERR_MODULE_NOT_FOUND` when it cannot be loaded.
 */
export function loadGrpcErrors(): Promise<GrpcErrors> {
  grpcErrors ??= import('@a2a-js/sdk/errors/grpc').catch((cause: unknown) => {
    grpcErrors = undefined;
    throw missing('@a2a-js/sdk 1.x with @bufbuild/protobuf (for its gRPC errors)', cause);
  });
  return grpcErrors;
}
