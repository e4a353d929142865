import { type RefCallback, useState } from 'react';
import { customerFieldHint } from '#contract/customer-rules.ts';
import { Field } from '#renderer/ui/Field.tsx';
import { formatSsn } from './ssn.ts';

interface SsnFieldProps {
  value: string;
  onChange(value: string): void;
  error?: string | undefined;
  inputRef: RefCallback<HTMLElement>;
}

/**
 * The full Social Security number, masked. It shows only while "Hold to reveal" is held down, by
 * pointer or by Space, and hides again the moment it is let go or loses focus.
 */
export function SsnField({ value, onChange, error, inputRef }: SsnFieldProps) {
  const [revealed, setRevealed] = useState(false);
  const hide = () => setRevealed(false);
  return (
    <Field
      label="Social Security number"
      error={error}
      hint={error ? undefined : customerFieldHint('tin', 'retry')}
    >
      {(control) => (
        <span className="ssn-input">
          <input
            {...control}
            ref={inputRef}
            name="tin"
            type={revealed ? 'text' : 'password'}
            value={value}
            inputMode="numeric"
            placeholder="NNN-NN-NNNN"
            required
            autoComplete="off"
            spellCheck={false}
            onChange={(event) => onChange(formatSsn(event.target.value))}
          />
          <button
            type="button"
            aria-controls={control.id}
            aria-pressed={revealed}
            onPointerDown={(event) => {
              // Captured, so that letting go anywhere hides it again.
              event.currentTarget.setPointerCapture(event.pointerId);
              setRevealed(true);
            }}
            onPointerUp={hide}
            onPointerCancel={hide}
            onLostPointerCapture={hide}
            onKeyDown={(event) => {
              if (event.key !== ' ') return;
              event.preventDefault();
              setRevealed(true);
            }}
            onKeyUp={(event) => {
              if (event.key !== ' ') return;
              event.preventDefault();
              hide();
            }}
            onBlur={hide}
            // A long press on a touch screen is a hold, not a request for the context menu.
            onContextMenu={(event) => event.preventDefault()}
          >
            Hold to reveal
          </button>
        </span>
      )}
    </Field>
  );
}
