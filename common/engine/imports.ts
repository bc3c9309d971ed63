/**
 * One refused row of an engine import (…/importData): the sheet row number (header = 1), the field title and the
 * message. server/engine/ answers the list when it refuses a file; the console's import dialog shows it.
 */
export interface ImportProblem {
  row: number;
  field: string;
  message: string;
}
