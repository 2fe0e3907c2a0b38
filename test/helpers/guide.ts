// The guides in docs/ are run as written: their `http` blocks are parsed into exchanges and
// replayed against a fresh installation, and every answer must be what the guide shows.
//
// An `http` block holds one or more exchanges, each a request and the answer it gets:
//
//   POST /sales/orders/1/confirm?include=deliveries      ← method and path under /admin/api/v1
//   Idempotency-Key: 7f1c…                               ← headers (optional; Authorization: Bearer <TOKEN> is implied)
//   {"note": "..."}                                      ← a JSON body (optional, may span lines)
//
//   HTTP/1.1 200 OK                                      ← the status the answer must have
//   ETag: "<ETAG>"                                       ← headers it must carry (optional)
//   {"data": {"state": "sale", ...}}                     ← what its body must hold
//
// In what an answer shows, `...` in an object stands for fields left out and at the end of an
// array for entries left out; without it the object's fields (the array's entries) are all
// there is. A string ending in `...` stands for any string that starts with what precedes it.
// `<NAME>` (capitals, bare or in quotes) takes the value the service answered there; later
// requests and answers use it, e.g. a user's token or a stock row's id. `<TOKEN>` is the administrator's token.
//
// A `js` block is a program run with node (TOKEN set, the guide's http://127.0.0.1:3000 pointed
// at the installation); the `text` block after it is the first lines it must print.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client, Response } from './http.ts';

export const API_BASE = '/admin/api/v1';
/** Where the guides' programs send their requests, as an installation's quick start serves it. */
export const GUIDE_ORIGIN = 'http://127.0.0.1:3000';

export interface Exchange {
  kind: 'exchange';
  /** `file:line` of the request line, for messages. */
  at: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
  status: number;
  responseHeaders: Record<string, string>;
  /** The answer's body as shown, `...` marked (see parseShown); undefined when none is shown. */
  shown?: unknown;
}

export interface Program {
  kind: 'program';
  at: string;
  source: string;
  /** The lines it must print first. */
  prints: string[];
}

export type Step = Exchange | Program;

/** Marks a partial object (as a key) or array (as its last entry) in a parsed answer. */
const PARTIAL = '\u2026partial';
const METHOD_LINE = /^(GET|POST|PUT|PATCH|DELETE) (\/\S*)$/;
const STATUS_LINE = /^HTTP\/1\.1 (\d{3})(?: .*)?$/;
const HEADER_LINE = /^([A-Za-z][A-Za-z0-9-]*): (.*)$/;
const CAPTURE = /<([A-Z][A-Z0-9_]*)>/g;
const HAS_CAPTURE = /<[A-Z][A-Z0-9_]*>/;

export class GuideError extends Error {
  override name = 'GuideError';
}

interface Block {
  lang: string;
  /** 1-based line number of the block's first content line. */
  line: number;
  lines: string[];
}

