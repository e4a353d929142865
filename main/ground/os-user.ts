import os from 'node:os';

/**
 * Who is at the desk in solo mode: the operating system's user name, as the audit log and notes name
 * them. A host without one (a container with an unnamed uid) still gets a stable name.
 */
export function osUserName(): string {
  try {
    return os.userInfo().username || `uid ${process.getuid?.() ?? 'unknown'}`;
  } catch {
    return process.env.USER || process.env.USERNAME || 'unknown user';
  }
}
