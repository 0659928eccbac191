/**
 * 'Claves del SAT para facturar' in the back office's product forms: the product's ClaveProdServ and
 * ClaveUnidad. Left empty, the database gives the product its type's key and H87 (pieza).
 */
import { TextField } from '../ui/Field.tsx';
import { ADMIN_PRODUCT_SAT_KEYS_TEXT as TEXT } from '~/i18n/tax-data.ts';

interface Props {
  /** Prefix of the inputs' ids ('adm-edit' → 'adm-edit-satProductKey'). */
  idPrefix: string;
  productKey: string;
  unitKey: string;
  onProductKey: (value: string) => void;
  onUnitKey: (value: string) => void;
  errors: Record<string, string>;
}

export function SatKeysFieldset({ idPrefix, productKey, unitKey, onProductKey, onUnitKey, errors }: Props) {
  return (
    <fieldset className="adm-box">
      <legend>{TEXT.legend}</legend>
      <p className="muted">{TEXT.hint}</p>
      <div className="acct-row">
        <TextField
          id={`${idPrefix}-satProductKey`}
          label={TEXT.productKey}
          value={productKey}
          onChange={onProductKey}
          error={errors.satProductKey}
          inputMode="numeric"
          maxLength={8}
        />
        <TextField
          id={`${idPrefix}-satUnitKey`}
          label={TEXT.unitKey}
          value={unitKey}
          onChange={onUnitKey}
          error={errors.satUnitKey}
          autoCapitalize="characters"
          maxLength={3}
        />
      </div>
    </fieldset>
  );
}
