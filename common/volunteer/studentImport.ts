/**
 * 导入学生 (an .xlsx made from the template): what a successful import answers, and the rows a refused file lists in
 * its envelope's `data` (nothing is written then). server/volunteer/studentImport.ts imports; the console's import
 * button shows the result or the bad rows.
 */
export interface StudentImportResult {
  count: number;
  studentIds: number[];
}

/** One bad row of a refused import. */
export interface StudentImportProblem {
  /** Sheet row number (the header is row 1). */
  row: number;
  message: string;
}
