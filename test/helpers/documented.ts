// Checks every response the tests see against the OpenAPI document: the operation of its method
// and path must document its status, and the body must validate against that status's schema.
// test/helpers/http.ts calls assertDocumented() from Client.send while the check is installed:
// it is installed by default (the document of resources/), so the definition-driven suite checks
// every response on every database it runs on. Set TEST_DOCUMENTED_CHECK=off to turn it off.
import { isTimeZone } from '../../engine/schema/string-formats.ts';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { buildApiDocument } from '../../src/http/api-docs.ts';
import { API_PREFIX, loadResources } from '../../src/app/build-app.ts';

type Json = Record<string, any>;
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;

/** The interactive page's own assets and copies (hidden routes of @fastify/swagger-ui). */
const UNDOCUMENTED_BY_DESIGN = /^\/api\/docs\/(?:static\/|json$|yaml$)/;

export class UndocumentedResponseError extends Error {
  override name = 'UndocumentedResponseError';
}

interface Route {
  method: string;
  pattern: RegExp;
  /** Literal segments first: `/a/b` wins over `/a/{id}`. */
  weight: number;
  responses: Record<string, Json>;
  /** Its shape, the key of the bucket it is matched in (bucketOf). */
  bucket: string;
}

export interface DocumentedChecker {
  document: Json;
  /** Throws an UndocumentedResponseError when the response is not the documented one. */
  check(method: string, url: string, status: number, body: unknown, contentType?: string): void;
  /** The Ajv validator of a schema of the document (`#/components/schemas/X` references work). */
  validator(schema: Json): ValidateFunction;
}

export function createChecker(document: Json): DocumentedChecker {
  // Compiling is most of the check's cost: without ajv's optimizing passes each schema compiles in
  // half the time, and validating a response is not measurably slower.
  const ajv = new Ajv2020({ strict: true, allErrors: true, validateFormats: true, code: { optimize: false } });
  addFormats(ajv);
  ajv.addFormat('hex-color', /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/);
  ajv.addFormat('url', /^https?:\/\/\S+$/);
  ajv.addFormat('time-zone', isTimeZone);
  ajv.addKeyword({ keyword: 'example', schemaType: ['string', 'number', 'boolean', 'object', 'array', 'null'] });
  ajv.addSchema({ $id: 'openapi', $defs: rewriteRefs(document.components.schemas) });

  // The document repeats the same schema in many operations as objects of their own (8,000
  // responses, 350 different schemas): one compiled validator per text.
  const byObject = new WeakMap<Json, ValidateFunction>();
  const byText = new Map<string, ValidateFunction>();
  const validator = (schema: Json) => {
    let validate = byObject.get(schema);
    if (!validate) {
      const text = JSON.stringify(schema);
      validate = byText.get(text);
      if (!validate) {
        validate = ajv.compile(rewriteRefs(schema));
        byText.set(text, validate);
      }
      byObject.set(schema, validate);
    }
    return validate;
  };

  const routes: Route[] = [];
  // Matched in buckets of one shape (segment count and leading literal segments): a response is
  // tested against a few operations, not all 1,600.
  const buckets = new Map<string, Route[]>();
  for (const [path, item] of Object.entries<Json>(document.paths)) {
    for (const [method, operation] of Object.entries<Json>(item)) {
      const source = path
        .split('/')
        .map((segment) => (segment.startsWith('{') ? '[^/]+' : segment.replace(/[.*+?^$()|[\]\\{}]/g, '\\$&')))
        .join('/');
      routes.push({
        method: method.toUpperCase(),
        pattern: new RegExp(`^${source}/?$`),
        weight: path.split('/').filter((segment) => !segment.startsWith('{')).length,
        responses: operation.responses,
        bucket: bucketOf(path.split('/')),
      });
    }
  }
  routes.sort((a, b) => b.weight - a.weight);
  for (const route of routes) buckets.set(route.bucket, [...(buckets.get(route.bucket) ?? []), route]);
  const candidates = (path: string) => {
    const segments = path.replace(/\/$/, '').split('/');
    // A route whose leading segments hold a placeholder sits in the bucket of its literal ones.
    const keys = new Set(Array.from({ length: LEADING_SEGMENTS + 1 }, (_, literal) => bucketOf(segments, literal)));
    return [...keys].flatMap((key) => buckets.get(key) ?? []).sort((a, b) => b.weight - a.weight);
  };
  const component = (reference: string) =>
    reference
      .replace(/^#\//, '')
      .split('/')
      .reduce((node: Json, key) => node?.[key], document);

  return {
    document,
    validator,
    check(method, url, status, body, contentType) {
      const path = safeDecode(new URL(url, 'http://localhost').pathname);
      if (UNDOCUMENTED_BY_DESIGN.test(path)) return;
      const onPath = candidates(path).filter((route) => route.pattern.test(path));
      const route = onPath.find((candidate) => candidate.method === method || (method === 'HEAD' && candidate.method === 'GET'));
      let response: Json | undefined;
      if (!route) {
        // No such operation: the generic answers for unknown paths and wrong methods.
        const generic: Record<number, string> = {
          400: 'Error',
          404: 'NotFound',
          405: 'MethodNotAllowed',
          413: 'PayloadTooLarge',
          415: 'UnsupportedMediaType',
          429: 'TooManyRequests',
        };
        const name = generic[status];
        if (!name || (status === 405 && onPath.length === 0)) {
          throw new UndocumentedResponseError(
            `${method} ${path} → ${status}: no documented operation${onPath.length > 0 ? ` (the path documents ${onPath.map((r) => r.method).join(', ')})` : ''}`,
          );
        }
        response = name === 'Error' ? { content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } } : document.components.responses[name];
      } else {
        response = route.responses[String(status)];
        if (response?.$ref) response = component(response.$ref);
        if (!response) {
          throw new UndocumentedResponseError(`${method} ${path} → ${status} is not documented (documented: ${Object.keys(route.responses).join(', ')})`);
        }
      }
      if (method === 'HEAD') return;
      const media = Object.keys(response!.content ?? {});
      if (media.length === 0) return;
      const type = String(contentType ?? '')
        .split(';')[0]!
        .trim();
      if (!media.includes(type)) throw new UndocumentedResponseError(`${method} ${path} → ${status}: content type "${type}" is not documented (${media.join(', ')})`);
      if (type !== 'application/json') return;
      const validate = validator(response!.content[type].schema);
      if (!validate(body)) {
        const errors = (validate.errors ?? []).slice(0, 5).map((error) => `${error.instancePath || '/'} ${error.message}${error.params ? ` ${JSON.stringify(error.params)}` : ''}`);
        throw new UndocumentedResponseError(
          `${method} ${path} → ${status}: the body does not match the documented schema:\n  ${errors.join('\n  ')}\n  body: ${JSON.stringify(body).slice(0, 600)}`,
        );
      }
    },
  };
}

