// Boot checks of the value rules (the loader runs them as `defaultFrom`'s: ./value-keys.ts): every relation,
// field and resource a rule names must exist, and the rules must be able to run (no default that
// waits on itself, a stamp on a time stamped by a flag, a company check between records that have
// companies). Each problem names the file and line.
import type { ConditionValue } from '../../definition/format.ts';
import type { FieldDef, ResourceDef } from '../../definition/types.ts';
import { fieldPathCheck } from '../../definition/field-paths.ts';
import { didYouMean } from '../../definition/suggest.ts';
import { defaultSources, fillReads, isOwnValue, placeholdersOf, referencedResource } from '../../definition/value-rules.ts';

type Problem = (at: string, message: string) => void;

export function checkValueRules(def: ResourceDef, resources: ReadonlyMap<string, ResourceDef>, problem: Problem): void {
  const path = fieldPathCheck(def, resources, problem);
  const conditions = (at: string, target: ResourceDef | undefined, entries: Record<string, ConditionValue>, relationKeys = false) => {
    for (const [key, condition] of Object.entries(entries)) {
      const [relationName, column] = key.includes('.') && relationKeys ? (key.split('.') as [string, string]) : [undefined, key];
      const relation = relationName ? target?.relations.get(relationName) : undefined;
      if (relationName && relation?.kind !== 'belongsTo') problem(`${at}.${key}`, `"${relationName}" is not a belongsTo relation of ${target?.name}`);
      const owner = relation ? resources.get(relation.resource) : target;
      if (owner && !owner.fields.get(column)?.stored) problem(`${at}.${key}`, `"${column}" is not a field of ${owner.name}${didYouMean(column, owner.fields.keys())}`);
      if (isOwnValue(condition)) path(`${at}.${key}.field`, condition.field);
    }
  };

  for (const field of def.fields.values()) {
    const at = `fields.${field.name}`;
    if (field.requiredWhen) {
      if (!field.writable) problem(`${at}.requiredWhen`, 'only a field a body may send can be required');
      for (const [column, values] of Object.entries(field.requiredWhen.when)) {
        const other = def.fields.get(column);
        if (!other?.stored || column === field.name)
          problem(`${at}.requiredWhen.when.${column}`, `"${column}" is not another field of this resource${didYouMean(column, def.fields.keys())}`);
        for (const value of values)
          if (other?.enum && !other.enum.includes(String(value)))
            problem(`${at}.requiredWhen.when.${column}`, `"${value}" is not one of ${column}'s values (${other.enum.join(', ')})`);
      }
    }
    if (field.related) {
      path(`${at}.related`, field.related);
      const relation = def.relations.get(field.related.split('.')[0]!);
      if (relation?.kind === 'belongsTo' && resources.get(relation.resource)?.table === def.table)
        problem(`${at}.related`, 'a copy of a record of the same table is not supported');
      if (field.required || field.default !== undefined || field.defaultFrom !== undefined)
        problem(`${at}.related`, 'a copy is written by the engine: no required, default or defaultFrom');
    }
    if ((field.related || field.defaultFrom !== undefined || field.stampedBy) && !field.stored)
      problem(at, 'a value the engine writes needs a column (not computed, ids or records)');
    defaultSources(field).forEach((source, index) => {
      const place = Array.isArray(field.defaultFrom) ? `${at}.defaultFrom.${index}` : `${at}.defaultFrom`;
      if (typeof source === 'string') path(place, source);
      else if ('now' in source) {
        if (field.type !== 'date' && field.type !== 'datetime') problem(place, '{now: true} applies to date and datetime fields');
      } else if ('user' in source) {
        if (field.type !== 'integer') problem(place, '{user: ...} applies to integer fields (an id)');
      } else {
        const target = resources.get(source.first);
        if (!target) problem(`${place}.first`, `unknown resource "${source.first}"${didYouMean(source.first, resources.keys())}`);
        if (target && source.column && !target.fields.get(source.column)?.stored) problem(`${place}.column`, `"${source.column}" is not a field of ${target.name}`);
        conditions(`${place}.where`, target, source.where ?? {}, true);
        for (const name of (source.sort ?? '').split(',').filter(Boolean)) {
          const column = name.replace(/^-/, '');
          if (target && !target.fields.get(column)?.stored) problem(`${place}.sort`, `"${column}" is not a field of ${target.name}`);
        }
      }
    });
    if (field.defaultOnChange && !defaultSources(field).some((source) => typeof source === 'string' || ('first' in source && Object.values(source.where ?? {}).some(isOwnValue))))
      problem(`${at}.defaultOnChange`, 'defaultOnChange needs a defaultFrom that reads a field or a relation of the record');
    if (field.nullMeans && field.default === undefined && field.defaultFrom === undefined) problem(`${at}.nullMeans`, 'needs a default or a defaultFrom');
    if (field.nullMeans && !field.writable) problem(`${at}.nullMeans`, 'applies to fields a body may send');
    if (field.defaultRequired && field.defaultFrom === undefined) problem(`${at}.defaultRequired`, 'defaultRequired needs a defaultFrom (a constant default never fails)');

    const target = resources.get(referencedResource(def, field) ?? '');
    if (field.referencesWhere && field.type === 'ids') conditions(`${at}.referencesWhere`, target, field.referencesWhere);
    else if (field.referencesWhere) {
      for (const [column, condition] of Object.entries(field.referencesWhere)) if (isOwnValue(condition)) path(`${at}.referencesWhere.${column}.field`, condition.field);
    }
    if (field.referencesMessage !== undefined) {
      if (!field.referencesWhere) problem(`${at}.referencesMessage`, 'referencesMessage is the message of referencesWhere: add referencesWhere');
      for (const placeholder of placeholdersOf(field.referencesMessage)) path(`${at}.referencesMessage`, placeholder);
    }
    if (field.checkCompany) {
      if (!target) problem(`${at}.checkCompany`, 'checkCompany applies to fields with references');
      else if (!target.fields.get('company_id')?.stored) problem(`${at}.checkCompany`, `${target.name} has no company_id field`);
      if (!def.fields.get('company_id')?.stored) problem(`${at}.checkCompany`, 'this resource has no company_id field');
    }
    if (field.stampedBy) {
      if (def.fields.get(field.stampedBy)?.type !== 'boolean') problem(`${at}.stampedBy`, `"${field.stampedBy}" is not a boolean field of this resource`);
      if (field.type !== 'datetime' && field.type !== 'date') problem(`${at}.stampedBy`, 'a stamp is a date or datetime field');
    }
  }
  checkFillLoops(def, problem);
}

/** A default that reads (through others) its own field could never be filled. */
function checkFillLoops(def: ResourceDef, problem: Problem): void {
  const filled = new Map([...def.fields.values()].filter((field) => field.related || field.defaultFrom !== undefined).map((field) => [field.name, field]));
  const reaches = (from: FieldDef, name: string, seen: Set<string>): boolean =>
    fillReads(def, from).some((read) => {
      if (read === name) return true;
      if (seen.has(read) || !filled.has(read)) return false;
      seen.add(read);
      return reaches(filled.get(read)!, name, seen);
    });
  for (const field of filled.values()) {
    if (reaches(field, field.name, new Set()))
      problem(`fields.${field.name}.${field.related ? 'related' : 'defaultFrom'}`, `"${field.name}" is filled from itself (through its defaults)`);
  }
}
