import {
  type ChannelInput,
  type ChannelName,
  type ChannelOutput,
  channelNames,
  type EventName,
  type EventPayload,
  isEventName,
} from './channels.ts';
import { ContractErrorCode, type Result, ResultSchema, VettedError } from './errors.ts';

/** How a bridge reaches main: Electron IPC in the preload, HTTP and server-sent events in browser mode. */
export interface Transport {
  invoke(channel: ChannelName, input: unknown): Promise<unknown>;
  subscribe(listener: (event: string, payload: unknown) => void): () => void;
}

type Namespace = ChannelName extends `${infer N}.${string}` ? N : never;
type MethodsOf<N extends Namespace, Wrap extends 'result' | 'value'> = {
  [C in ChannelName as C extends `${N}.${infer M}` ? M : never]: undefined extends ChannelInput<C>
    ? (
        input?: ChannelInput<C>,
      ) => Promise<Wrap extends 'result' ? Result<ChannelOutput<C>> : ChannelOutput<C>>
    : (
        input: ChannelInput<C>,
      ) => Promise<Wrap extends 'result' ? Result<ChannelOutput<C>> : ChannelOutput<C>>;
};
type Listen = <E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void) => () => void;

/**
 * `window.vetted`: one function per channel, resolving to a Result (errors do not survive
 * contextBridge intact, results do), and `on`. Nothing else is exposed.
 */
export type VettedBridge = { [N in Namespace]: MethodsOf<N, 'result'> } & { on: Listen };

/** The same API for the renderer's own use: resolves to the value or throws a VettedError. */
export type VettedApi = { [N in Namespace]: MethodsOf<N, 'value'> } & { on: Listen };

export function bridge(transport: Transport): VettedBridge {
  const api: Record<string, Record<string, unknown>> = {};
  for (const channel of channelNames) {
    const [namespace, method] = channel.split('.') as [string, string];
    api[namespace] ??= {};
    api[namespace][method] = (input?: unknown) => invokeSafely(transport, channel, input);
  }
  const on: Listen = (event, listener) => {
    if (!isEventName(event)) throw new TypeError(`Unknown event ${String(event)}`);
    return transport.subscribe((name, payload) => {
      if (name === event) listener(payload as EventPayload<typeof event>);
    });
  };
  return Object.freeze({ ...api, on }) as unknown as VettedBridge;
}

async function invokeSafely(
  transport: Transport,
  channel: ChannelName,
  input: unknown,
): Promise<Result<unknown>> {
  try {
    const parsed = ResultSchema.safeParse(await transport.invoke(channel, input));
    if (parsed.success) return parsed.data;
    return {
      ok: false,
      error: { code: ContractErrorCode.internal, message: 'Vetted sent an answer it should not have.' },
    };
  } catch {
    return {
      ok: false,
      error: { code: 'Disconnected', message: 'Vetted’s main process could not be reached.' },
    };
  }
}

/** Unwraps every channel of a bridge: values come back, failures are thrown as VettedError. */
export function unwrap(vetted: VettedBridge): VettedApi {
  const api: Record<string, Record<string, unknown>> = {};
  for (const channel of channelNames) {
    const [namespace, method] = channel.split('.') as [string, string];
    const call = (
      vetted as unknown as Record<string, Record<string, (input?: unknown) => Promise<Result<unknown>>>>
    )[namespace]?.[method];
    if (!call) throw new TypeError(`The bridge lacks ${channel}`);
    api[namespace] ??= {};
    api[namespace][method] = async (input?: unknown) => {
      const result = await call(input);
      if (!result.ok) throw new VettedError(result.error);
      return result.value;
    };
  }
  return Object.freeze({ ...api, on: vetted.on }) as unknown as VettedApi;
}
