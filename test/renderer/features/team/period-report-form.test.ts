// The Team screen's period report form, its rules in Node: the first choice is the last seven local days, and a
// period the contract refuses is said in words next to the field it concerns, as is a first day after today.
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { PeriodReportForm } from '#renderer/features/team/PeriodReportForm.tsx';
import { lastWeek, localDay, periodProblems } from '#renderer/features/team/period-report-form.ts';

const TODAY = '2026-03-11';
const choice = (from: string, to: string) => ({ from, to, format: 'csv' as const, pageSize: 'A4' as const });

describe('the period report form', () => {
  it('first offers the last seven days, today included, as local days', () => {
    // Ten past midnight on 1 March, local time: the week began on 23 February.
    expect(lastWeek(new Date(2026, 2, 1, 0, 10))).toEqual({ from: '2026-02-23', to: '2026-03-01' });
    expect(localDay(new Date(2026, 11, 31, 23, 59))).toBe('2026-12-31');
  });

  it('says what is wrong with the period, next to the day concerned', () => {
    expect(periodProblems(choice('2026-03-02', '2026-03-08'), TODAY)).toEqual({});
    expect(periodProblems(choice('2026-03-11', '2026-03-11'), TODAY)).toEqual({});
    expect(periodProblems(choice('', '2026-03-08'), TODAY)).toEqual({
      from: 'A day is a date such as 2026-11-02.',
    });
    expect(periodProblems(choice('2026-03-08', '2026-03-02'), TODAY)).toEqual({
      to: 'The period ends before it begins: choose a last day on or after the first.',
    });
    expect(periodProblems(choice('2025-01-01', '2026-03-01'), TODAY)).toEqual({
      to: 'A report covers at most 366 days: choose a shorter period.',
    });
    expect(periodProblems(choice('2026-03-12', '2026-03-20'), TODAY)).toEqual({
      from: 'The period has not begun yet: choose a first day that is today or earlier.',
    });
  });

  it('labels every control, under the section’s heading', () => {
    const html = renderToStaticMarkup(createElement(PeriodReportForm));
    expect(html).toContain('<h3 id="team-report">Period report</h3>');
    for (const label of ['First day', 'Last day', 'Format', 'Page size']) {
      const id = new RegExp(`<label for="([^"]+)">${label}</label>`).exec(html)?.[1];
      expect(id, label).toBeTruthy();
      expect(html).toContain(`id="${id}"`);
    }
    expect(html).toContain('Make the period report');
  });
});