function fencedBlocks(markdown: string): Block[] {
  const blocks: Block[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\S*)\s*$/.exec(lines[i]!);
    if (!open) continue;
    const start = i + 1;
    let end = start;
    while (end < lines.length && !/^```\s*$/.test(lines[end]!)) end++;
    blocks.push({ lang: open[1]!, line: start + 1, lines: lines.slice(start, end) });
    i = end;
  }
  return blocks;
}

/** The steps of a guide, in order: its `http` blocks' exchanges and its programs. */
export function parseGuide(markdown: string, file: string): Step[] {
  const steps: Step[] = [];
  const blocks = fencedBlocks(markdown);
  for (let b = 0; b < blocks.length; b++) {
    const block = blocks[b]!;
    if (block.lang === 'http') steps.push(...parseExchanges(block, file));
    else if (block.lang === 'js') {
      const output = blocks[b + 1];
      if (output?.lang !== 'text') throw new GuideError(`${file}:${block.line}: a js block must be followed by a text block of what it prints`);
      steps.push({ kind: 'program', at: `${file}:${block.line}`, source: block.lines.join('\n'), prints: output.lines.filter((line) => line.trim() !== '') });
      b++;
    }
  }
  return steps;
}

function parseExchanges(block: Block, file: string): Exchange[] {
  const exchanges: Exchange[] = [];
  const { lines } = block;
  let i = 0;
  const skipBlank = () => {
    while (i < lines.length && lines[i]!.trim() === '') i++;
  };
  /** Header lines, then body lines up to a line `stop` accepts (or the end). */
  const headersAndBody = (stop: RegExp) => {
    const headers: Record<string, string> = {};
    for (let header: RegExpExecArray | null; i < lines.length && (header = HEADER_LINE.exec(lines[i]!)); i++) headers[header[1]!.toLowerCase()] = header[2]!;
    const body: string[] = [];
    for (; i < lines.length && !stop.test(lines[i]!); i++) body.push(lines[i]!);
    const text = body.join('\n').trim();
    return { headers, body: text === '' ? undefined : text };
  };
  skipBlank();
  while (i < lines.length) {
    const at = `${file}:${block.line + i}`;
    const request = METHOD_LINE.exec(lines[i]!);
    if (!request) throw new GuideError(`${at}: expected a request line (METHOD /path), found ${JSON.stringify(lines[i])}`);
    i++;
    const sent = headersAndBody(STATUS_LINE);
    if (i >= lines.length) throw new GuideError(`${at}: the request has no answer (HTTP/1.1 <status>)`);
    const status = Number(STATUS_LINE.exec(lines[i]!)![1]);
    i++;
    const answered = headersAndBody(METHOD_LINE);
    let shown: unknown;
    try {
      shown = answered.body === undefined ? undefined : parseShown(answered.body);
    } catch (error) {
      throw new GuideError(`${at}: the answer shown is not JSON (with ...): ${(error as Error).message}`);
    }
    if (sent.body !== undefined && !HAS_CAPTURE.test(sent.body)) {
      try {
        JSON.parse(sent.body);
      } catch (error) {
        throw new GuideError(`${at}: the request body is not JSON: ${(error as Error).message}`);
      }
    }
    exchanges.push({ kind: 'exchange', at, method: request[1]!, path: request[2]!, headers: sent.headers, body: sent.body, status, responseHeaders: answered.headers, shown });
    skipBlank();
  }
  return exchanges;
}

/** JSON where `...` may stand in an object (fields left out) or end an array (entries left out). */
export function parseShown(text: string): unknown {
  let out = '';
  const containers: string[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"') {
      const end = endOfString(text, i);
      out += text.slice(i, end);
      i = end - 1;
    } else if (c === '{' || c === '[') {
      containers.push(c);
      out += c;
    } else if (c === '}' || c === ']') {
      containers.pop();
      out += c;
    } else if (text.startsWith('...', i)) {
      const inside = containers.at(-1);
      if (inside === undefined) throw new Error('`...` outside an object or array');
      out += inside === '{' ? `"${PARTIAL}": true` : `"${PARTIAL}"`;
      i += 2;
    } else if (c === '<') {
      // A bare <NAME> (a captured number reads better without quotes) is the string "<NAME>".
      const capture = /^<[A-Z][A-Z0-9_]*>/.exec(text.slice(i));
      if (!capture) throw new Error(`unexpected < at ${JSON.stringify(text.slice(i, i + 20))}`);
      out += `"${capture[0]}"`;
      i += capture[0].length - 1;
    } else out += c;
  }
  return JSON.parse(out);
}

function endOfString(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i + 1;
  }
  throw new Error('an unterminated string');
}

/**
 * Where `actual` differs from what the guide shows, or undefined when it holds it; `<NAME>`s
 * shown take their values into `vars`.
 */
export function difference(shown: unknown, actual: unknown, vars: Map<string, unknown>, at = 'body'): string | undefined {
  if (typeof shown === 'string') {
    const capture = /^<([A-Z][A-Z0-9_]*)>$/.exec(shown);
    if (capture) {
      if (actual === undefined || actual === null) return `${at}: the guide shows a value (${shown}), the answer has ${JSON.stringify(actual ?? 'nothing')}`;
      vars.set(capture[1]!, actual);
      return undefined;
    }
    if (shown.length > 3 && shown.endsWith('...')) {
      const prefix = shown.slice(0, -3);
      return typeof actual === 'string' && actual.startsWith(prefix)
        ? undefined
        : `${at}: the guide shows a string starting ${JSON.stringify(prefix)}, the answer has ${JSON.stringify(actual)}`;
    }
  }
  if (Array.isArray(shown)) {
    if (!Array.isArray(actual)) return `${at}: the guide shows a list, the answer has ${JSON.stringify(actual)}`;
    const partial = shown.at(-1) === PARTIAL;
    const entries = partial ? shown.slice(0, -1) : shown;
    if (partial ? actual.length < entries.length : actual.length !== entries.length)
      return `${at}: the guide shows ${entries.length}${partial ? ' or more' : ''} entries, the answer has ${actual.length}`;
    for (let i = 0; i < entries.length; i++) {
      const found = difference(entries[i], actual[i], vars, `${at}[${i}]`);
      if (found) return found;
    }
    return undefined;
  }
  if (shown !== null && typeof shown === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return `${at}: the guide shows an object, the answer has ${JSON.stringify(actual)}`;
    const record = actual as Record<string, unknown>;
    for (const [key, value] of Object.entries(shown)) {
      if (key === PARTIAL) continue;
      if (!(key in record)) return `${at}.${key}: the guide shows ${JSON.stringify(value)}, the answer has no such field`;
      const found = difference(value, record[key], vars, `${at}.${key}`);
      if (found) return found;
    }
    if (!(PARTIAL in shown)) {
      const extra = Object.keys(record).filter((key) => !(key in shown));
      if (extra.length > 0) return `${at}: the answer also has ${extra.join(', ')} (the guide shows no \`...\` there)`;
    }
    return undefined;
  }
  return shown === actual ? undefined : `${at}: the guide shows ${JSON.stringify(shown)}, the answer has ${JSON.stringify(actual)}`;
}

