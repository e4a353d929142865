// Case links (`vetted://case/<id>`, #28): the installers register the scheme (electron-builder.yml
// `protocols`); at run time Vetted asks to be its handler, and a link opened anywhere reaches the one running
// Vetted (the single-instance lock): on Windows and Linux as a second instance's command line, on macOS as
// 'open-url'. Vetted started by a link finds it in its own command line.
import type { App } from 'electron';
import { CASE_LINK_SCHEME, caseOfLink } from '#contract/claims.ts';

export interface CaseLinkHost {
  app: Pick<App, 'on' | 'setAsDefaultProtocolClient'>;
  /** Run from a checkout (`electron .`): the handler is Electron with our entry script, not our own binary. */
  defaultApp: boolean;
  execPath: string;
  /** The entry script Electron was given (process.argv[1]) when `defaultApp`. */
  entry: string | undefined;
}

/** The case a command line names (a link among its arguments), or null. */
export function caseInArgv(argv: readonly string[]): string | null {
  for (const arg of argv) {
    const customerId = caseOfLink(arg);
    if (customerId) return customerId;
  }
  return null;
}

/**
 * Makes Vetted the handler of case links and calls `open` with each case a link names (anything else that
 * arrives, a malformed or foreign link, is ignored). `onSecondInstance` still hears every second start.
 */
export function handleCaseLinks(
  host: CaseLinkHost,
  open: (customerId: string) => void,
  onSecondInstance: () => void,
): void {
  const { app } = host;
  if (host.defaultApp && host.entry) {
    app.setAsDefaultProtocolClient(CASE_LINK_SCHEME, host.execPath, [host.entry]);
  } else {
    app.setAsDefaultProtocolClient(CASE_LINK_SCHEME);
  }
  app.on('second-instance', (_event, argv) => {
    onSecondInstance();
    const customerId = caseInArgv(argv);
    if (customerId) open(customerId);
  });
  app.on('open-url', (event, url) => {
    event.preventDefault();
    const customerId = caseOfLink(url);
    if (customerId) open(customerId);
  });
}
