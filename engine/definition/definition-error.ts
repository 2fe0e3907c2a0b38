/** A problem in resources/: names the file and the place in it. Collected, then thrown together. */
export interface DefinitionProblem {
  file: string;
  /** Dotted place inside the file, e.g. `filters.custmer`. */
  at: string;
  line?: number;
  message: string;
}

export class DefinitionError extends Error {
  constructor(readonly problems: DefinitionProblem[]) {
    super(['Invalid resource definitions:', ...problems.map(describeProblem)].join('\n'));
    this.name = 'DefinitionError';
  }
}

function describeProblem(p: DefinitionProblem): string {
  return `  ${p.file}${p.line ? `:${p.line}` : ''}: ${p.at ? `${p.at}: ` : ''}${p.message}`;
}
