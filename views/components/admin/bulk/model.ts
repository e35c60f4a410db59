// Shapes of the bulk actions (POST /admin/applications/bulk, /admin/grants/bulk).
export type BulkResult = { id: string; ok: boolean; msg: string; label?: string; unchanged?: boolean; emailed: string[] };
export type BulkAnswer = {
  batchId?: string;
  preview: boolean;
  results: BulkResult[];
  counts: { total: number; ok: number; skipped: number; unchanged: number; emailed: number };
};
export type BulkAction = 'approve' | 'reject' | 'extra_attempt';
export const ACTION_LABEL: Record<BulkAction, string> = { approve: 'Approve', reject: 'Reject', extra_attempt: 'Grant an extra attempt' };
