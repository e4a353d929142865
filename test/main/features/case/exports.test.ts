import { describe, expect, it } from 'vitest';
import { actionWords } from '#contract/audit-actions.ts';
import { NoteTextSchema, QueueExportInputSchema } from '#contract/case.ts';
import { exportFileName, toCsv } from '#contract/csv.ts';
import { topicText } from '#contract/event-topics.ts';
import { maskEmail, maskName } from '#main/features/case/queue-export.ts';

describe('CSV', () => {
  const columns = [
    { header: 'Name', value: (row: { name: string | null }) => row.name },
    { header: 'Count', value: () => 3 },
  ];

  it('quotes what needs it, doubles quotes, and ends every line with CRLF', () => {
    expect(
      toCsv(columns, [{ name: 'plain' }, { name: 'a, "b"' }, { name: 'two\nlines' }, { name: null }]),
    ).toBe('Name,Count\r\nplain,3\r\n"a, ""b""",3\r\n"two\nlines",3\r\n,3\r\n');
  });

  it('keeps a spreadsheet from running a cell as a formula', () => {
    const line = (name: string) => toCsv(columns, [{ name }]).split('\r\n')[1];
    expect(line('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")",3`);
    expect(line('+1')).toBe("'+1,3");
    expect(line('-2+3')).toBe("'-2+3,3");
    expect(line('@SUM(A1)')).toBe("'@SUM(A1),3");
  });

  it('names a file by what was exported, with only safe characters', () => {
    expect(
      exportFileName(['vetted-audit', undefined, 'a b/c'], 'csv', new Date('2026-03-01T12:00:00Z')),
    ).toBe('vetted-audit-a_b_c-2026-03-01.csv');
  });
});

describe('masking and words', () => {
  it('masks names and e-mails to their first letters', () => {
    expect(maskName('Jane  van Doe')).toBe('J••• v••• D•••');
    expect(maskEmail('jane.doe@example.com')).toBe('j•••@example.com');
    expect(maskEmail('not-an-email')).toBe('•••');
  });

  it('says actions and topics in words, and unknown ones plainly', () => {
    expect(actionWords('personal.reveal')).toBe('Personal data revealed');
    expect(actionWords('something.new')).toBe('something.new');
    expect(topicText('customer_verification_document_failed')).toBe('Document rejected');
    expect(topicText('customer_beneficial_owner_added')).toBe('Customer beneficial owner added');
  });
});

describe('the contract', () => {
  it('counts a note in characters and refuses an empty one', () => {
    expect(NoteTextSchema.safeParse('  hello  ').data).toBe('hello');
    expect(NoteTextSchema.safeParse('   ').success).toBe(false);
    expect(NoteTextSchema.safeParse('😀'.repeat(4000)).success).toBe(true);
    expect(NoteTextSchema.safeParse('a'.repeat(4001)).error?.issues[0]?.message).toBe(
      'A note holds at most 4,000 characters.',
    );
  });

  it('asks for a reason of at least 5 characters to export names in full', () => {
    expect(QueueExportInputSchema.safeParse({ section: 'all', search: '' }).success).toBe(true);
    expect(
      QueueExportInputSchema.safeParse({ section: 'all', search: '', revealReason: 'why' }).success,
    ).toBe(false);
  });
});
