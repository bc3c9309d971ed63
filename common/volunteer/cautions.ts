/**
 * What a family should know about one choice before filling it (issue 24 item 3): the server's answer
 * (server/volunteer/cautions.ts lineCautions), shown by the plan report, the editor, the PDF, the Excel workbook and
 * the share page. `text` is the whole Chinese sentence, with the year of every figure in it.
 */
export type CautionKind = 'volatile' | 'single-place' | 'fee' | 'military-police' | 'subject-unknown';

export interface Caution {
  kind: CautionKind;
  text: string;
}

/** Every kind, in the order the report lists them. */
export const CAUTION_KINDS: readonly CautionKind[] = ['volatile', 'single-place', 'fee', 'military-police', 'subject-unknown'];

/** A short label of each kind (a tag in a table). */
export const CAUTION_LABELS: Readonly<Record<CautionKind, string>> = {
  volatile: '位次波动大',
  'single-place': '招生人数少',
  fee: '学费较高',
  'military-police': '军队/公安',
  'subject-unknown': '选科要求未知',
};
