// Certificates for TLS tests, made with the openssl CLI in a directory of the caller's (this run only).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const EC_KEY = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'ignore' });

export interface CertFiles {
  certFile: string;
  keyFile: string;
  /** The certificate's PEM. */
  pem: string;
}

/** A self-signed certificate (and its key) named `name` with these X.509 extensions, valid two days. */
export function makeSelfSigned(dir: string, name: string, extensions: readonly string[]): CertFiles {
  const keyFile = path.join(dir, `${name}.key`);
  const certFile = path.join(dir, `${name}.pem`);
  openssl(
    'req',
    '-x509',
    ...EC_KEY,
    '-keyout',
    keyFile,
    '-out',
    certFile,
    '-days',
    '2',
    '-subj',
    `/CN=${name}`,
    ...extensions.flatMap((extension) => ['-addext', extension]),
  );
  return { certFile, keyFile, pem: fs.readFileSync(certFile, 'utf8') };
}

/** A CA certificate (and its key) named `name`. */
export function makeCa(dir: string, name: string): CertFiles {
  return makeSelfSigned(dir, name, [
    'basicConstraints=critical,CA:TRUE',
    'keyUsage=critical,keyCertSign,cRLSign',
  ]);
}

/** A server certificate `name` for `altName` (e.g. IP:127.0.0.1), signed by `ca`. */
export function makeServerCert(dir: string, ca: CertFiles, name: string, altName: string): CertFiles {
  const keyFile = path.join(dir, `${name}.key`);
  const certFile = path.join(dir, `${name}.pem`);
  const request = path.join(dir, `${name}.csr`);
  const extFile = path.join(dir, `${name}.ext`);
  openssl('req', '-new', ...EC_KEY, '-keyout', keyFile, '-out', request, '-subj', `/CN=${name}`);
  fs.writeFileSync(extFile, `subjectAltName=${altName}\nextendedKeyUsage=serverAuth\n`);
  openssl(
    'x509',
    '-req',
    '-in',
    request,
    '-CA',
    ca.certFile,
    '-CAkey',
    ca.keyFile,
    '-CAcreateserial',
    '-out',
    certFile,
    '-days',
    '2',
    '-extfile',
    extFile,
  );
  return { certFile, keyFile, pem: fs.readFileSync(certFile, 'utf8') };
}
