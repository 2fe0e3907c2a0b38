// `{field}` and `{relation.column}` placeholders in a definition's texts: a document number's code
// and prefix (`{journal.code}/{year}/`), a template's name, a lock's message.

/** The placeholders of a text, `{year}` left out (a sequence's own). */
export function templatePaths(template: string): string[] {
  return [...template.matchAll(/\{([a-zA-Z0-9_.]+)\}/g)].map((match) => match[1]!).filter((path) => path !== 'year');
}
