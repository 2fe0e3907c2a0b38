// Reads resources/<module>/<name>.yaml, merges each definition over the one it extends
// (./extends.ts) and checks the result against the meta-schema. Bases (`abstract: true`) are
// checked too, but only the definitions they serve come out.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { Value } from '@sinclair/typebox/value';
import type { DefinitionFormats } from './definition-formats.ts';
import type { ResourceFormat as RawResource } from './format.ts';
import { withBase, type ParsedDefinition } from './extends.ts';
import type { DefinitionProblem } from './definition-error.ts';
import { openParseCache, type ParseCache } from './parse-cache.ts';
import { yaml } from './yaml.ts';
import { didYouMean } from './suggest.ts';

export interface LoadedFile {
  name: string;
  module: string;
  file: string;
  raw: RawResource;
  /** Line of a dotted place in the file, for error messages. */
  lineOf(at: string): number | undefined;
}

/** The file beside the modules that plans the Postman run (./walkthroughs.ts): not a definition. */
export const WALKTHROUGHS_FILE = 'walkthroughs.yaml';

export function listDefinitionFiles(dir: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir).sort()) {
    const full = join(dir, entry);
    if (statSync(full).isDirectory()) files.push(...listDefinitionFiles(full));
    else if (/\.ya?ml$/.test(entry)) files.push(full);
  }
  return files;
}

interface ParsedFile extends ParsedDefinition {
  module: string;
  lineOf(at: string): number | undefined;
}

/** `cache`: one shared with the other files read from `dir` (saved by the caller); by default one of its own. */
export function loadDefinitionFiles(dir: string, formats: DefinitionFormats, problems: DefinitionProblem[], cache?: ParseCache): LoadedFile[] {
  const parsed: ParsedFile[] = [];
  const fileOfName = new Map<string, string>();
  const ownCache = cache === undefined;
  cache ??= openParseCache(dir);
  for (const full of listDefinitionFiles(dir)) {
    const file = relative(process.cwd(), full);
    const parts = relative(dir, full).split(sep);
    if (parts.length === 1 && parts[0] === WALKTHROUGHS_FILE) continue;
    if (parts.length !== 2) {
      problems.push({ file, at: '', message: 'a definition lives at resources/<module>/<name>.yaml' });
      continue;
    }
    const module = parts[0]!;
    const name = `${module}/${parts[1]!.replace(/\.ya?ml$/, '')}`;
    const other = fileOfName.get(name);
    if (other) {
      problems.push({ file, at: '', message: `defines ${name} again (already defined by ${other})` });
      continue;
    }
    fileOfName.set(name, file);
    const text = readFileSync(full, 'utf8');
    // The plain parse is three times faster (and kept between starts); the document with
    // positions (for error lines) is built only when a problem has to be reported.
    let raw: unknown;
    try {
      raw = cache.parse(text);
    } catch {
      const { doc, lineCounter } = parsedWithPositions(text);
      for (const error of doc.errors) {
        problems.push({ file, at: '', line: lineCounter.linePos(error.pos[0]).line, message: `YAML: ${error.message.split('\n')[0]}` });
      }
      continue;
    }
    const lineOf = linesOf(text);
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
      problems.push({ file, at: '', line: lineOf(''), message: 'a definition is a map of keys (table, label, path, fields, ...)' });
      continue;
    }
    parsed.push({ name, module, file, raw: raw as Record<string, unknown>, lineOf });
  }
  if (ownCache) cache.save();

  const byName = new Map(parsed.map((definition) => [definition.name, definition]));
  const loaded: LoadedFile[] = [];
  for (const definition of parsed) {
    const merged = withBase(definition, byName, problems);
    if (!merged) continue;
    // A base needs none of the keys a served definition must have; the merged result must have them all.
    const format = merged.abstract === true ? formats.abstract : formats.resource;
    if (!Value.Check(format, merged)) {
      for (const error of firstErrorPerPlace([...Value.Errors(format, merged)])) {
        const at = error.path.split('/').filter(Boolean).join('.');
        problems.push({ file: definition.file, at, line: definition.lineOf(at), message: describeFormatError(error) });
      }
      continue;
    }
    if (merged.abstract === true) continue;
    loaded.push({ name: definition.name, module: definition.module, file: definition.file, raw: merged as RawResource, lineOf: definition.lineOf });
  }
  return loaded;
}

/** Line of a dotted place (`fields.name.maxLength`) in a YAML text; the text is parsed with positions only when asked. */
export function linesOf(text: string): (at: string) => number | undefined {
  let positions: ReturnType<typeof parsedWithPositions> | undefined;
  return (at) => {
    const { doc, lineCounter } = (positions ??= parsedWithPositions(text));
    const path = at === '' ? [] : at.split('.');
    // The line of the key (or list item) itself: a block value starts on the line after its key.
    for (let depth = path.length; depth > 0; depth--) {
      const range = placeRange(doc.getIn(path.slice(0, depth - 1), true), path[depth - 1]!);
      if (range) return lineCounter.linePos(range[0]).line;
    }
    const root = doc.contents as { range?: [number, number, number] } | null;
    return root?.range ? lineCounter.linePos(root.range[0]).line : undefined;
  };
}

function parsedWithPositions(text: string) {
  const { LineCounter, parseDocument } = yaml();
  const lineCounter = new LineCounter();
  return { doc: parseDocument(text, { lineCounter, prettyErrors: false }), lineCounter };
}

/** Where `segment` sits in a YAML collection: the key of a map entry, or an item of a list. */
function placeRange(collection: unknown, segment: string): [number, number, number] | undefined {
  const { isMap, isScalar, isSeq } = yaml();
  if (isMap(collection)) {
    const pair = collection.items.find((item) => isScalar(item.key) && String(item.key.value) === segment);
    return isScalar(pair?.key) ? (pair.key.range ?? undefined) : undefined;
  }
  if (isSeq(collection)) return (collection.items[Number(segment)] as { range?: [number, number, number] } | undefined)?.range;
  return undefined;
}

type FormatError = ReturnType<typeof Value.Errors> extends Iterable<infer E> ? E : never;

export function firstErrorPerPlace(errors: FormatError[]): FormatError[] {
  const seen = new Set<string>();
  return errors.filter((error) => {
    if (seen.has(error.path)) return false;
    seen.add(error.path);
    return true;
  });
}

function describeUnexpectedKey(error: FormatError): string {
  const key = error.path.split('/').pop()!;
  const schema = error.schema as { properties?: Record<string, unknown>; patternProperties?: Record<string, unknown> };
  // A name chosen by the author (a field, relation or filter), not a key of the format.
  if (schema.patternProperties) return `"${key}" is not a valid name (must match ${Object.keys(schema.patternProperties).join(', ')})`;
  const known = Object.keys(schema.properties ?? {});
  return `unknown key${didYouMean(key, known) || `; expected one of: ${known.join(', ')}`}`;
}

export function describeFormatError(error: FormatError): string {
  // Unknown keys are the most common mistake: name the key and the one meant, not the schema rule.
  if (error.message.includes('Unexpected property')) return describeUnexpectedKey(error);
  if (error.value === undefined) return 'is required';
  return `${error.message} (got ${JSON.stringify(error.value)})`;
}
