import { create } from 'zustand';
import type { AuditFilter, AuditRow, AuditWindow, ExportFile, ExportFormat } from '#contract/case.ts';
import { api } from '#renderer/api.ts';
import { windowedLoader } from '#renderer/shared/windowed/windowed-loader.ts';
import type { Pages, Range } from '#renderer/shared/windowed/windowed-pages.ts';

/** The filter as typed: '' for "any"; dates as `YYYY-MM-DD` in the reviewer's time zone, both days included. */
export interface AuditFilterFields {
  actor: string;
  action: string;
  customerId: string;
  fromDay: string;
  toDay: string;
}

const NO_FILTER: AuditFilterFields = { actor: '', action: '', customerId: '', fromDay: '', toDay: '' };

interface AuditState {
  fields: AuditFilterFields;
  pages: Pages<AuditRow>;
  total: number | null;
  actors: string[];
  actions: AuditWindow['actions'];
  queryVersion: number;
  problem: string | null;
  setField(name: keyof AuditFilterFields, value: string): void;
  clearFilter(): void;
  showRange(range: Range): void;
  /** Asks again (the screen was opened: actions happened since). */
  refresh(): void;
  exportShown(format: ExportFormat): Promise<ExportFile>;
}

const startOfDay = (day: string, plusDays = 0) => {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(y, m - 1, d + plusDays).toISOString();
};

/** The filter as the contract takes it: no empty strings; a day range in local time, `to` exclusive. */
export function filterOf(fields: AuditFilterFields): AuditFilter {
  const customerId = fields.customerId.trim();
  return {
    ...(fields.actor ? { actor: fields.actor } : {}),
    ...(fields.action ? { action: fields.action } : {}),
    ...(customerId ? { customerId } : {}),
    ...(/^\d{4}-\d{2}-\d{2}$/.test(fields.fromDay) ? { from: startOfDay(fields.fromDay) } : {}),
    ...(/^\d{4}-\d{2}-\d{2}$/.test(fields.toDay) ? { to: startOfDay(fields.toDay, 1) } : {}),
  };
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export const useAuditStore = create<AuditState>((set, get) => {
  const loader = windowedLoader({
    fetch: (offset, limit) => api.audit.window({ filter: filterOf(get().fields), offset, limit }),
    read: () => get(),
    write: (pages, window) =>
      set(
        window
          ? { pages, total: window.total, actors: window.actors, actions: window.actions, problem: null }
          : { pages },
      ),
    failed: (error) => set({ problem: `The audit log could not be loaded: ${messageOf(error)}` }),
  });
  const startQuery = (fields: AuditFilterFields) => {
    loader.newQuery();
    set((state) => ({ fields, pages: new Map(), total: null, queryVersion: state.queryVersion + 1 }));
    loader.ensureVisible();
  };
  return {
    fields: NO_FILTER,
    pages: new Map(),
    total: null,
    actors: [],
    actions: [],
    queryVersion: 0,
    problem: null,
    setField(name, value) {
      if (get().fields[name] !== value) startQuery({ ...get().fields, [name]: value });
    },
    clearFilter: () => startQuery(NO_FILTER),
    showRange: (range) => loader.showRange(range),
    refresh: () => loader.refresh(),
    exportShown: (format) => api.audit.export({ filter: filterOf(get().fields), format }),
  };
});
