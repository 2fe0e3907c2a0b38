// A bank account's holder is its partner (reference-projects-extras §5): account_holder_name is
// the partner's name, written on every create and update of the account, and again on the
// partner's accounts when the partner is renamed.
import type { Hook } from '../../../engine/index.ts';
import { changedIds } from '../support/changed-rows.ts';

/** beforeCreate/beforeUpdate of partners/bank-accounts: the holder's name from the partner. */
export const bankAccountHolder: Hook = async ({ trx, values, record }) => {
  const partnerId = values.partner_id ?? record?.partner_id;
  const partner = await trx('partners_partners').where('id', partnerId).first('name');
  values.account_holder_name = partner?.name ?? '';
};

/** afterUpdate of partners/partners: a renamed partner's accounts take the new name, in one statement. */
export const renameBankAccountHolders: Hook = async ({ trx, values, record }) => {
  if (!record || values.name === undefined) return;
  const accounts = trx('partners_bank_accounts').where('partner_id', record.id).whereNot('account_holder_name', record.name);
  const ids = await accounts.clone().pluck('id');
  if (ids.length === 0) return;
  await accounts.update({ account_holder_name: record.name });
  changedIds(trx, 'partners/bank-accounts', ids);
};
