/**
 * What the client reports. Entries carry no token, secret, query string or body: only what
 * identifies a request (method, path, the service's X-Request-ID) and how it ended.
 */
export interface LogEntry {
  level: 'info' | 'warn' | 'error';
  msg: string;
  requestId?: string;
  status?: number;
  code?: string;
  method?: string;
  path?: string;
}

export type Log = (entry: LogEntry) => void;

export const silentLog: Log = () => {};
