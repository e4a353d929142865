import { useId, useState } from 'react';
import { PAGE_SIZES, type PageSize } from '#contract/case-file.ts';
import { api } from '#renderer/api.ts';
import { ExportFileButton } from '#renderer/shared/case/ExportFileButton.tsx';
import { Select } from '#renderer/ui/Select.tsx';

const PAGES = { one: 'page', many: 'pages' };
const PAGE_SIZE_KEY = 'vetted.caseFilePageSize';

/** The page size last chosen, kept in this window's storage: a preference, no personal data. */
function savedPageSize(): PageSize {
  const saved = globalThis.localStorage?.getItem(PAGE_SIZE_KEY);
  return PAGE_SIZES.find((size) => size === saved) ?? 'A4';
}

/**
 * The case file: one PDF of this customer's case for an examiner, made in main (masked as on screen, audited)
 * and saved as the exports are. The page size is chosen beside it.
 */
export function CaseFileButton({ customerId }: { customerId: string }) {
  const id = useId();
  const [pageSize, setPageSize] = useState<PageSize>(savedPageSize);
  const choose = (value: string) => {
    const size = PAGE_SIZES.find((option) => option === value) ?? 'A4';
    setPageSize(size);
    globalThis.localStorage?.setItem(PAGE_SIZE_KEY, size);
  };
  return (
    // Not a named region: the case pane is the region named "Case", and this one's name would contain it.
    <div className="case-section case-file">
      <h3>Case file</h3>
      <p className="hint">
        One PDF of this case for an examiner, personal data masked as on screen, with its audit entries.
        Making it is recorded in the audit log.
      </p>
      <label htmlFor={`${id}-size`} className="visually-hidden">
        Case file page size
      </label>
      <Select id={`${id}-size`} value={pageSize} onChange={(event) => choose(event.target.value)}>
        {PAGE_SIZES.map((size) => (
          <option key={size} value={size}>
            {size}
          </option>
        ))}
      </Select>
      <ExportFileButton
        label="Case file (PDF)"
        noun={PAGES}
        make={() => api.case.file({ customerId, pageSize })}
      />
    </div>
  );
}
