// The CSV rules live in the contract since the renderer writes CSV too (the trends' tables, #39).
export { type CsvValue, exportFileName, toCsv } from '#contract/csv.ts';
