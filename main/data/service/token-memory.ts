import { createHash } from 'node:crypto';
import path from 'node:path';
import { z } from 'zod';
import { readFileIfExists, writeFileAtomic } from '#main/ground/private-files.ts';
import type { TokenForm } from './token-forms.ts';

/**
 * Which token form worked for each account, so that Automatic does not probe at every start.
 * An account is its base URL and client id (never the secret: a new secret for the same account
 * asks the same endpoint), kept as a hash so the file names no account.
 */
export interface TokenFormMemory {
  recall(baseUrl: string, clientId: string): TokenForm | undefined;
  remember(baseUrl: string, clientId: string, form: TokenForm): void;
}

const FILE = 'token-endpoints.json';
const fileSchema = z.record(z.string().regex(/^[0-9a-f]{64}$/), z.enum(['real', 'document']));

function accountKey(baseUrl: string, clientId: string): string {
  return createHash('sha256')
    .update(`${baseUrl.replace(/\/+$/, '')}\n${clientId}`)
    .digest('hex');
}

export function tokenFormMemory(dataDir: string): TokenFormMemory {
  const file = path.join(dataDir, FILE);
  const read = (): z.infer<typeof fileSchema> => {
    try {
      const parsed = fileSchema.safeParse(JSON.parse(readFileIfExists(file) ?? '{}'));
      // A file that does not read is only a lost hint: Automatic finds the form again.
      return parsed.success ? parsed.data : {};
    } catch {
      return {};
    }
  };
  return {
    recall: (baseUrl, clientId) => read()[accountKey(baseUrl, clientId)],
    remember(baseUrl, clientId, form) {
      const known = read();
      known[accountKey(baseUrl, clientId)] = form;
      writeFileAtomic(file, `${JSON.stringify(known, null, 2)}\n`);
    },
  };
}
