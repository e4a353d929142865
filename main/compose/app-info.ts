import type { AppInfo } from '#contract/channels.ts';
import type { DeskContext } from '../features/feature.ts';
import type { Handlers } from '../ground/serve.ts';

/** Which app answers, on which host, on which kind of service; and a round trip to prove the bridge. */
export function appInfoHandlers(
  context: Pick<DeskContext, 'connection'>,
  app: { host: AppInfo['host']; version: string },
): Pick<Handlers, 'app.info' | 'app.ping'> {
  return {
    'app.info': () => ({
      name: 'Vetted',
      version: app.version,
      host: app.host,
      serviceMode: context.connection().mode,
    }),
    'app.ping': ({ nonce }) => ({ nonce, at: new Date().toISOString() }),
  };
}