/** `text` with every `<NAME>` replaced by the value an earlier answer gave it. */
export function substitute(text: string, vars: Map<string, unknown>, at: string): string {
  return text.replace(CAPTURE, (_, name: string) => {
    if (!vars.has(name)) throw new GuideError(`${at}: <${name}> is used before an answer shows it`);
    return String(vars.get(name));
  });
}

/** Does a header value hold what the guide shows (`<NAME>` takes any value, `...` any rest)? */
function headerDifference(name: string, shown: string, actual: string | string[] | undefined, vars: Map<string, unknown>, at: string): string | undefined {
  const value = Array.isArray(actual) ? actual.join(', ') : actual;
  if (value === undefined) return `${at}: the answer has no ${name} header`;
  const names: string[] = [];
  const pattern = shown
    .split(/(<[A-Z][A-Z0-9_]*>|\.\.\.)/)
    .map((part) => {
      if (part === '...') return '.*';
      const capture = /^<([A-Z][A-Z0-9_]*)>$/.exec(part);
      if (capture) {
        names.push(capture[1]!);
        return '(.+?)';
      }
      return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('');
  const match = new RegExp(`^${pattern}$`).exec(value);
  if (!match) return `${at}: the guide shows ${name}: ${shown}, the answer has ${name}: ${value}`;
  for (const [index, capture] of names.entries()) vars.set(capture, match[index + 1]);
  return undefined;
}

/** Sends one exchange's request (with the values captured so far) and checks its answer. */
export async function replayExchange(client: Client, exchange: Exchange, vars: Map<string, unknown>): Promise<Response> {
  const { at } = exchange;
  const path = substitute(exchange.path, vars, at);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(exchange.headers)) headers[name] = substitute(value, vars, at);
  if (!headers.authorization && path !== '/login') headers.authorization = `Bearer ${substitute('<TOKEN>', vars, at)}`;
  const body = exchange.body === undefined ? undefined : substitute(exchange.body, vars, at);
  if (body !== undefined) headers['content-type'] ??= 'application/json';
  const response = await client.send(exchange.method, `${API_BASE}${path}`, { headers, rawBody: body });
  const request = `${exchange.method} ${path}`;
  const fail = (why: string) => {
    throw new GuideError(`${at} ${request}: ${why}\n  the answer: ${response.status} ${response.text.slice(0, 2000)}`);
  };
  if (response.status !== exchange.status) fail(`the guide shows ${exchange.status}, the service answered ${response.status}`);
  for (const [name, value] of Object.entries(exchange.responseHeaders)) {
    const found = headerDifference(name, value, response.headers[name], vars, at);
    if (found) fail(found);
  }
  if (exchange.shown !== undefined) {
    if (response.body === undefined) fail('the guide shows a body, the answer has none');
    const found = difference(exchange.shown, response.body, vars);
    if (found) fail(found);
  }
  return response;
}

/** Runs a guide's program until it printed as many lines as the guide shows, then stops it. */
export async function runProgram(program: Program, origin: string, token: string, timeoutMs = 30_000): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'erp-guide-'));
  const file = join(dir, 'program.mjs');
  writeFileSync(file, program.source.replaceAll(GUIDE_ORIGIN, origin));
  const child = spawn(process.execPath, [file], { env: { ...process.env, TOKEN: token }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  try {
    const printed = await new Promise<string[]>((resolve) => {
      const timer = setTimeout(() => resolve(lines()), timeoutMs);
      const lines = () => stdout.split('\n').filter((line) => line.trim() !== '');
      child.stdout.on('data', (chunk) => {
        stdout += chunk;
        if (lines().length >= program.prints.length) {
          clearTimeout(timer);
          resolve(lines());
        }
      });
      child.stderr.on('data', (chunk) => (stderr += chunk));
      child.on('close', () => {
        clearTimeout(timer);
        resolve(lines());
      });
    });
    const first = printed.slice(0, program.prints.length);
    if (JSON.stringify(first) !== JSON.stringify(program.prints))
      throw new GuideError(
        `${program.at}: the program printed\n  ${first.join('\n  ')}\nwhere the guide shows\n  ${program.prints.join('\n  ')}${stderr ? `\n  stderr: ${stderr.slice(0, 2000)}` : ''}`,
      );
  } finally {
    child.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}
