import { type RefCallback, useMemo, useRef, useState } from 'react';
import type { CustomerRulesMode } from '#contract/customer-rules.ts';
import type { CustomerForm } from '#contract/drafts.ts';
import {
  brokenRules,
  type FieldMessages,
  FORM_FIELDS,
  type FormField,
  type FormMessages,
  filledFields,
  firstFieldOf,
  messagesOfPaths,
  messagesOfRules,
  NO_MESSAGES,
} from './form-rules.ts';

export interface CustomerFormControl {
  form: CustomerForm;
  /** What to show beside each field: a broken rule once the field was touched, else what main or the service said. */
  shown: FieldMessages;
  /** What is wrong with the form as a whole, if anything. */
  formMessage: string | null;
  /** The reviewer changed a field: returns the whole new form (for the autosave). */
  change(field: FormField, value: string): CustomerForm;
  /** The ref for a field's control, so that a submit can focus the first error. */
  register(field: FormField): RefCallback<HTMLElement>;
  /** Before sending: shows every broken rule and focuses the first; true when none is broken. */
  checkAll(): boolean;
  /** Errors main or the service reported (JSON pointer → how to fix it); each goes once its field is edited. */
  showReported(byPath: Record<string, string>, options?: { focus: boolean }): void;
  /** Sets a field as if untouched: the retry form blanks the full SSN this way once it is sent. */
  clear(field: FormField): void;
  /** The first field, in the form's order, showing an error. */
  firstError(): FormField | undefined;
  focus(field: FormField): void;
}

/**
 * A customer form checked with the contract's rules as the reviewer types: a field's error shows from
 * its first change (or at once for a reopened draft's filled fields), and a submit shows them all.
 */
export function useCustomerForm(mode: CustomerRulesMode, initial: CustomerForm): CustomerFormControl {
  const [form, setForm] = useState(initial);
  const [touched, setTouched] = useState<ReadonlySet<FormField>>(() => filledFields(initial));
  const [reported, setReported] = useState<FormMessages>(NO_MESSAGES);
  const [checkedAll, setCheckedAll] = useState(false);
  // Changes read and write the latest form, not the one of the last render.
  const latest = useRef(form);
  const controls = useRef(new Map<FormField, HTMLElement>());
  const refs = useRef(new Map<FormField, RefCallback<HTMLElement>>());

  const rules = useMemo(() => messagesOfRules(brokenRules(form, mode)), [form, mode]);
  const shown: FieldMessages = {};
  for (const field of FORM_FIELDS) {
    const text = (touched.has(field) ? rules.fields[field] : undefined) ?? reported.fields[field];
    if (text) shown[field] = text;
  }

  const focus = (field: FormField | undefined) => {
    if (field) controls.current.get(field)?.focus();
  };
  const setField = (field: FormField, value: string) => {
    const next = { ...latest.current, [field]: value };
    latest.current = next;
    setForm(next);
    return next;
  };

  return {
    form,
    shown,
    formMessage: reported.form ?? (checkedAll ? rules.form : null),
    change(field, value) {
      setTouched((fields) => (fields.has(field) ? fields : new Set(fields).add(field)));
      setReported((messages) => {
        if (messages.fields[field] === undefined) return messages;
        const { [field]: _edited, ...rest } = messages.fields;
        return { ...messages, fields: rest };
      });
      return setField(field, value);
    },
    register(field) {
      let ref = refs.current.get(field);
      if (!ref) {
        ref = (element) => {
          if (element) controls.current.set(field, element);
          else controls.current.delete(field);
        };
        refs.current.set(field, ref);
      }
      return ref;
    },
    checkAll() {
      const broken = messagesOfRules(brokenRules(latest.current, mode));
      setTouched(new Set(FORM_FIELDS));
      setCheckedAll(true);
      focus(firstFieldOf(broken.fields));
      return Object.keys(broken.fields).length === 0 && broken.form === null;
    },
    showReported(byPath, { focus: focusFirst } = { focus: false }) {
      const messages = messagesOfPaths(byPath);
      setReported(messages);
      if (focusFirst) focus(firstFieldOf(messages.fields));
    },
    clear(field) {
      setTouched((fields) => {
        const rest = new Set(fields);
        rest.delete(field);
        return rest;
      });
      setField(field, '');
    },
    firstError: () => firstFieldOf(shown),
    focus,
  };
}