/** `/admin/api/v1/<module>/<resource>`: the segments a route's bucket is keyed by, when they are literal. */
const LEADING_SEGMENTS = 6;

/** A route's bucket: its segment count and its leading literal segments (at most `literal` of them). */
function bucketOf(segments: readonly string[], literal = LEADING_SEGMENTS): string {
  const placeholder = segments.findIndex((segment) => segment.startsWith('{'));
  const leading = Math.min(literal, placeholder < 0 ? segments.length : placeholder);
  return `${segments.length} ${segments.slice(0, leading).join('/')}`;
}

/** The path as the router sees it; a broken percent-encoding (a test of the 400) stays as sent. */
function safeDecode(path: string): string {
  try {
    return decodeURI(path);
  } catch {
    return path;
  }
}

/** `#/components/schemas/X` → `openapi#/$defs/X`, everywhere in a schema. */
function rewriteRefs<T>(schema: T): T {
  return JSON.parse(JSON.stringify(schema), (key, value) =>
    key === '$ref' && typeof value === 'string' && value.startsWith('#/components/schemas/') ? `openapi#/$defs/${value.slice('#/components/schemas/'.length)}` : value,
  );
}

let installed: DocumentedChecker | null | undefined;

/** The checker Client.send uses: the document of resources/, unless TEST_DOCUMENTED_CHECK=off. */
export function installedChecker(): DocumentedChecker | undefined {
  if (installed === undefined) {
    installed = process.env.TEST_DOCUMENTED_CHECK === 'off' ? null : createChecker(buildApiDocument(loadResources(), API_PREFIX));
  }
  return installed ?? undefined;
}

/** Installs another checker (or none) for the responses Client.send sees; returns the previous one. */
export function installChecker(checker: DocumentedChecker | null): DocumentedChecker | null {
  const previous = installed ?? null;
  installed = checker;
  return previous;
}

/** Checks one response against the document; throws when it is not what the document says. */
export function assertDocumented(method: string, url: string, status: number, body: unknown, contentType?: string): void {
  installedChecker()?.check(method.toUpperCase(), url, status, body, contentType);
}
