// beforeCreate/beforeUpdate of a tax: groups do not nest, as Odoo says ("Nested group of taxes are
// not allowed"). The definition refuses a group as a child (`children`' referencesWhere); this
// refuses the two ways left: a group given itself as a child, and a child turned into a group.
import { ValidationError, type Hook } from '../../../engine/index.ts';

export const checkTaxChildren: Hook = async ({ trx, values, record }) => {
  const amountType = values.amount_type ?? record?.amount_type;
  if (amountType !== 'group' || record?.id == null) return;
  const id = Number(record.id);
  if (Array.isArray(values.children) && values.children.map(Number).includes(id)) throw new ValidationError({ children: ['A group tax cannot contain itself.'] });
  if (record.amount_type !== 'group' && (await trx('accounts_tax_taxes').where('child_tax_id', id).first('parent_tax_id')))
    throw new ValidationError({ amount_type: ['A tax inside a group cannot become a group: groups do not nest.'] });
};
