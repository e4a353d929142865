// Personal data at rest: each value is an `encryptField` token (AES-256-GCM, fresh nonce) bound by its AAD to
// the table, row and column it belongs to, so a token copied into another row or column does not decrypt.
import { DecryptError, decryptField, encryptField, KeyNotHeldError } from '#main/ground/crypto.ts';
import { JournalError } from './errors.ts';
import type { PersonalData } from './repositories/personal-data.ts';

/** Where a personal value lives; its AAD. */
export interface PersonalPlace {
  table: 'customers' | 'drafts' | 'notes' | 'document_images' | 'claims' | 'approvals';
  id: string;
  column: string;
}

export interface PersonalCipher {
  seal(place: PersonalPlace, plaintext: string): string;
  /** Throws `JournalError` if the token was made with another key, for another place, or altered. */
  open(place: PersonalPlace, token: string): string;
}

const KEY_BYTES = 32;

/** Seals and opens a value for an AAD; `open` throws `DecryptError` for a token it cannot open. */
export interface FieldSealer {
  seal(aad: string, plaintext: string): string;
  open(aad: string, token: string): string;
}

export function personalCipher(dataKey: Buffer): PersonalCipher {
  if (!Buffer.isBuffer(dataKey) || dataKey.length !== KEY_BYTES) {
    throw new TypeError(`The journal needs the vault's ${KEY_BYTES}-byte data key`);
  }
  return cipherOn({
    seal: (aad, plaintext) => encryptField(dataKey, plaintext, aad),
    open: (aad, token) => decryptField(dataKey, token, aad),
  });
}

/** The personal cipher on any sealer (a team's sealer picks the data key each token names). */
export function cipherOn(fields: FieldSealer): PersonalCipher {
  return {
    seal: (place, plaintext) => fields.seal(personalAad(place), plaintext),
    open(place, token) {
      try {
        return fields.open(personalAad(place), token);
      } catch (error) {
        // A key not held is no damage: the caller says why (team mode: the team's key was changed).
        if (!(error instanceof DecryptError) || error instanceof KeyNotHeldError) throw error;
        throw new JournalError(
          `Cannot decrypt ${place.column} of ${place.table} ${place.id}: it was encrypted with another data key ` +
            '(the vault was reset or replaced, or the team key changed), or it was altered.',
          { cause: error },
        );
      }
    },
  };
}

export function personalAad(place: PersonalPlace): string {
  return `journal:${place.table}/${place.id}/${place.column}`;
}

/** Where a customer's personal value lives. */
export const customerPlace = (id: string, column: string): PersonalPlace => ({
  table: 'customers',
  id,
  column,
});

/** A customer's personal data as its columns hold it (team mode's replica writes them too). */
export function sealedPersonal(cipher: PersonalCipher, id: string, personal: PersonalData) {
  return {
    address: cipher.seal(customerPlace(id, 'address'), JSON.stringify(personal.address)),
    dateOfBirth: cipher.seal(customerPlace(id, 'date_of_birth'), personal.dateOfBirth),
    ssnLastFour: cipher.seal(customerPlace(id, 'ssn_last_four'), personal.ssnLastFour),
  };
}

/** The `reported` column: null when the service gave no field beyond the interface document's. */
export function sealedReported(
  cipher: PersonalCipher,
  id: string,
  reported: Record<string, unknown>,
): string | null {
  return Object.keys(reported).length === 0
    ? null
    : cipher.seal(customerPlace(id, 'reported'), JSON.stringify(reported));
}
