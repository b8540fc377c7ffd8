import type { Page } from 'playwright-core';

// The smallest files the claims service accepts by their bytes: a PNG signature with its header chunk, and a PDF.
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
// the same bytes twice are one attachment (the service keeps a file once per claim): the report is another PDF
const REPORT_PDF = Buffer.from('%PDF-1.4\n% police report\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');

export const PORTAL_FILES = {
  photos_of_damage: { name: 'bumper.png', mimeType: 'image/png', buffer: PNG },
  repair_estimate: { name: 'estimate.pdf', mimeType: 'application/pdf', buffer: PDF },
  police_report: { name: 'police-report.pdf', mimeType: 'application/pdf', buffer: REPORT_PDF },
} as const;

/** In a claim's portal page: one document sent, then shown received in the checklist. */
export async function sendDocumentThroughPortal(page: Page, type: keyof typeof PORTAL_FILES): Promise<void> {
  await page.getByLabel('What is it?').selectOption(type);
  await page.getByLabel('Choose files').setInputFiles(PORTAL_FILES[type]);
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await page.getByRole('status').filter({ hasText: '1 file(s) sent' }).waitFor();
  await page
    .locator('.checklist-item', { hasText: type.replace(/_/g, ' ') })
    .filter({ hasText: 'Received' })
    .waitFor();
}

/** In a claim's portal page: a photo of the damage and a repair estimate, each sent and then shown received in the checklist. */
export async function sendTwoDocumentsThroughPortal(page: Page): Promise<void> {
  await sendDocumentThroughPortal(page, 'photos_of_damage');
  await sendDocumentThroughPortal(page, 'repair_estimate');
}
