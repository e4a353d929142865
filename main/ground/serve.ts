import {
  type ChannelName,
  type ChannelOutput,
  type ChannelParsedInput,
  invokeChannels,
  isChannelName,
} from '#contract/channels.ts';
import {
  type AppError,
  ContractErrorCode,
  DeskError,
  type Result,
  toldMessage,
  zodFields,
} from '#contract/errors.ts';

/** What a handler knows about its caller, once the host has vouched for it. */
export interface CallContext {
  host: 'electron' | 'browser';
}

export type Handlers = {
  [C in ChannelName]: (
    input: ChannelParsedInput<C>,
    context: CallContext,
  ) => Promise<ChannelOutput<C>> | ChannelOutput<C>;
};

export interface ServeOptions<Sender> {
  host: CallContext['host'];
  /** Only our own window (Electron) or our own session (browser mode) may call. */
  isTrustedSender(sender: Sender): boolean;
  /**
   * Maps a known failure type (e.g. a service error) to what the renderer may see; `unexpected` keeps it a
   * fault for `onUnexpected` too (the flag itself does not cross).
   */
  toAppError?(error: unknown): (AppError & { unexpected?: true }) | undefined;
  /** Sees every unexpected error, with its stack, on the main side only. */
  onUnexpected?(channel: string, error: unknown): void;
  /** Check outputs against the contract too (on in tests and development). */
  validateOutput?: boolean;
}

export type Dispatch<Sender> = (channel: unknown, sender: Sender, input: unknown) => Promise<Result<unknown>>;

const fail = (code: string, message: string, fields?: Record<string, string>): Result<never> => ({
  ok: false,
  error: fields ? { code, message, fields } : { code, message },
});

/**
 * The main-side half of the contract, shared by both hosts: checks the sender and the input,
 * runs the handler, and turns whatever it throws into a typed error without a stack trace.
 */
export function serve<Sender>(handlers: Handlers, options: ServeOptions<Sender>): Dispatch<Sender> {
  const context: CallContext = { host: options.host };
  return async (channel, sender, input) => {
    if (!options.isTrustedSender(sender)) {
      return fail(ContractErrorCode.forbidden, 'This caller is not allowed to use Vetted.');
    }
    if (!isChannelName(channel)) {
      return fail(ContractErrorCode.unknownChannel, 'Vetted does not know this request.');
    }
    const spec = invokeChannels[channel];
    const parsed = spec.input.safeParse(input);
    if (!parsed.success) {
      return fail(
        ContractErrorCode.badInput,
        toldMessage(parsed.error) ?? `The request ${channel} was not valid.`,
        zodFields(parsed.error),
      );
    }
    try {
      const handler = handlers[channel] as (input: unknown, context: CallContext) => unknown;
      const value = await handler(parsed.data, context);
      if (options.validateOutput) spec.output.parse(value);
      return { ok: true, value };
    } catch (error) {
      return { ok: false, error: describeFailure(channel, error, options) };
    }
  };
}

function describeFailure<Sender>(channel: string, error: unknown, options: ServeOptions<Sender>): AppError {
  if (error instanceof DeskError) return error.toAppError();
  const mapped = options.toAppError?.(error);
  if (mapped && !mapped.unexpected) return mapped;
  options.onUnexpected?.(channel, error);
  if (mapped) {
    const { unexpected: _fault, ...told } = mapped;
    return told;
  }
  // The original message may quote a URL, a header or a body: it stays in main.
  return {
    code: ContractErrorCode.internal,
    message: 'Something went wrong inside Vetted. Details are in the log.',
  };
}
