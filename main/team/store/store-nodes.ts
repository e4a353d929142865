// A team store on more than one node (a primary and a synchronous standby that may be promoted), written as
// libpq writes it: `host=a,b port=p1,p2`, or in a URL `postgres://user@a:5432,b:5433/db?target_session_attrs=
// read-write`. Parsed here into the nodes in the order they are tried; writable-node.ts picks the writable one.
import type { TeamConnection } from '#main/ground/config/team-connection.ts';

export interface StoreNode {
  host: string;
  port: number;
}

export class StoreNodesError extends Error {
  override name = 'StoreNodesError';
}

const MAX_NODES = 9;

function portOf(text: string, what: string): number {
  const port = Number(text);
  if (!/^\d+$/.test(text) || port < 1 || port > 65535) {
    throw new StoreNodesError(`${what}: "${text}" is not a port number.`);
  }
  return port;
}

/**
 * libpq's lists: `hosts` "a,b"; `ports` one port for every host, or one per host (empty: `defaultPort`).
 * `what` names the setting in the error's words (`--host`).
 */
export function parseHostList(
  hosts: string,
  ports: string | undefined,
  defaultPort: number,
  what = 'host',
): StoreNode[] {
  const names = hosts.split(',').map((host) => host.trim());
  if (names.some((host) => !host)) throw new StoreNodesError(`${what}: an empty host name in "${hosts}".`);
  if (names.length > MAX_NODES) throw new StoreNodesError(`${what}: at most ${MAX_NODES} hosts.`);
  const portTexts = ports === undefined || ports === '' ? [] : ports.split(',').map((port) => port.trim());
  if (portTexts.length > 1 && portTexts.length !== names.length) {
    throw new StoreNodesError(
      `${what}: ${names.length} hosts but ${portTexts.length} ports (one, or one each).`,
    );
  }
  return names.map((host, index) => ({
    host,
    port: portTexts.length === 0 ? defaultPort : portOf(portTexts[portTexts.length === 1 ? 0 : index]!, what),
  }));
}

export interface StoreUrl {
  /** Empty when the URL names no host (`postgres:///db`). */
  nodes: StoreNode[];
  /** Empty when the URL names none. */
  database: string;
  user: string;
  password: string;
  params: URLSearchParams;
}

/**
 * A postgres:// URL whose authority may list several `host:port` (WHATWG's URL refuses that list, so the
 * authority is split here and each node checked as a URL of its own). `target_session_attrs` may only be
 * `read-write` (what a team store needs: its writes) or absent; with one node it changes nothing.
 */
export function parseStoreUrl(text: string, what = 'the URL'): StoreUrl {
  const match = /^(postgres(?:ql)?):\/\/(?:([^@/?#]*)@)?([^/?#]*)(\/[^?#]*)?(\?[^#]*)?$/.exec(text.trim());
  if (!match) throw new StoreNodesError(`${what} must be a URL like postgres://user@host:5432/database.`);
  const [, , userInfo = '', authority = '', pathname = '', query = ''] = match;
  const nodes = (authority ? authority.split(',') : []).map((part) => {
    let node: URL;
    try {
      node = new URL(`postgres://${part}`);
    } catch {
      throw new StoreNodesError(`${what}: "${part}" is not a host:port.`);
    }
    if (node.username || node.pathname || !node.hostname)
      throw new StoreNodesError(`${what}: "${part}" is not a host:port.`);
    return { host: node.hostname.replace(/^\[|\]$/g, ''), port: node.port ? Number(node.port) : 5432 };
  });
  if (nodes.length > MAX_NODES) throw new StoreNodesError(`${what}: at most ${MAX_NODES} hosts.`);
  const params = new URLSearchParams(query);
  const attrs = params.get('target_session_attrs');
  if (attrs !== null && attrs !== 'read-write') {
    throw new StoreNodesError(
      `${what}: target_session_attrs may only be read-write (a team store is written to), not "${attrs}".`,
    );
  }
  const [user = '', password = ''] = splitOnce(userInfo, ':');
  return {
    nodes,
    database: decodeURIComponent(pathname.replace(/^\//, '')),
    user: decodeURIComponent(user),
    password: decodeURIComponent(password),
    params,
  };
}

function splitOnce(text: string, separator: string): [string, string] {
  const at = text.indexOf(separator);
  return at < 0 ? [text, ''] : [text.slice(0, at), text.slice(at + 1)];
}

/** Every node of a connection, in the order tried: `host:port`, then its standbys. */
export function storeNodes(connection: Pick<TeamConnection, 'host' | 'port' | 'standbys'>): StoreNode[] {
  return [{ host: connection.host, port: connection.port }, ...(connection.standbys ?? [])];
}

/** The connection's fields for these nodes: the first is `host:port`, the others its standbys. */
export function withNodes(nodes: readonly StoreNode[]): Pick<TeamConnection, 'host' | 'port' | 'standbys'> {
  const [first, ...others] = nodes;
  if (!first) throw new StoreNodesError('No host given.');
  return { host: first.host, port: first.port, ...(others.length ? { standbys: others } : {}) };
}

/** `a:5432,b:5433`, as libpq lists them. */
export const nodesText = (nodes: readonly StoreNode[]): string =>
  nodes.map((node) => `${node.host}:${node.port}`).join(',');
