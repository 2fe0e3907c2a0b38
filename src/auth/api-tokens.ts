// API tokens for integrations: long-lived bearer tokens a user issues for a script, each limited
// to the abilities (permission names) it was given, and never more than its user holds now.
//   POST   /security/tokens        {name, abilities, expires_at?} → 201 {data, token, message}
//   GET    /security/tokens        the caller's tokens (never their secret)
//   DELETE /security/tokens/{id}   revokes one of the caller's tokens
// The secret is shown once; only its SHA-256 is stored.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Knex } from 'knex';
import { ForbiddenError, formatTimestamp, inTransaction, NotFoundError, nowTimestamp, ValidationError, type FieldErrors, type Registry } from '../../engine/index.ts';
import { allPermissions } from '../access/permissions.ts';
import { principal } from '../access/principal.ts';
import { deleteApiTokens, issueApiToken, tokenHash } from './tokens.ts';

export const API_TOKENS_PATH = '/security/tokens';

interface TokenInput {
  name: string;
  abilities: string[];
  expiresAt: Date | null;
}

/** A request names at most this many abilities: more than the registry has permissions, and a bound on the work. */
export const MAX_ABILITIES = 1000;

export function registerApiTokenRoutes(app: FastifyInstance, knex: Knex, registry: Registry, authenticate: (request: FastifyRequest) => Promise<void>, prefix: string) {
  const known = new Set(allPermissions(registry).map((entry) => entry.name));
  const path = `${prefix}${API_TOKENS_PATH}`;

  app.post(path, { onRequest: authenticate }, async (request, reply) => {
    const input = validate(request.body, known);
    const user = principal(request.authUser!);
    // Nobody hands a script more than they hold themselves.
    if (!input.abilities.every((name) => user.access.permissions.has(name))) throw new ForbiddenError();
    const now = nowTimestamp();
    const data = await inTransaction(knex, async (trx) => {
      const row = {
        user_id: user.id,
        name: input.name,
        abilities: JSON.stringify(input.abilities),
        token_hash: '',
        expires_at: input.expiresAt ? stored(input.expiresAt) : null,
        created_at: now,
        updated_at: now,
      };
      const [id] = await trx('api_tokens').insert(row);
      const token = issueApiToken(app, user.id, Number(id), input.expiresAt);
      await trx('api_tokens')
        .where('id', id)
        .update({ token_hash: tokenHash(token) });
      return { record: await trx('api_tokens').where('id', id).first(), token };
    });
    return reply.code(201).send({ data: output(data.record), token: data.token, message: 'API token created successfully.' });
  });

  app.get(path, { onRequest: authenticate }, async (request, reply) => {
    const rows = await knex('api_tokens').where('user_id', request.authUser!.id).orderBy('id');
    return reply.send({ data: rows.map(output) });
  });

  app.delete(`${path}/:id`, { onRequest: authenticate }, async (request, reply) => {
    const id = (request.params as { id: string }).id;
    if (!/^[0-9]{1,15}$/.test(id)) throw new NotFoundError();
    const deleted = await deleteApiTokens(knex, { id: Number(id), user_id: request.authUser!.id });
    if (deleted === 0) throw new NotFoundError();
    return reply.send({ message: 'API token revoked successfully.' });
  });
}

function validate(body: unknown, known: ReadonlySet<string>): TokenInput {
  const input = (body && typeof body === 'object' && !Array.isArray(body) ? body : {}) as Record<string, unknown>;
  const errors: FieldErrors = {};
  const name = typeof input.name === 'string' ? input.name.trim() : input.name;
  if (name === undefined || name === null || name === '') errors.name = ['The name field is required.'];
  else if (typeof name !== 'string') errors.name = ['The name field must be a string.'];
  else if (name.length > 255) errors.name = ['The name field must not be greater than 255 characters.'];

  const abilities = input.abilities;
  if (abilities === undefined || abilities === null) errors.abilities = ['The abilities field is required.'];
  else if (!Array.isArray(abilities)) errors.abilities = ['The abilities field must be an array.'];
  else if (abilities.length === 0) errors.abilities = ['The abilities field must have at least 1 item.'];
  else if (abilities.length > MAX_ABILITIES) errors.abilities = [`The abilities field must not have more than ${MAX_ABILITIES} items.`];
  else {
    abilities.forEach((ability, index) => {
      if (typeof ability !== 'string') errors[`abilities.${index}`] = [`The abilities.${index} field must be a string.`];
      else if (!known.has(ability)) errors[`abilities.${index}`] = [`The selected abilities.${index} is invalid.`];
    });
  }

  let expiresAt: Date | null = null;
  const rawExpiry = input.expires_at;
  if (rawExpiry !== undefined && rawExpiry !== null && rawExpiry !== '') {
    const parsed = typeof rawExpiry === 'string' && /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(rawExpiry) ? new Date(rawExpiry) : undefined;
    if (!parsed || Number.isNaN(parsed.getTime())) errors.expires_at = ['The expires at field must be a valid date.'];
    else if (parsed.getTime() <= Date.now()) errors.expires_at = ['The expires at field must be a date after now.'];
    else expiresAt = parsed;
  }
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
  return { name: name as string, abilities: [...new Set(abilities as string[])], expiresAt };
}

function stored(date: Date): string {
  return `${date.toISOString().slice(0, 23).replace('T', ' ')}000`;
}

/** A token as the API shows it: never its secret or hash. */
function output(row: Record<string, any>) {
  return {
    id: Number(row.id),
    name: row.name,
    abilities: JSON.parse(row.abilities) as string[],
    expires_at: formatTimestamp(row.expires_at),
    last_used_at: formatTimestamp(row.last_used_at),
    created_at: formatTimestamp(row.created_at),
    updated_at: formatTimestamp(row.updated_at),
  };
}
