import { lazy } from 'react';
import { WaitingForApproval } from '#renderer/features/approvals/WaitingForApproval.tsx';
import { QueueExportButtons } from '#renderer/features/exports/QueueExportButtons.tsx';
import type { QueueParts } from '#renderer/features/queue/queue-parts.ts';

/**
 * The case panel is a chunk of its own: the queue's rows paint without it (bench/start-up.ts), and the case
 * that opens on start is fetched right after them.
 */
const CaseView = lazy(() => import('./CaseView.tsx').then((module) => ({ default: module.CaseView })));

/** What the queue shows of the other features: the case, the exports, what waits for approval. */
export const QUEUE_PARTS: QueueParts = { CaseView, Exports: QueueExportButtons, WaitingForApproval };
