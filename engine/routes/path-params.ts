// Ids in paths: digits only. Anything else cannot name a record, so it is a 404 like an unknown id.
import type { FastifyRequest } from 'fastify';
import { NotFoundError } from '../errors/http-errors.ts';

export function pathId(request: FastifyRequest, name: string): number {
  const raw = (request.params as Record<string, string>)[name] ?? '';
  if (!/^[0-9]{1,15}$/.test(raw)) throw new NotFoundError();
  return Number(raw);
}
