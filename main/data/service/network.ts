import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import tls from 'node:tls';
import { Agent, type Dispatcher, EnvHttpProxyAgent } from 'undici';

/** What the dispatcher waits for before it gives up on a request. */
export interface Timeouts {
  /** Establishing the connection (TCP and TLS). */
  connectMs: number;
  /** From sending the request to the response's headers. */
  headersMs: number;
  /** Longest silence while the response body arrives. */
  bodyMs: number;
}

/**
 * How the client reaches the service on a corporate network: through the proxy the environment
 * names (`HTTPS_PROXY`, `HTTP_PROXY`, `NO_PROXY`, as curl and most tools read them), trusting this
 * computer's certificate authorities and any extra ones from a CA bundle (a TLS-inspecting proxy
 * signs every site with its own).
 */
export interface NetworkOptions {
  /** Honour the proxy variables (never for the built-in sandbox on loopback). */
  proxy: boolean;
  /** Extra trusted certificates (PEM), from `loadCaBundle`. */
  extraCa?: readonly string[];
}

/** Node's bundled roots plus the operating system's store, where this Node can read it. */
function trustedRoots(): string[] {
  const get = (tls as { getCACertificates?: (type: string) => string[] }).getCACertificates;
  if (!get) return [...tls.rootCertificates];
  const system = (() => {
    try {
      return get('system');
    } catch {
      return [];
    }
  })();
  return [...new Set([...get('bundled'), ...system])];
}

export function serviceDispatcher(
  timeouts: Timeouts,
  connections: number,
  network: NetworkOptions = { proxy: false },
): Dispatcher {
  // Setting `ca` replaces Node's default list, so the roots come first and the extra ones join them.
  const ca = network.extraCa?.length ? [...trustedRoots(), ...network.extraCa] : undefined;
  const tlsOptions = { timeout: timeouts.connectMs, ...(ca ? { ca } : {}) };
  const common = { headersTimeout: timeouts.headersMs, bodyTimeout: timeouts.bodyMs, connections };
  if (!network.proxy) return new Agent({ ...common, connect: tlsOptions });
  // The proxy's own TLS (an https:// proxy) is checked against the same authorities.
  return new EnvHttpProxyAgent({
    ...common,
    connect: tlsOptions,
    requestTls: tlsOptions,
    proxyTls: tlsOptions,
  });
}

export class CaBundleError extends Error {
  override readonly name = 'CaBundleError';
}

const PEM_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/** Reads and checks a CA bundle: one or more PEM certificates, each one readable. */
export function loadCaBundle(file: string): string[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT'
        ? 'there is no such file'
        : code === 'EACCES'
          ? 'it may not be read'
          : 'it could not be read';
    throw new CaBundleError(
      `The extra CA bundle ${file} was not loaded: ${why}. Correct the path in Settings.`,
    );
  }
  const blocks = text.match(PEM_BLOCK) ?? [];
  if (blocks.length === 0) {
    throw new CaBundleError(
      `The extra CA bundle ${file} holds no PEM certificate (“-----BEGIN CERTIFICATE-----”). Export the proxy’s CA as PEM.`,
    );
  }
  blocks.forEach((block, index) => {
    try {
      new X509Certificate(block);
    } catch {
      throw new CaBundleError(
        `Certificate ${index + 1} in the extra CA bundle ${file} is damaged and could not be read.`,
      );
    }
  });
  return blocks;
}
