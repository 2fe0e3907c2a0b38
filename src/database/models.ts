// The resources' Objection models for operators' scripts and one-off jobs, on the database
// DATABASE_URL names (README: "Scripting against the models"):
//   const { models, close } = await openModels();
//   const late = await models['sales/orders'].query().modify('notTrashed').where('state', 'sale').withGraphFetched('[partner, lines]');
//   await close();
// The request path never uses them: it reads through the engine's prepared statements.
import type { Knex } from 'knex';
import { buildModels, type Models } from '../../engine/index.ts';
import { loadResources } from '../app/build-app.ts';
import { parseDatabaseUrl } from '../app/config.ts';
import { createKnex } from './connection.ts';

export interface OpenModels {
  models: Models;
  knex: Knex;
  close(): Promise<void>;
}

export async function openModels(env: Record<string, string | undefined> = process.env): Promise<OpenModels> {
  // Only the database: a script needs no secret, port or rate limit.
  const knex = createKnex(parseDatabaseUrl(env.DATABASE_URL?.trim() || 'sqlite:data/erp.sqlite'));
  return { models: buildModels(loadResources(), knex), knex, close: () => knex.destroy() };
}
