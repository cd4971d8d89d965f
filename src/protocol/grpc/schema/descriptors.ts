import type { DescFile, DescMessage, DescService, FileRegistry } from '@bufbuild/protobuf';
import { A2A_V03 } from './a2a-v03.js';
import { A2A_V1 } from './a2a-v1.js';
import { GOOGLE_RPC } from './google-rpc.js';
import { registryOf } from './proto-table.js';

function lookup<T>(found: T | undefined, what: string): T {
  if (found === undefined) throw new TypeError(`unreachable: ${what} is not in its table`);
  return found;
}

const v1: FileRegistry = registryOf(A2A_V1);
const v03: FileRegistry = registryOf(A2A_V03);
const rpc: FileRegistry = registryOf(GOOGLE_RPC);

/** The A2A v1.0 service (`lf.a2a.v1.A2AService`). */
export const V1_SERVICE: DescService = lookup(v1.getService('lf.a2a.v1.A2AService'), 'lf.a2a.v1.A2AService');
/** The A2A v0.3 service (`a2a.v1.A2AService`). */
export const V03_SERVICE: DescService = lookup(v03.getService('a2a.v1.A2AService'), 'a2a.v1.A2AService');
/** The `google.rpc` file: what a registry needs to read the details of a `google.rpc.Status`. */
export const RPC_FILE: DescFile = lookup(rpc.getFile(GOOGLE_RPC.file), GOOGLE_RPC.file);
/** `google.rpc.Status`. */
export const STATUS: DescMessage = lookup(rpc.getMessage('google.rpc.Status'), 'google.rpc.Status');
