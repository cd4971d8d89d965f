/**
 * The official `@a2a-js/sdk` 1.3 gRPC server on 127.0.0.1, for interop tests: its v1.0 service
 * (`lf.a2a.v1.A2AService`, `grpcService`) and its legacy v0.3 service (`a2a.v1.A2AService`,
 * `legacyGrpcService`) on one port, driven by the same scripted agent as the HTTP interop server
 * (see `official-server.ts`), and the card over HTTP with GRPC interfaces only. Optionally behind a
 * loopback TCP relay (`proxy: true`) that a test can cut mid-stream, or behind a cutting relay
 * (`cuttingProxy: true`) that cuts the request carrying a marker.
 */
import { createServer, type Server as HttpServer } from 'node:http';
import * as grpc from '@grpc/grpc-js';
import express from 'express';
import { DefaultRequestHandler, InMemoryTaskStore } from '@a2a-js/sdk/server';
import { agentCardHandler } from '@a2a-js/sdk/server/express';
import { A2AService, grpcService, UserBuilder } from '@a2a-js/sdk/server/grpc';
import { LegacyA2AService, legacyGrpcService } from '@a2a-js/sdk/compat/v0_3/server/grpc';
import { buildCard, ScriptedExecutor } from './official-server.js';
import { startCuttingProxy, type CuttingProxy } from './cutting-proxy.js';
import { startTcpProxy, type TcpProxy } from './tcp-proxy.js';

/** Options for {@link startOfficialGrpcServer}. */
export interface OfficialGrpcOptions {
  name?: string;
  /** Delay between stream chunks, in ms. @default 0 */
  chunkDelayMs?: number;
  /** Put a TCP relay in front of the gRPC port and list the relay's address on the card. */
  proxy?: boolean;
  /**
   * Put a {@link CuttingProxy} in front of the gRPC port and list its address on the card (instead of
   * the plain relay of `proxy`, which wins when both are set).
   */
  cuttingProxy?: boolean;
  /** Write the card's gRPC URLs as `http://host:port` (pre-1.0.2 cards) instead of `host:port`. */
  urlStyle?: 'host-port' | 'http';
}

/** A running official gRPC server. */
export interface OfficialGrpcServer {
  /** `http://127.0.0.1:<port>`: where the card is. */
  baseUrl: string;
  /** `127.0.0.1:<port>` of the gRPC server itself. */
  grpcTarget: string;
  /** What the card lists (the relay's address with `proxy`). */
  cardTarget: string;
  /** The relay, with `proxy: true`. */
  proxy?: TcpProxy;
  /** The cutting relay, with `cuttingProxy: true`. */
  cutting?: CuttingProxy;
  /** Every call the server saw cancelled by the client (`/<service>/<method>`). */
  cancelled: string[];
  /** Every call the server received, in order (`/<service>/<method>`), with its metadata. */
  calls: Array<{ path: string; metadata: Record<string, string> }>;
  executor: ScriptedExecutor;
  close(): Promise<void>;
}

type Handlers = Record<string, (...args: never[]) => unknown>;

/** Wraps each handler to record the call and a cancellation by the client. */
function observed(impl: Handlers, service: string, log: OfficialGrpcServer): grpc.UntypedServiceImplementation {
  const out: grpc.UntypedServiceImplementation = {};
  for (const [name, handler] of Object.entries(impl)) {
    out[name] = ((call: grpc.ServerUnaryCall<unknown, unknown>, ...rest: unknown[]) => {
      const path = `/${service}/${name.charAt(0).toUpperCase()}${name.slice(1)}`;
      const metadata: Record<string, string> = {};
      for (const [k, v] of Object.entries(call.metadata.getMap())) metadata[k] = String(v);
      log.calls.push({ path, metadata });
      call.on('cancelled', () => log.cancelled.push(path));
      return (handler as (...a: unknown[]) => unknown)(call, ...rest);
    }) as grpc.UntypedHandleCall;
  }
  return out;
}

/** Starts the server (gRPC and card) on ephemeral loopback ports. */
export async function startOfficialGrpcServer(opts: OfficialGrpcOptions = {}): Promise<OfficialGrpcServer> {
  const server = new grpc.Server();
  const http: HttpServer = createServer();
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const address = http.address();
  const baseUrl = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}`;
  const built = buildCard(opts.name ?? 'official-grpc-agent', baseUrl, 'JSONRPC', true, true);
  // The handler keeps this object: its URLs are filled in once the ports are known.
  const card = { ...built, supportedInterfaces: ['1.0', '0.3'].map((protocolVersion) => ({ url: '', protocolBinding: 'GRPC', protocolVersion, tenant: '' })) };
  const executor = new ScriptedExecutor(opts.chunkDelayMs ?? 0);
  const handler = new DefaultRequestHandler(card, new InMemoryTaskStore(), executor);
  const result: OfficialGrpcServer = {
    baseUrl, grpcTarget: '', cardTarget: '', cancelled: [], calls: [], executor,
    close: async () => {
      for (const { release } of executor.waiting.values()) release();
      await result.proxy?.close();
      await result.cutting?.close();
      server.forceShutdown();
      const closed = new Promise<void>((resolve) => http.close(() => resolve()));
      http.closeAllConnections();
      await closed;
    },
  };
  const userBuilder = UserBuilder.noAuthentication;
  server.addService(A2AService, observed(grpcService({ requestHandler: handler, userBuilder }) as unknown as Handlers, 'lf.a2a.v1.A2AService', result));
  server.addService(LegacyA2AService, observed(legacyGrpcService({ requestHandler: handler, userBuilder }) as unknown as Handlers, 'a2a.v1.A2AService', result));
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (error, p) => (error ? reject(error) : resolve(p))));
  result.grpcTarget = `127.0.0.1:${port}`;
  const proxy = opts.proxy ? await startTcpProxy(port) : undefined;
  if (proxy) result.proxy = proxy;
  const cutting = !proxy && opts.cuttingProxy ? await startCuttingProxy(port) : undefined;
  if (cutting) result.cutting = cutting;
  const relayPort = proxy?.port ?? cutting?.port;
  result.cardTarget = relayPort !== undefined ? `127.0.0.1:${relayPort}` : result.grpcTarget;
  for (const i of card.supportedInterfaces) i.url = opts.urlStyle === 'http' ? `http://${result.cardTarget}` : result.cardTarget;
  const app = express();
  const cardRoute = agentCardHandler({ agentCardProvider: handler, legacyCompat: { enabled: true } });
  app.use('/.well-known/agent-card.json', cardRoute);
  http.on('request', app);
  return result;
}
