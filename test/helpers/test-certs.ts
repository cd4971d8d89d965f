import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** PEM texts of a private PKI generated at test time with `openssl` (nothing checked in, nothing from outside). */
export interface TestCerts {
  /** The CA that signs the server and client certificates. */
  ca: string;
  /** Server certificate for `127.0.0.1`, `::1` and `localhost` (SAN), signed by {@link ca}. */
  serverCert: string;
  serverKey: string;
  /** Server certificate for `agent.test` only (SAN), signed by {@link ca}: for `servername` tests. */
  namedCert: string;
  namedKey: string;
  /** Client certificate (`extendedKeyUsage = clientAuth`) signed by {@link ca}. */
  clientCert: string;
  clientKey: string;
  /** The same client key, encrypted with {@link passphrase}. */
  clientKeyEncrypted: string;
  passphrase: string;
  /** A second, unrelated CA and a client certificate it signed (a "wrong" client certificate). */
  otherCa: string;
  otherClientCert: string;
  otherClientKey: string;
  /** Removes the temporary directory. */
  cleanup(): void;
}

/** Runs `openssl` in `dir`; throws with its stderr when it fails. */
function openssl(dir: string, args: string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
}

function makeCa(dir: string, name: string): void {
  openssl(dir, ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', `${name}.key`, '-out', `${name}.crt`, '-days', '2', '-subj', `/CN=${name} test CA`]);
}

/** A leaf certificate `name` signed by CA `ca`, with the given extensions. */
function makeLeaf(dir: string, ca: string, name: string, extensions: string): void {
  writeFileSync(join(dir, `${name}.ext`), extensions);
  openssl(dir, ['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', `/CN=${name}`]);
  openssl(dir, ['x509', '-req', '-in', `${name}.csr`, '-CA', `${ca}.crt`, '-CAkey', `${ca}.key`, '-CAcreateserial', '-out', `${name}.crt`, '-days', '2', '-extfile', `${name}.ext`]);
}

/**
 * Generates a CA, server and client certificates (and an unrelated CA with its own client
 * certificate) in a fresh temporary directory. Takes about a second; call it once per test file.
 */
export function generateTestCerts(): TestCerts {
  const dir = mkdtempSync(join(tmpdir(), 'a2a-certs-'));
  const passphrase = 'correct horse battery staple';
  makeCa(dir, 'ca');
  makeCa(dir, 'other-ca');
  makeLeaf(dir, 'ca', 'server', 'subjectAltName = IP:127.0.0.1, IP:::1, DNS:localhost\nextendedKeyUsage = serverAuth\n');
  makeLeaf(dir, 'ca', 'named', 'subjectAltName = DNS:agent.test\nextendedKeyUsage = serverAuth\n');
  makeLeaf(dir, 'ca', 'client', 'extendedKeyUsage = clientAuth\n');
  makeLeaf(dir, 'other-ca', 'other-client', 'extendedKeyUsage = clientAuth\n');
  openssl(dir, ['pkey', '-in', 'client.key', '-aes256', '-passout', `pass:${passphrase}`, '-out', 'client-encrypted.key']);
  const read = (file: string): string => readFileSync(join(dir, file), 'utf8');
  return {
    ca: read('ca.crt'),
    serverCert: read('server.crt'),
    serverKey: read('server.key'),
    namedCert: read('named.crt'),
    namedKey: read('named.key'),
    clientCert: read('client.crt'),
    clientKey: read('client.key'),
    clientKeyEncrypted: read('client-encrypted.key'),
    passphrase,
    otherCa: read('other-ca.crt'),
    otherClientCert: read('other-client.crt'),
    otherClientKey: read('other-client.key'),
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}
