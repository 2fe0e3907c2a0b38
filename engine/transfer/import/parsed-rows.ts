// What the import's parsers hand on: the file's records, each with the line it starts on, and
// the 400 a malformed file answers.
import { BadRequestError } from '../../errors/http-errors.ts';

export interface ParsedRow {
  /** The line of the file the record starts on (1-based); a spreadsheet's row number. */
  line: number;
  values: Record<string, unknown>;
  /** CSV: every value is text, to be read by the field's type. */
  text?: boolean;
}

/** A file that cannot be read as its format: 400 naming the line. */
export class MalformedFileError extends BadRequestError {
  constructor(
    readonly line: number,
    problem: string,
  ) {
    super(`The file is malformed: line ${line} ${problem}.`);
  }
}
